#!/bin/bash
# Session 27 call 7: two producer warps (stages dealt in turn) for the swap-AB kernels (R <= 32),
# row groups of 2 dropped. The sm90 GPU tests (every configuration, hostile patterns, random data,
# graphs, pairs) and the row-group tests, compute-sanitizer on the small sm90 and row-group cases,
# then the hidden sm90 benchmark at 16 and 32, twice.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w7; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
for i in 1 2; do
  BSRFLOW_SM90BENCH_BLOCKS=16,32 timeout 200 $C/bsrflow_tests "[.sm90bench]" > sm90bench$i.log 2>&1
  echo "rc=$? sm90bench $i (${SECONDS}s)" >> runs.txt
done
timeout 400 $C/bsrflow_tests "[sm90][gpu]~[tuning],[rowgroup]" > tests.log 2>&1
echo "rc=$? tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "[sm90small]" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
cd /tmp && tar czf $OUT/results.tgz w7
grep -hE "^block" $W/sm90bench*.log | grep -E "tuned\]|_g4|swap_copy" | sed -E 's/plan +[0-9.]+ ms +//; s/ \(min.*\) / /'; grep -E "FAILED" -A3 $W/tests.log | head -30; cat $W/runs.txt
