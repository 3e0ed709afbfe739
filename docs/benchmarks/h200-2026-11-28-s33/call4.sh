#!/bin/bash
# Session 33 call 4 (H200): the split fix-up kernel with work items of up to 4 rows per thread
# (8 float4 loads in flight, a quarter of the items, 3 CTAs per SM) instead of one row (call 2's
# timers: the fix-up ran 23 us alone for the 128 power-law plan's split tiles, ~1.8 TB/s, and the
# bench's time passed the GEMM's last CTA by ~12 us against ~4 for uniform rows; perf_log entry 55).
# 1. bsr_bench 8192^3 f16, c060fa8 against this tree, three alternated rounds (tests/ab_bench.sh):
#    12.5% power-law at 128 (f16 and bf16), 64, 32 and 16; 50% power-law at 128; 128 uniform
#    (control: no split tiles).
# 2. [sm90][gpu] and [rowgroup][gpu] tests; memcheck / racecheck / synccheck on [sm90small].
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w4; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
AB_BIN_DIR=$C AB_BUDGET_S=200
ab_case pl128 --block 128 --density 0.125 --pattern powerlaw
ab_case bpl128 --block 128 --density 0.125 --pattern powerlaw --dtype bf16
ab_case pl64 --block 64 --density 0.125 --pattern powerlaw
ab_case pl32 --block 32 --density 0.125 --pattern powerlaw
ab_case pl16 --block 16 --density 0.125 --pattern powerlaw
ab_case d50pl128 --block 128 --density 0.5 --pattern powerlaw
ab_case u128 --block 128 --density 0.125
ab_run 3 bsr_bench_main bsr_bench
ab_summary > summary.txt
timeout 300 $C/bsrflow_tests "[sm90][gpu],[rowgroup][gpu]" > tests.log 2>&1
echo "rc=$? sm90 / rowgroup gpu tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "[sm90small]" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
cd /tmp && tar czf $OUT/results.tgz w4
grep -v "^rc=0 [a-z0-9]* bsr_bench" $W/runs.txt
grep -v cublas $W/summary.txt
grep -E "FAILED" -A6 $W/tests.log | head -30
