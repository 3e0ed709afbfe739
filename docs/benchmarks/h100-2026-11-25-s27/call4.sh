#!/bin/bash
# Session 27 call 4: the row-group consumer with one straight-line block (wgmma sets, commit, wait)
# per row mask. Row-group tests, the registry test, compute-sanitizer on the small row-group case,
# then the hidden sm90 benchmark at 16 and 32, twice (tuned plan, alternatives, _g4 kernels and
# probes, cuBLAS in the same process).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w4; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
timeout 240 $C/bsrflow_tests "[rowgroup],sm90 GEMM: every instantiated configuration is exact against the reference,sm90 GEMM: the copy-only probe loads and writes nothing" > tests.log 2>&1
echo "rc=$? tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "row groups: small problems for the sanitizers" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
for i in 1 2; do
  BSRFLOW_SM90BENCH_BLOCKS=16,32 timeout 200 $C/bsrflow_tests "[.sm90bench]" > sm90bench$i.log 2>&1
  echo "rc=$? sm90bench $i (${SECONDS}s)" >> runs.txt
done
cd /tmp && tar czf $OUT/results.tgz w4
grep -hE "^block" $W/sm90bench*.log | grep -E "tuned\]|g4|swap_copy" ; grep -E "FAILED" -A3 $W/tests.log | head -30; cat $W/runs.txt
