#!/bin/bash
# Session 36 call 6 (H200): the change as it lands - the skinny consumer's hoisted ldmatrix
# addresses (call 5) and, for 64-wide tiles of blocks up to 32 x 32 whose rows stay whole, warps
# owning 32-column halves (three CTAs per SM; skinny::warp_n_tiles, name suffix _h32).
# 1. `[skinny]` GPU tests (now with a half-width-warp case, also in `[skinnysmall]`); memcheck /
#    racecheck / synccheck on `[skinnysmall]`.
# 2. A/B, two rounds, main (4f0d8c5) against the change: the skinny suite's 32 cases (f16, bf16).
# 3. The skinny suite with the change (every system), for docs/benchmarks/nvidia-h200-skinny.json.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w6; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
BSRFLOW_GPU_BIN=/tmp/carry BSRFLOW_GPU_BENCH=0 BSRFLOW_GPU_TAR=0 BSRFLOW_GPU_SANITIZE_TAGS="[skinnysmall]" \
  OUT=$W/checks timeout 240 bash tests/gpu_machine.sh run "[skinny]" > $W/checks.log 2>&1
echo "checks rc=$? (${SECONDS}s)"; grep -A6 "== summary" $W/checks.log
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=300 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_skinny_cases f16
ab_skinny_cases bf16
ab_run 2 bsr_bench_main bsr_bench
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
timeout 200 $C/bsr_bench --suite skinny --json nvidia-h200-skinny.json > skinny_suite.md 2> skinny_suite.err
echo "skinny suite rc=$? (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w6
grep -v "^rc=0 " $W/runs.txt
grep gain $W/summary.txt | awk '{print $1, $5}' | paste - - - -
