#!/bin/bash
# Session 41 call 4 (H200). FAILED: e6 hung (128) or hit an illegal address (64, 32, 4096^3):
# the experiment's assignment loop ran the swath-major pass again after its own order (its skip
# test counted the main groups as groups x pieces), so items were assigned twice. Fixed for call 5.
# One binary, b_exp (ee03fb6 + patches/exp_tail_whole_first.patch:
# call 3's switches plus BSRFLOW_EXP_SPLIT=6 - the tail swath groups (those that take the finer
# piece list) keep their rows whole, and their rows longer than the tail limit are assigned first,
# length-major across the tail groups, before group 0; then the main groups in order, then the
# tail groups' short rows in order; correct results), run as e0 (main's path), e3 (the bound: no
# partial stores, no fix-up; wrong results), e6.
# Why: session 33's timers - the main groups' split tiles are ready from 35 us on, the tail
# groups' (19 pieces a group against 6) only at 176-224 us, and the pairs that end last end on
# them; call 2 - the split rows' stores and fix-up cost 9-10%; call 3 - all long rows first (no
# split anywhere) loses 1.5%: B read twice from DRAM and the groups out of step. Only the tail
# groups' long rows moved costs ~1/16-3/16 of B again.
# Prediction: e6 +2-5% at 128 power-law (bf16 alike), 64 power-law 0-2%, uniform unchanged (no tail).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s41w4; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=420 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_sm90"
ab_variant e0 b_exp BSRFLOW_EXP_SPLIT=0
ab_variant e3 b_exp BSRFLOW_EXP_SPLIT=3 BSRFLOW_EXP_NOCHECK=1
ab_variant e6 b_exp BSRFLOW_EXP_SPLIT=6
S="--m 8192 --n 8192 --k 8192"
ab_case pl128 $S --block 128 --density 0.125 --pattern powerlaw
ab_case pl128bf $S --block 128 --density 0.125 --pattern powerlaw --dtype bf16
ab_case pl128d25 $S --block 128 --density 0.25 --pattern powerlaw
ab_case pl128s4k --m 4096 --n 4096 --k 4096 --block 128 --density 0.125 --pattern powerlaw
ab_case pl64 $S --block 64 --density 0.125 --pattern powerlaw
ab_case pl32 $S --block 32 --density 0.125 --pattern powerlaw
ab_case u128 $S --block 128 --density 0.125
ab_run 3 e0 e3 e6
ab_summary > summary.txt
rm -f b_*.json
echo "runs done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz s41w4
grep -v "^rc=0 " $W/ab/runs.txt | head
cat $W/ab/summary.txt
