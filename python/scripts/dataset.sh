#!/usr/bin/env bash
# A seeded data set of engine games for learning (docs/rl.md): `pasang
# datagen` in SHARDS shards at once under GNU parallel (each shard a process
# of its own, `--shard K/SHARDS`, so the same recipe spreads over a
# cluster's jobs), merged into one packed file whose records carry the
# move played as an action id. Prints the positions, the size and the time.
#
#   python/scripts/dataset.sh OUT_DIR GAMES [NODES] [SHARDS] [SEED]
#
# NODES defaults to 1000, SHARDS to the number of cores, SEED to 1; the
# binary is $PASANG or target/release/pasang. Without GNU parallel the
# shards run one after the other. The same arguments give the same games.
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 OUT_DIR GAMES [NODES] [SHARDS] [SEED]" >&2
    exit 2
fi
out=$1
games=$2
nodes=${3:-1000}
shards=${4:-$(nproc)}
seed=${5:-1}
binary=${PASANG:-target/release/pasang}
mkdir -p "$out"
start=$(date +%s.%N)
shard() {
    "$binary" datagen --out "$out/shard-$1.txt" --games "$games" --nodes "$nodes" \
        --seed "$seed" --shard "$1/$shards" >/dev/null 2>&1
}
if command -v parallel >/dev/null 2>&1; then
    export -f shard
    export binary out games nodes seed shards
    seq 1 "$shards" | parallel --halt now,fail=1 shard {}
else
    for k in $(seq 1 "$shards"); do shard "$k"; done
fi
"$binary" datagen --merge "$out"/shard-*.txt --out "$out/data.bin" --seed "$seed" >/dev/null
end=$(date +%s.%N)
bytes=$(stat -c %s "$out/data.bin")
positions=$(( (bytes - 32) / 48 ))
echo "$games games, $positions positions, $bytes bytes packed ($out/data.bin), $(echo "$end - $start" | bc) s"
