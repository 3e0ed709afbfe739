#!/bin/bash
# Session 40 call 7 (H200). Binaries: b_skip (this tree + `patches/exp_skip_math_epilogue.patch`:
# BSRFLOW_EXP_SKIP bit 1 = the consumers wait for each stage and release it without math, bit 2 =
# they stop after the main loop - no cross-warp sum, no C, no split-row protocol; results wrong, so
# BSRFLOW_EXP_NOCHECK skips bsr_bench's check), run as a_full (0), b_nomath (1), c_noepi (2),
# d_machinery (3); ring_machinery_probe (call 6) on the same unit.
# Question: the kernel takes ~13.5 us on 4096 x 16 x 11008, 32 x 32, 25% where call 6's probe -
# bulk-copy ring, hand-off, B slices, two producers, column loads - takes ~10: is the rest the
# math, the end (cross-warp sum, C, split rows), or the kernel's own loads (tensor boxes, swizzle,
# piece record, tensor-map prefetch)?
# Prediction: d_machinery ~1 us above the probe (tensor boxes and the set-up), the end ~1.5 us
# (split rows), the math < 0.5 us.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s40w7; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
timeout 100 $C/ring_machinery_probe > $W/probe.md 2>&1; echo "probe rc=$?"; cat $W/probe.md
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=200 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_variant a_full b_skip BSRFLOW_EXP_SKIP=0
ab_variant b_nomath b_skip BSRFLOW_EXP_SKIP=1 BSRFLOW_EXP_NOCHECK=1
ab_variant c_noepi b_skip BSRFLOW_EXP_SKIP=2 BSRFLOW_EXP_NOCHECK=1
ab_variant d_machinery b_skip BSRFLOW_EXP_SKIP=3 BSRFLOW_EXP_NOCHECK=1
for mk in "4096 11008" "11008 4096"; do
  for b in 32 64; do
    for d in 25 50; do
      ab_case "m${mk% *}n16b${b}d${d}" --m "${mk% *}" --n 16 --k "${mk#* }" --block $b --density 0.$d
    done
  done
done
ab_run 2 a_full b_nomath c_noepi d_machinery
ab_summary > summary.txt
rm -f b_*.json
echo "runs done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz s40w7
grep -v "^rc=0 " $W/ab/runs.txt | head
grep -v gain $W/ab/summary.txt | awk '{print $1, $3, $4, $5}'
