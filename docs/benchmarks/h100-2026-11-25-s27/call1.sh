#!/bin/bash
# Session 27 call 1: the row-group kernels (Sm90Config::row_group = 4) in the library. GPU tests of
# row groups and of every instantiated configuration, compute-sanitizer on the small row-group
# case, then the hidden sm90 benchmark at 16 and 32 (tuned plan, alternatives incl. the _g4
# kernels and their probes, cuBLAS in the same process).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
timeout 240 $C/bsrflow_tests "[rowgroup],sm90 GEMM: every instantiated configuration is exact against the reference,sm90 GEMM: the copy-only probe loads and writes nothing" > tests.log 2>&1
echo "rc=$? tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "row groups: small problems for the sanitizers" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
BSRFLOW_SM90BENCH_BLOCKS=16,32 timeout 200 $C/bsrflow_tests "[.sm90bench]" > sm90bench.log 2>&1
echo "rc=$? sm90bench (${SECONDS}s)" >> runs.txt
cd /tmp && tar czf $OUT/results.tgz w
grep -E "^block" $W/sm90bench.log; grep -E "FAILED|failed|with expansion" -A3 $W/tests.log | head -60; cat $W/runs.txt
