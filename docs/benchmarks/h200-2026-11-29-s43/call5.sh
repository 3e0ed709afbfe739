#!/bin/bash
# Session 43 call 5 (H200): the landed form of programmatic dependent launch for the skinny kernel
# (this tree: every CTA lets the next grid launch at its entry and waits for the previous one after
# its set-up; the plan launches with the attribute where its CTAs fill >= 85% of one wave,
# GemmOptions::programmatic_launch). Binaries: a_main (35b51aa's bsr_bench, worktree), bsr_bench
# and bsrflow_tests of this tree, chain_probe (this folder's, against this tree's library).
# 1. [skinny] (with the new chain test) and memcheck / racecheck / synccheck on [skinnysmall].
# 2. chain_probe over every llm-suite block shape: "plain" plans against "auto" ones (which say
#    whether they took PDL), two rounds - on another unit than call 4's.
# 3. A/B single launches (bsr_bench, the skinny suite's 16 f16 cases, three rounds): a_main
#    against this tree.
# Prediction: tests and sanitizers clean; chains where auto takes PDL 3-9% faster a product
# (call 4: 0-9%), elsewhere identical plans; single launches within 1% of a_main.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s43w5; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
AB_CHECKS_TIMEOUT_S=300 ab_gpu_checks $W "[skinny]" "[skinnysmall]"
BSRFLOW_PROBE_SHAPES=wide timeout 200 $R/chain_probe 8 plain auto > $W/chain8_wide.txt 2>&1; echo "chain_probe rc=$? (${SECONDS}s)"
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=520 AB_TIMEOUT_S=30 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_skinny_cases f16
ab_run 3 a_main bsr_bench
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz s43w5
grep -v "^rc=0 " $W/ab/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/ab/summary.txt)"
grep gain $W/ab/summary.txt | awk '{print $1, $3, $5}' | paste - - - -
echo "C differs: $(grep -c DIFFERS $W/chain8_wide.txt)"
grep -E "^[0-9]" $W/chain8_wide.txt | sed 's/ *plain read.*(/ (/'
