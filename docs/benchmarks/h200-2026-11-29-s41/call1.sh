#!/bin/bash
# Session 41 call 1 (H200). One binary, b_exp (ee03fb6 + patches/exp_split_stores.patch:
# BSRFLOW_EXP_SPLIT=1 - split pieces store no partial tile; =2 - each consumer thread stores its
# accumulators as float4 in fragment order, st.global, no staging; the fix-up is unchanged, so 1 and
# 2 give wrong results and BSRFLOW_EXP_NOCHECK skips bsr_bench's check), run as e0 (main's code
# path), e1, e2.
# Why: session 33's H200 per-tile timers (call 2): a split piece's epilogue takes 3.5 us against
# 0.7 for a whole tile, and the pairs' end time rises ~4 us per split piece they hold (0: 203.6 us,
# 4: 219.4; the last pairs end on split pieces).
# Prediction: e1 (the bound of a free split epilogue) 128 power-law +3-5%, bf16 alike, 64
# power-law +1-2%, 128 at 25% power-law +2-4%, uniform 0. e2 +1-3% at 128 power-law.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s41w1; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=420 AB_SYSTEMS="--systems bsrflow_sm90"
ab_variant e0 b_exp BSRFLOW_EXP_SPLIT=0
ab_variant e1 b_exp BSRFLOW_EXP_SPLIT=1 BSRFLOW_EXP_NOCHECK=1
ab_variant e2 b_exp BSRFLOW_EXP_SPLIT=2 BSRFLOW_EXP_NOCHECK=1
ab_case pl128 --block 128 --density 0.125 --pattern powerlaw
ab_case pl128bf --block 128 --density 0.125 --pattern powerlaw --dtype bf16
ab_case pl128d25 --block 128 --density 0.25 --pattern powerlaw
ab_case pl64 --block 64 --density 0.125 --pattern powerlaw
ab_case u128 --block 128 --density 0.125
ab_run 3 e0 e1 e2
ab_summary > summary.txt
rm -f b_*.json
echo "runs done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz s41w1
grep -v "^rc=0 " $W/ab/runs.txt | head
cat $W/ab/summary.txt
