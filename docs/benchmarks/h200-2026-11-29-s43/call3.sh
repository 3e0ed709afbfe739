#!/bin/bash
# Session 43 call 3 (H200). Binaries: a_main (35b51aa's bsr_bench, worktree); b_exp (35b51aa +
# patches/exp_skinny_pdl_prefetch.patch: bsr_bench, bsrflow_tests); chain_probe (this folder's,
# built against b_exp's library). The patch: with BSRFLOW_EXP_PDL set the skinny kernel is launched
# with programmatic dependent launch, every CTA lets the next grid launch at its entry and every
# thread waits for the previous grid after the set-up (mode 1, as in call 2); modes 3 / 4 first
# have thread 0 prefetch the first ring's / the whole piece's A into L2 (one bulk prefetch, A's
# blocks of a piece being consecutive), so that A streams during the previous grid's tail while the
# ring itself is issued after the wait in its usual order. Without the variable: main's kernel but
# for two untaken branches and a plain cudaLaunchKernelExC.
# Why: call 2's mode 2 (the first ring's A boxes before the wait, B after) gained 3-8% per launch in
# chains but cost single launches 3-10%: a stage's A boxes issued ahead of its B slices (entry 17).
# Prediction: chains, mode 3 as mode 2 (-3 to -8% time a launch, 64 x 64 too, where mode 1 gained
# nothing), mode 4 -5 to -12% at 25%; single launches, mode 3 within 1% of mode 0, mode 4 -5 to
# -15% (entry 60 part 6: A prefetched into L2 ahead of the ring, single launches 5-17% slower);
# b_exp without the variable within 1% of a_main; C identical in every mode.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s43w3; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
timeout 150 $R/chain_probe 8 0 1 3 4 > $W/chain8.txt 2>&1; echo "chain_probe rc=$? (${SECONDS}s)"
BSRFLOW_EXP_PDL=4 AB_CHECKS_TIMEOUT_S=200 ab_gpu_checks $W "[skinny]" "[skinnysmall]"
BSRFLOW_EXP_PDL=3 timeout 100 $C/bsrflow_tests "[skinny]" > $W/skinny_pdl3.log 2>&1
echo "[skinny] under PDL 3: rc=$? $(tail -2 $W/skinny_pdl3.log | head -1) (${SECONDS}s)"
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=470 AB_TIMEOUT_S=30 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_variant pdl1 b_exp BSRFLOW_EXP_PDL=1
ab_variant pdl3 b_exp BSRFLOW_EXP_PDL=3
ab_variant pdl4 b_exp BSRFLOW_EXP_PDL=4
ab_skinny_cases f16
ab_run 2 a_main b_exp pdl1 pdl3 pdl4
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz s43w3
grep -v "^rc=0 " $W/ab/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/ab/summary.txt)"
grep gain $W/ab/summary.txt | awk '{print $1, $3, $5}' | paste - - - -
grep -E "^[0-9]|pdl" $W/chain8.txt
