#!/bin/bash
# Session 38 call 11 (H200): the landed form of call 10 - two producer warps only where one lane
# issues every box (skinny::producer_warps; lane-producer plans keep one, the second warp leaves
# at once; a CTA is always 320 threads). Short, for the device time left: `[skinny]` GPU tests
# (no sanitizers: call 10 ran them with two producers on every path), then one round of the 16
# f16 suite cases, bsr_bench_main (the landed code before it, a21f430's) against bsr_bench.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w11; mkdir -p $W
(cd $W && ab_device > device.txt; head -1 device.txt)
SECONDS=0
BSRFLOW_GPU_SANITIZE=0 AB_CHECKS_TIMEOUT_S=40 ab_gpu_checks $W "[skinny]" ""
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=75 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_skinny_cases f16
ab_run 1 bsr_bench_main bsr_bench
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w11
grep -c "^skipped" $W/runs.txt
grep gain $W/summary.txt | awk '{print $1, $5}' | paste - - - -
