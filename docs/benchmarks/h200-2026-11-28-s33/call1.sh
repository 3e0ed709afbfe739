#!/bin/bash
# Session 33 call 1 (H200): direct epilogue chunks staged with their TMA swizzle (f32 rows of split
# pieces' partial tiles and of f32 output, 16-bit columns of column-major C; perf_log entry 55).
# 1. bsr_bench 8192^3 12.5% f16, main (7998e0f) against this tree, three alternated rounds
#    (tests/ab_bench.sh): 128 x 128 power-law (split pieces), uniform (control: held output, no
#    split), uniform into column-major C; 64 x 64 power-law, uniform into column-major C; bf16
#    power-law at 128. The plan, its probe and cuBLAS; bsr_bench checks each result.
# 2. [sm90][gpu] tests; memcheck / racecheck / synccheck on [sm90small].
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w1; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
nvidia-smi --query-gpu=uuid,name,clocks.max.sm,power.limit --format=csv >> device.txt
SECONDS=0
AB_BIN_DIR=$C AB_BUDGET_S=200
ab_case pl128 --block 128 --density 0.125 --pattern powerlaw
ab_case u128 --block 128 --density 0.125
ab_case c128 --block 128 --density 0.125 --c-layout col
ab_case pl64 --block 64 --density 0.125 --pattern powerlaw
ab_case c64 --block 64 --density 0.125 --c-layout col
ab_case bpl128 --block 128 --density 0.125 --pattern powerlaw --dtype bf16
ab_run 3 bsr_bench_main bsr_bench
ab_summary > summary.txt
timeout 280 $C/bsrflow_tests "[sm90][gpu]" > tests.log 2>&1
echo "rc=$? sm90 gpu tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "[sm90small]" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
cd /tmp && tar czf $OUT/results.tgz w1
grep -v "^rc=0 [a-z0-9]* bsr_bench" $W/runs.txt
grep -v cublas $W/summary.txt
grep -E "FAILED" -A6 $W/tests.log | head -30
