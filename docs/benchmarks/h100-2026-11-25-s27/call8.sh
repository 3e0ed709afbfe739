#!/bin/bash
# Session 27 call 8 (H200): call 7's build; the row-group tests and the hidden sm90 benchmark at 16
# and 32, twice.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w8; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
for i in 1 2; do
  BSRFLOW_SM90BENCH_BLOCKS=16,32 timeout 200 $C/bsrflow_tests "[.sm90bench]" > sm90bench$i.log 2>&1
  echo "rc=$? sm90bench $i (${SECONDS}s)" >> runs.txt
done
timeout 200 $C/bsrflow_tests "[rowgroup]" > tests.log 2>&1
echo "rc=$? tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
cd /tmp && tar czf $OUT/results.tgz w8
grep -hE "^block" $W/sm90bench*.log | grep -E "tuned\]|_g4|swap_copy" | sed -E 's/plan +[0-9.]+ ms +//; s/ \(min.*\) / /'; cat $W/runs.txt
