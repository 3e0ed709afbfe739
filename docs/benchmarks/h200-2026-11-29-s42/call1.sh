#!/bin/bash
# Session 42 call 1 (H200). One binary, b_exp (7dfa60d + patches/exp_main_unsplit.patch), variants
# by BSRFLOW_EXP_MAIN: m0 main's plan; m1 the main piece list unsplit (rows whole outside the
# tail groups; the tail rule then counts its groups from the longest row: 5 instead of 3 at 8192^3
# 128 power-law); m2 m1 with one more tail group; m3 the main limit doubled.
# Why: a replay of session 33's timers through the plan's rule (s42 mainwhole.py) puts the last
# pair at 217-218 us for m1 / m2 against 219 today, with 95 / 76 split pieces per rank instead of
# 135: the split rows' stores and fix-up (entry 63: ~9-10% at 8192^3) shrink by ~30-45%.
# Prediction: 128 power-law +2-4% (m1/m2), unless the whole long rows of the main groups cost B's
# L2 locality (entry 13's 62-block piece); 4096^3 unchanged (its tail covers every group);
# uniform rows are not cut either way (not run).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s42w1; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=330 AB_TIMEOUT_S=30 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_sm90"
ab_variant m0 b_exp
ab_variant m1 b_exp BSRFLOW_EXP_MAIN=1
ab_variant m2 b_exp BSRFLOW_EXP_MAIN=2
ab_variant m3 b_exp BSRFLOW_EXP_MAIN=3
S="--m 8192 --n 8192 --k 8192"
ab_case pl128 $S --block 128 --density 0.125 --pattern powerlaw
ab_case pl128s4k --m 4096 --n 4096 --k 4096 --block 128 --density 0.125 --pattern powerlaw
ab_case pl128d25 $S --block 128 --density 0.25 --pattern powerlaw
ab_case pl64 $S --block 64 --density 0.125 --pattern powerlaw
ab_case pl32 $S --block 32 --density 0.125 --pattern powerlaw
ab_run 3 m0 m1 m2 m3
ab_summary > summary.txt
rm -f b_*.json
echo "runs done (${SECONDS}s)"; grep -h EXP_MAIN b_pl128_m*_r1.err b_pl128s4k_m*_r1.err 2>/dev/null
cd /tmp && tar czf $OUT/results.tgz s42w1
grep -v "^rc=0 " $W/ab/runs.txt | head
cat $W/ab/summary.txt
