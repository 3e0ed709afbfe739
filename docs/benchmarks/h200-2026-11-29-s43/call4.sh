#!/bin/bash
# Session 43 call 4 (H200): chain_probe (this folder's, built against 35b51aa +
# patches/exp_skinny_pdl_prefetch.patch) over every block shape of the llm suite's weights,
# BSRFLOW_EXP_PDL 0 / 1 (PDL, every thread waits after the set-up), two rounds, with each plan's CTA
# count. Why: calls 2-3 found mode 1 4-9% faster per launch in chains of 32 x 32 products and
# 1-7% slower for some 64 x 64 ones; a rule needs the other shapes. Prediction: gains of 4-9%
# where the CTAs fill most of one wave (~396 on the H200), losses where they fill well under it.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
W=/tmp/s43w4; rm -rf $W; mkdir -p $W
nvidia-smi -L > $W/device.txt; nvidia-smi --query-gpu=uuid,name,clocks.max.sm,power.limit --format=csv >> $W/device.txt; cat $W/device.txt
SECONDS=0
BSRFLOW_PROBE_SHAPES=wide timeout 400 $R/chain_probe 8 0 1 > $W/chain8_wide.txt 2>&1; echo "chain_probe rc=$? (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz s43w4
grep -E "^[0-9]|pdl" $W/chain8_wide.txt | grep -v DIFFERS -c; grep -c DIFFERS $W/chain8_wide.txt
cat $W/chain8_wide.txt | grep -E "^[0-9]|pdl"
