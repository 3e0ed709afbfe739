#!/bin/bash
# Session 43 call 2 (H200). Binaries: a_main (35b51aa's bsr_bench, built in a worktree); b_exp
# (35b51aa + patches/exp_skinny_pdl.patch: bsr_bench, bsrflow_tests); chain_probe (this folder's,
# built against b_exp's library). The patch launches the skinny kernel with programmatic dependent
# launch where BSRFLOW_EXP_PDL is set: every CTA lets the next grid launch at its entry; mode 1:
# every thread waits for the previous grid right after the set-up; mode 2: each producer warp
# issues its first two stages' A boxes (reading their block columns) before the wait and their B
# slices after it - A is a weight that the previous kernel does not write - and the consumers wait
# after their main loop, before any write. Without the variable the launch is as on main (the
# producer's stage issue split into A and B parts, both on).
# Why: a decode step launches its skinny products back to back; entry 45 (H100, older kernel) found
# PDL with the columns before the wait +5-6% at 25% and -6-7% at 64 x 64, 50%, and did not try A
# before the wait; entry 62 part 5 puts ~3 us of a 12-20 us launch before the first data and the
# CTAs' ends 1.5-4 us apart: the next product's first ring of A could stream in that tail.
# Prediction (per launch in a chain of 8): mode 1 -3 to -8% time; mode 2 -10 to -20% at 25%, -5 to
# -12% at 50%; single launches unchanged (+-1%); b_exp without the variable within 1% of a_main;
# C bitwise identical in every mode; [skinny] and the sanitizers clean under mode 2.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s43w2; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
timeout 150 $R/chain_probe 8 > $W/chain8.txt 2>&1; echo "chain_probe rc=$? (${SECONDS}s)"
BSRFLOW_EXP_PDL=2 AB_CHECKS_TIMEOUT_S=200 ab_gpu_checks $W "[skinny]" "[skinnysmall]"
BSRFLOW_EXP_PDL=1 timeout 100 $C/bsrflow_tests "[skinny]" > $W/skinny_pdl1.log 2>&1
echo "[skinny] under PDL 1: rc=$? $(tail -2 $W/skinny_pdl1.log | head -1) (${SECONDS}s)"
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=440 AB_TIMEOUT_S=30 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_variant pdl2 b_exp BSRFLOW_EXP_PDL=2
ab_skinny_cases f16
ab_run 3 a_main b_exp pdl2
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz s43w2
grep -v "^rc=0 " $W/ab/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/ab/summary.txt)"
grep gain $W/ab/summary.txt | awk '{print $1, $3, $5}' | paste - - 
grep -E "^[0-9]|pdl" $W/chain8.txt
