#!/bin/bash
# Session 41 call 2 (H200). One binary, b_exp (ee03fb6 + patches/exp_split_bounds.patch, call 1's
# patch plus: BSRFLOW_EXP_SPLIT=3 - no partial stores and no fix-up launch; =4 - the plan splits no
# row, correct results), run as e0 (main's path), e1 (no partial stores), e3, e4.
# Why: call 1 bounded the split pieces' stores at +3.0% (128 power-law 0.873 -> 0.899 of uniform).
# This bounds everything the split rows cost at the end (stores + fix-up) and what not splitting
# costs in balance.
# Prediction: e3 +5-7% at 128 power-law (the fix-up ends ~9 us after the last CTA), e4 10-20%
# slower (its longest tiles are a third of a pair's work).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s41w2; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=420 AB_SYSTEMS="--systems bsrflow_sm90"
ab_variant e0 b_exp BSRFLOW_EXP_SPLIT=0
ab_variant e1 b_exp BSRFLOW_EXP_SPLIT=1 BSRFLOW_EXP_NOCHECK=1
ab_variant e3 b_exp BSRFLOW_EXP_SPLIT=3 BSRFLOW_EXP_NOCHECK=1
ab_variant e4 b_exp BSRFLOW_EXP_SPLIT=4
ab_case pl128 --block 128 --density 0.125 --pattern powerlaw
ab_case pl128d25 --block 128 --density 0.25 --pattern powerlaw
ab_case pl64 --block 64 --density 0.125 --pattern powerlaw
ab_case u128 --block 128 --density 0.125
ab_run 3 e0 e1 e3 e4
ab_summary > summary.txt
rm -f b_*.json
echo "runs done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz s41w2
grep -v "^rc=0 " $W/ab/runs.txt | head
cat $W/ab/summary.txt
