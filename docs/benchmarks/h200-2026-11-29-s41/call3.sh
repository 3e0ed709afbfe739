#!/bin/bash
# Session 41 call 3 (H200). One binary, b_exp (ee03fb6 + patches/exp_long_first.patch: call 2's
# switches plus BSRFLOW_EXP_SPLIT=5 - no row split, and the pieces longer than the split limit
# the plan would have used are assigned first, length-major across all swath groups, the rest
# swath-major as before; correct results), run as e0 (main's path), e3 (no partial stores, no
# fix-up: wrong results, the bound), e4 (no split), e5.
# Why: call 2 - the split rows' stores and fix-up cost 9.9% at 128 power-law (0.2063 against
# 0.2267 ms), and not splitting loses 15% with the swath-major order; session 33's tile timers
# replayed longest-first over all tiles (halfswath.py) balance the pairs within 1% with no split.
# Prediction: e5 +4-8% at 128 power-law (the bound less B read twice from DRAM), 64 power-law
# +0-2%, uniform unchanged (no piece is long).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s41w3; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=420 AB_SYSTEMS="--systems bsrflow_sm90"
ab_variant e0 b_exp BSRFLOW_EXP_SPLIT=0
ab_variant e3 b_exp BSRFLOW_EXP_SPLIT=3 BSRFLOW_EXP_NOCHECK=1
ab_variant e4 b_exp BSRFLOW_EXP_SPLIT=4
ab_variant e5 b_exp BSRFLOW_EXP_SPLIT=5
ab_case pl128 --block 128 --density 0.125 --pattern powerlaw
ab_case pl128bf --block 128 --density 0.125 --pattern powerlaw --dtype bf16
ab_case pl128d25 --block 128 --density 0.25 --pattern powerlaw
ab_case pl64 --block 64 --density 0.125 --pattern powerlaw
ab_case u128 --block 128 --density 0.125
ab_run 3 e0 e3 e4 e5
ab_summary > summary.txt
rm -f b_*.json
echo "runs done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz s41w3
grep -v "^rc=0 " $W/ab/runs.txt | head
cat $W/ab/summary.txt
