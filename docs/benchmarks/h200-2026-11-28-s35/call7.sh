#!/bin/bash
# Session 35 call 7 (H200): the final tree (lane producer with the refined rule).
# 1. `[skinny]` GPU tests and memcheck / racecheck / synccheck on `[skinnysmall]`.
# 2. A/B, two rounds, main (a6492a7) against it, where the rule reaches shapes not yet measured:
#    32-wide tiles of 16 x 16 / 32 x 16 blocks (10 / 8 a stage), 64-wide tiles of 16 x 32 / 64 x 16
#    blocks (3 / 4 a stage); 64 x 32 at N = 64 (now the old loop) and 32 x 32 at N = 16 as controls.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w7; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
BSRFLOW_GPU_BIN=/tmp/carry BSRFLOW_GPU_BENCH=0 BSRFLOW_GPU_TAR=0 BSRFLOW_GPU_SANITIZE_TAGS="[skinnysmall]" \
  OUT=$W/checks timeout 200 bash tests/gpu_machine.sh run "[skinny]" > $W/checks.log 2>&1
echo "checks rc=$? (${SECONDS}s)"; grep -A6 "== summary" $W/checks.log
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=300 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_case n32b16 --m 4096 --n 32 --k 11008 --block 16 --density 0.25
ab_case n32b32x16 --m 4096 --n 32 --k 11008 --block 32x16 --density 0.25
ab_case n64b16x32 --m 4096 --n 64 --k 11008 --block 16x32 --density 0.25
ab_case n64b64x16 --m 4096 --n 64 --k 11008 --block 64x16 --density 0.25
ab_case n64b64x32 --m 4096 --n 64 --k 11008 --block 64x32 --density 0.25
ab_case n16b32 --m 4096 --n 16 --k 11008 --block 32 --density 0.25
ab_run 2 bsr_bench_main bsr_bench
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
cd /tmp && tar czf $OUT/results.tgz w7
grep -v "^rc=0 " $W/runs.txt
cat $W/summary.txt
