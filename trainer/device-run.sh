#!/bin/bash
# Device run for issue 30: datagen on 16 cores, merge+shuffle, train on the GPU.
# Usage: run.sh GEN_SECONDS NODES TRAIN_SECONDS SHARDS, from a folder holding
# .devrun/pasang (a portable release build: RUSTFLAGS="-C target-cpu=x86-64-v2"
# cargo build --release), .devrun/train.py (this folder's train.py) and
# .devrun/*.whl, the Python module that reads the data (built here with
# `pip wheel ./python -w .devrun`: the device reaches no package index).
# Writes the network, the training log and the datagen figures to $OUT.
# The shipped network: run.sh 300 1000 150 16 (docs/strength.md).
set -u
GEN=${1:-300}; NODES=${2:-1000}; TRAIN=${3:-150}; SHARDS=${4:-16}
SEED=30
D=/tmp/dg; mkdir -p $D; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
P=.devrun/pasang; chmod +x $P
{ date -u; nproc; nvidia-smi -L; $P --version 2>&1 | head -1; } > $OUT/env.txt 2>&1
T0=$(date +%s)
for k in $(seq 1 $SHARDS); do
  timeout -s INT $GEN $P datagen --out $D/s$k.txt --games 100000000 --nodes $NODES \
    --seed $SEED --shard $k/$SHARDS 2> $D/s$k.log > /dev/null &
done
wait
T1=$(date +%s)
{ echo "datagen: $SHARDS shards x 1 thread, nodes $NODES, seed $SEED, $((T1-T0)) s wall";
  tail -n 2 $D/s1.log; du -ch $D/s*.txt | tail -1;
  for k in $(seq 1 $SHARDS); do printf 's%d %s lines\n' $k "$(grep -vc '^#' $D/s$k.txt)"; done; } > $OUT/datagen.txt 2>&1
$P datagen --merge $D/s*.txt --out $D/all.bin --seed $SEED >> $OUT/datagen.txt 2>&1
T2=$(date +%s)
echo "merge: $((T2-T1)) s; bin $(stat -c %s $D/all.bin) bytes" >> $OUT/datagen.txt
cat $OUT/datagen.txt
pip install --no-index --no-deps .devrun/*.whl > $OUT/pip.txt 2>&1 || { cat $OUT/pip.txt; exit 1; }
PYTHONUNBUFFERED=1 python3 .devrun/train.py --data $D/all.bin --out $OUT/pasang.nnue \
  --hidden 256 --batch 16384 --epochs 200 --max-seconds $TRAIN --seed $SEED 2>&1 | tee $OUT/train.log
echo "total $(( $(date +%s) - T0 )) s" | tee -a $OUT/datagen.txt
