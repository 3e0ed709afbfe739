#!/bin/bash
# Session 36 call 9 (H200): the consumer's per-lane address parts pinned in registers before the
# stage loop (`pinned`: an empty asm ptxas cannot rematerialise). After 5b0fdca ptxas had sunk
# them into the k-step loop's preheader, ~37 instructions again at every stage (nvdisasm); pinned,
# the preheader is ~10 and a width-64 step 29. Prediction: N = 64 32 x 32 +3-8%, elsewhere 0-3%.
# 1. `[skinny]` GPU tests; memcheck / racecheck / synccheck on `[skinnysmall]`.
# 2. A/B, two rounds: 72abf9a against the change: the 16 f16 suite cases and small blocks.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w9; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
BSRFLOW_GPU_BIN=/tmp/carry BSRFLOW_GPU_BENCH=0 BSRFLOW_GPU_TAR=0 BSRFLOW_GPU_SANITIZE_TAGS="[skinnysmall]" \
  OUT=$W/checks timeout 240 bash tests/gpu_machine.sh run "[skinny]" > $W/checks.log 2>&1
echo "checks rc=$? (${SECONDS}s)"; grep -A6 "== summary" $W/checks.log
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=190 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_skinny_cases f16
ab_case m4096n16b16d25 --m 4096 --n 16 --k 11008 --block 16 --density 0.25
ab_case whole16x32d25 --m 11008 --n 64 --k 4096 --block 16x32 --density 0.25
ab_run 2 bsr_bench_72abf9a bsr_bench
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w9
grep -v "^rc=0 " $W/runs.txt
grep gain $W/summary.txt | awk '{print $1, $5}' | paste - - - -
