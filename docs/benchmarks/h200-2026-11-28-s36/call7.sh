#!/bin/bash
# Session 36 call 7 (H200): the edges of 5b0fdca's rules after its cheaper consumer.
# Binary: 5b0fdca + patches/exp_wnt_lane.patch (BSRFLOW_EXP_WNT: n8 tiles per warp at width 64;
# BSRFLOW_EXP_LANE: 1 / 0 forces the lane producer on / off). Variants: base (as landed),
# w8 (whole-width warps), w4 (half-width warps), l1 (lane producer), l0 (single lane).
# - Half-width warps on whole rows (11008 x 64 x 4096, 25%): every block shape up to 64 x 64
#   (the rule takes them for R, C <= 32 only; measured on 16 x 16 and 32 x 32 before).
# - The lane-producer rule (entry 57) with the cheaper consumer: 32 x 32 at N = 16, 64 x 32 and
#   64 x 64 at N = 64.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w7; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=330 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_variant base bsr_bench_exp7
ab_variant w8 bsr_bench_exp7 BSRFLOW_EXP_WNT=8
ab_variant w4 bsr_bench_exp7 BSRFLOW_EXP_WNT=4
ab_variant l1 bsr_bench_exp7 BSRFLOW_EXP_LANE=1
ab_variant l0 bsr_bench_exp7 BSRFLOW_EXP_LANE=0
for b in 16 16x32 32x16 32 32x64 64x32 64; do
  ab_case "whole${b}" --m 11008 --n 64 --k 4096 --block $b --density 0.25
done
ab_case n16b32m4096 --m 4096 --n 16 --k 11008 --block 32 --density 0.25
ab_case n16b32m11008 --m 11008 --n 16 --k 4096 --block 32 --density 0.5
ab_case n64b64x32m4096 --m 4096 --n 64 --k 11008 --block 64x32 --density 0.25
ab_case n64b64m4096 --m 4096 --n 64 --k 11008 --block 64 --density 0.5
ab_run 2 base w8 w4 l1 l0
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w7
grep -v "^rc=0 " $W/runs.txt
grep gain $W/summary.txt | awk '{print $1, $3, $5}' | paste - - - - | awk '{print $1, $2"="$3, $5"="$6, $8"="$9, $11"="$12}'
