#!/bin/bash
# Session 42 call 3 (H200). Binaries: a_main (7dfa60d's bsr_bench, built in a worktree), b_exp
# (7dfa60d + patches/exp_skinny_persistent.patch, its bsr_bench and bsrflow_tests). The patch makes
# the skinny kernel persistent where BSRFLOW_EXP_PERSIST=f >= 2: pieces cut for f waves of CTAs,
# one wave launched; a CTA takes piece blockIdx.x, then claims the next from a counter when its
# producer issues the current piece's last stages (the record passed to the other warps in shared
# memory), the ring's stages numbered across pieces, the cross-warp sum in the last stage's slot
# (released after it); the last CTA resets the counter. Without the variable, one piece a CTA as
# before. BSRFLOW_EXP_PGRID=n caps the persistent grid (tests: many pieces per CTA).
# Why: entry 62 part 5 - the end of a split-row launch costs 2.2-2.3 us of 12-14 at N = 16, "the
# slowest piece, not the protocol"; entry 57 part 8 - main loops end 8.6 (p10) to 11.6 us (max)
# as DRAM serves the CTAs unevenly. Pieces claimed at run time balance that spread.
# Prediction: N = 16 split-row cases +5-10% (p2), whole-row cases (11008 rows) 0 to +5% (they are
# cut too under the experiment), N = 64 -3 to +5%; b_exp without the variable within 1% of a_main.
# 1. `[skinny]` and memcheck / racecheck / synccheck on `[skinnysmall]`, persistent with 3 CTAs.
# 2. A/B: the skinny suite's 16 f16 cases, a_main / b_exp / p2 / p3, two rounds.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s42w3; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
BSRFLOW_EXP_PERSIST=2 BSRFLOW_EXP_PGRID=3 AB_CHECKS_TIMEOUT_S=200 ab_gpu_checks $W "[skinny]" "[skinnysmall]"
grep -B3 -A12 "FAILED" $W/checks.log | head -60
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=260 AB_TIMEOUT_S=30 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_variant p2 b_exp BSRFLOW_EXP_PERSIST=2
ab_variant p3 b_exp BSRFLOW_EXP_PERSIST=3
ab_skinny_cases f16
ab_run 2 a_main b_exp p2 p3
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"; grep -h EXP_PERSIST b_*_p2_r1.err | head -16
cd /tmp && tar czf $OUT/results.tgz s42w3
grep -v "^rc=0 " $W/ab/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/ab/summary.txt)"
grep gain $W/ab/summary.txt | awk '{print $1, $3, $5}' | paste - - -
