#!/bin/bash
# Session 16 call 9: the standard suite with aa258c6's bsr_bench (old) and HEAD's (head), one after the other: is 32x32 3% f16 slower in the suite?
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
SECONDS=0
cd $W
for v in head old; do
  timeout 270 $C/bsr_bench_$v --suite standard --json suite_$v.json > suite_$v.md 2> suite_$v.err
  echo "$v suite rc=$? (${SECONDS}s)" >> summary.txt
  grep -E "3% uniform|50% uniform" suite_$v.md | grep -E "\| bsrflow_sm90 " | awk -F'|' '{print "'$v'", $2, $5}' >> summary.txt
done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
