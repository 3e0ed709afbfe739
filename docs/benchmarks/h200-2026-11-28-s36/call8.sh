#!/bin/bash
# Session 36 call 8 (H200): the half-width rule widened to blocks of at most 32 rows and 64
# columns (call 7: 32 x 64 on whole rows +31% with half-width warps).
# 1. `[skinny]` GPU tests (the half-width case now also with 16 x 64 and 32 x 64 blocks);
#    memcheck / racecheck / synccheck on `[skinnysmall]`.
# 2. A/B, two rounds: 5b0fdca (exp7 without its switches) against the change: 16 x 64 / 32 x 64
#    on whole rows (11008 x 64 x 4096, 25% / 50%), 32 x 64 on split rows (4096 x 64 x 11008: not
#    taken), two suite cases as controls.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w8; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
BSRFLOW_GPU_BIN=/tmp/carry BSRFLOW_GPU_BENCH=0 BSRFLOW_GPU_TAR=0 BSRFLOW_GPU_SANITIZE_TAGS="[skinnysmall]" \
  OUT=$W/checks timeout 240 bash tests/gpu_machine.sh run "[skinny]" > $W/checks.log 2>&1
echo "checks rc=$? (${SECONDS}s)"; grep -A6 "== summary" $W/checks.log
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=200 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_case whole16x64d25 --m 11008 --n 64 --k 4096 --block 16x64 --density 0.25
ab_case whole32x64d25 --m 11008 --n 64 --k 4096 --block 32x64 --density 0.25
ab_case whole32x64d50 --m 11008 --n 64 --k 4096 --block 32x64 --density 0.5
ab_case split32x64d25 --m 4096 --n 64 --k 11008 --block 32x64 --density 0.25
ab_case m11008n64b32d25 --m 11008 --n 64 --k 4096 --block 32 --density 0.25
ab_case m4096n16b64d50 --m 4096 --n 16 --k 11008 --block 64 --density 0.5
ab_run 2 bsr_bench_exp7 bsr_bench
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w8
grep -v "^rc=0 " $W/runs.txt
grep gain $W/summary.txt | awk '{print $1, $5}'
