#!/bin/bash
# Session 38 call 1 (H200): larger skinny stages (patches/exp_stage_bytes.patch: the stage target
# per tile width from the environment; bsr_bench built with it, no other change from 70e482a).
# Variants of the one binary (a_ctrl sorts first: gains are against it):
#   a_ctrl  16384 / 16384 (main's rule)
#   b_w18   width 64: 18432 (32 x 32 at N = 64: 3 blocks a stage instead of 2; 3 CTAs still fit)
#   c_n18   width 16: 18432 (32 x 32 at N = 16: 6 instead of 5)
#   d_n20   width 16: 20480 (32 x 32: 6; 64 x 64 at N = 16: 2 instead of 1, 2 CTAs per SM)
# Then `[skinny]` with b_w18 / c_n18's settings on the GPU (correctness of the larger stages).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w1; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
BSRFLOW_GPU_SANITIZE=0 BSRFLOW_EXP_STAGE_WIDE=18432 BSRFLOW_EXP_STAGE_NARROW=18432 ab_gpu_checks $W "[skinny][gpu]" ""
AB_BIN_DIR=$C
ab_variant a_ctrl bsr_bench
ab_variant b_w18 bsr_bench BSRFLOW_EXP_STAGE_WIDE=18432
ab_variant c_n18 bsr_bench BSRFLOW_EXP_STAGE_NARROW=18432
ab_variant d_n20 bsr_bench BSRFLOW_EXP_STAGE_NARROW=20480
cd $W
AB_BUDGET_S=330 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_skinny_cases f16
ab_run 2 a_ctrl b_w18 c_n18 d_n20
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w1
grep -v "^rc=0 " $W/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/summary.txt)"
grep gain $W/summary.txt | awk '{print $1, $3, $5}' | paste - - -
