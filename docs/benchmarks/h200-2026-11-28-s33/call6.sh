#!/bin/bash
# Session 33 call 6 (H200): where the schedule has split pieces, every cluster's list ends on its
# last two whole tiles (split pieces moved ahead of them: sm90_schedule_build.cu end_on_whole_tiles;
# call 2's timers: every last-ending pair of the 128 power-law plan ended on a split piece, and the
# run ended ~8 us after its last CTA more than on uniform rows; perf_log entry 55).
# 1. bsr_bench 8192^3 f16, c060fa8 against this tree, three alternated rounds (tests/ab_bench.sh):
#    12.5% power-law at 128 (f16 and bf16), 64, 32 and 16; 50% power-law at 128; 128 uniform
#    (control: no split pieces, plan unchanged).
# 2. [sm90][gpu] tests (device schedule against its host twin among them); memcheck / racecheck /
#    synccheck on [sm90small].
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w6; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
AB_BIN_DIR=$C AB_BUDGET_S=150
ab_case pl128 --block 128 --density 0.125 --pattern powerlaw
ab_case bpl128 --block 128 --density 0.125 --pattern powerlaw --dtype bf16
ab_case pl64 --block 64 --density 0.125 --pattern powerlaw
ab_case pl32 --block 32 --density 0.125 --pattern powerlaw
ab_case pl16 --block 16 --density 0.125 --pattern powerlaw
ab_case d50pl128 --block 128 --density 0.5 --pattern powerlaw
ab_case u128 --block 128 --density 0.125
ab_run 3 bsr_bench_main bsr_bench
ab_summary > summary.txt
timeout 220 $C/bsrflow_tests "[sm90][gpu]" > tests.log 2>&1
echo "rc=$? sm90 gpu tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "[sm90small]" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
cd /tmp && tar czf $OUT/results.tgz w6
grep -v "^rc=0 [a-z0-9]* bsr_bench" $W/runs.txt
grep -v cublas $W/summary.txt
grep -E "FAILED" -A6 $W/tests.log | head -30
