#!/bin/bash
# Device check for issue 30: Threads 1-16 on the bench positions of the
# default rules (time to depth, nodes/s), then a short match Threads 8 vs 1.
set -u
P=.devrun2/pasang; chmod +x $P
DEPTH=${1:-18}; GAMES=${2:-20}; MT=${3:-100}
{ nproc; lscpu | grep -E "Model name|Thread|Core|Socket"; $P --version; } > $OUT/env.txt 2>&1
for T in 1 2 4 8 16; do
  for rep in 1 2 3; do
    /usr/bin/time -f "%e s wall" $P analyse --json --threads $T --hash 256 --depth $DEPTH \
      < .devrun2/bench-default.txt > $OUT/t$T-r$rep.json 2>> $OUT/times.txt
    echo "T=$T rep=$rep $(tail -1 $OUT/times.txt)" | tee -a $OUT/threads.txt
  done
done
python3 - <<'PY' | tee -a $OUT/threads.txt
import json,glob,os,statistics as st
out=os.environ['OUT']
for T in (1,2,4,8,16):
    rows=[]
    for rep in (1,2,3):
        objs=[json.loads(l) for l in open(f"{out}/t{T}-r{rep}.json") if l.strip()]
        ms=sum(o['time_ms'] for o in objs); n=sum(o['nodes'] for o in objs)
        rows.append((ms,n))
    ms=st.median(r[0] for r in rows); n=st.median(r[1] for r in rows)
    print(f"threads {T}: time to depth (sum over positions) median {ms} ms, nodes {n}, nps {int(n/max(ms,1)*1000)}; runs {rows}")
PY
# keep only the summary files (8 files back at most)
cat $OUT/t1-r1.json > $OUT/sample-t1.json; rm -f $OUT/t*-r*.json
timeout 140 $P match --engine cmd=$P,name=threads8,option.Threads=8,option.Hash=64 \
  --engine cmd=$P,name=threads1,option.Threads=1,option.Hash=64 \
  --movetime $MT --games $GAMES --concurrency 1 --pattern 1,2 --ka-entry slide,jump,both \
  --second-column opposite,any --centre wall,open --random-plies 2 --seed 30 --time-margin 30 --report-every 2 \
  --out $OUT/match.pgn 2>&1 | tail -25 > $OUT/match.txt
cat $OUT/match.txt
