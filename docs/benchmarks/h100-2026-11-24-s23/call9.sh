#!/bin/bash
# Session 23 call 9 (H100): the standard suite as bursts from wherever the previous series left
# the GPU (--rest-ms 0, the default) and from a rested GPU (--rest-ms 200: the host waits for the
# stream and sleeps 200 ms before each series' warm-up), one after the other, then again.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
for i in 1 2; do
  timeout 120 $C/bsr_bench --suite standard --json norest_$i.json > norest_$i.md 2> norest_$i.err
  echo "rest 0 round $i rc=$? (${SECONDS}s)" >> summary.txt
  timeout 200 $C/bsr_bench --suite standard --rest-ms 200 --json rest_$i.json > rest_$i.md 2> rest_$i.err
  echo "rest 200 round $i rc=$? (${SECONDS}s)" >> summary.txt
  python3 $C/compare_warmup.py norest_$i.json rest_$i.json >> summary.txt 2>&1
done
python3 $C/summ.py rest_1.json >> summary.txt 2>&1
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
