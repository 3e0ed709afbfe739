#!/bin/bash
# Session 27 calls 6 (H100) and 7 (H200): row groups of 2 (wider swath) added. Row-group and
# registry tests, compute-sanitizer on the small row-group case (G = 4 and 2), then the hidden sm90
# benchmark at 16 and 32 twice, with the row-group kernels and probes also at 8 and 10 stages.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w6; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
timeout 240 $C/bsrflow_tests "[rowgroup],sm90 GEMM: every instantiated configuration is exact against the reference,sm90 GEMM: the copy-only probe loads and writes nothing" > tests.log 2>&1
echo "rc=$? tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "row groups: small problems for the sanitizers" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
for i in 1 2; do
  BSRFLOW_SM90BENCH_BLOCKS=16,32 BSRFLOW_SM90BENCH_ROW_GROUP_STAGES=8,10 timeout 200 $C/bsrflow_tests "[.sm90bench]" > sm90bench$i.log 2>&1
  echo "rc=$? sm90bench $i (${SECONDS}s)" >> runs.txt
done
cd /tmp && tar czf $OUT/results.tgz w6
grep -hE "^block" $W/sm90bench*.log | grep -E "tuned\]|_g[24]|swap_copy" | sed -E 's/plan +[0-9.]+ ms +//; s/ \(min.*\) / /'; grep -E "FAILED" -A3 $W/tests.log | head -30; cat $W/runs.txt
