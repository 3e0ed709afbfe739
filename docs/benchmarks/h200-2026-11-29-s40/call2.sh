#!/bin/bash
# Session 40 call 2 (H200). Binaries: a_base (7bef461 = a00952a's skinny kernel), b_exp (this tree
# with an experiment switch: BSRFLOW_EXP_ROT=1 makes CTA j start (j mod 8) eighths into its piece's
# stages and wrap), c_rot (b_exp with the switch on); stream_pattern_probe.
# Question: is the skinny kernel's access pattern (a few hundred CTAs, each streaming its own
# contiguous piece of A) slower from DRAM than the plain grid-stride read it is compared with?
# Prediction: if the pattern matters, chunks / bulk read below grid at 23 MB, and their _rot forms
# recover part of it; then c_rot gains at N = 16 (up to the probe's difference), else +-1%.
# 1. The probe (copy, grid-stride read, per-CTA chunks / bulk rings, rotated or not; 23 / 46 MB).
# 2. `[skinny]` with BSRFLOW_EXP_ROT=1 (b_exp's tests; the sums change order, results stay exact).
# 3. A/B: the skinny suite's 16 f16 cases, a_base / b_exp / c_rot, two rounds.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s40w2; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
timeout 120 $C/stream_pattern_probe > $W/probe.md 2>&1
echo "probe rc=$? (${SECONDS}s)"
cat $W/probe.md
BSRFLOW_EXP_ROT=1 timeout 200 $C/bsrflow_tests "[skinny]" > $W/tests_rot.log 2>&1
echo "[skinny] with rotation rc=$? (${SECONDS}s): $(tail -2 $W/tests_rot.log | head -1)"
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=330 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_variant c_rot b_exp BSRFLOW_EXP_ROT=1
ab_skinny_cases f16
ab_run 2 a_base b_exp c_rot
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz s40w2
grep -v "^rc=0 " $W/ab/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/ab/summary.txt)"
grep gain $W/ab/summary.txt | awk '{print $1, $3, $5}' | paste - -
