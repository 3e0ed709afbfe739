#!/bin/bash
# Session 36 call 3 (H200): deeper rings at width 64. Call 2: the halves kernel (32-column warps)
# is 5-15% slower per CTA than whole-width warps at main's plan and occupancy, and its only gain
# (11008 x 64 x 4096, 32 x 32, +16%) came from three CTAs per SM (whole rows in one wave). So:
# is it bytes in flight? At 32 x 32 / N = 64 a stage holds 4 KiB of A (2 blocks) and 8 KiB of B
# slices; 2 CTAs x 3 stages in flight = 24 KiB of A per SM against ~90 KiB at N = 16.
# Experiment binary = the ring depth as a plan field (Params::stages, RingCursor) + the halves,
# with patches/exp_stages.patch: BSRFLOW_EXP_STAGES (width 64 only), BSRFLOW_EXP_WNT.
# Variants: f2s4 = whole-width warps, 4 stages (main's kernel through the new cursor: control);
# f2s6 / f2s8 = 6 / 8 stages (2 CTAs per SM; 64 x 64 at 8 stages: 1); h3s4 = call 1's change;
# h3s6 = halves, 6 stages (3 CTAs per SM at 32 x 32, 2 at 64 x 64).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w3; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=330 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_variant f2s4 bsr_bench_exp3 BSRFLOW_EXP_WNT=8
ab_variant f2s6 bsr_bench_exp3 BSRFLOW_EXP_WNT=8 BSRFLOW_EXP_STAGES=6
ab_variant f2s8 bsr_bench_exp3 BSRFLOW_EXP_WNT=8 BSRFLOW_EXP_STAGES=8
ab_variant h3s4 bsr_bench_exp3
ab_variant h3s6 bsr_bench_exp3 BSRFLOW_EXP_STAGES=6
for mk in "4096 11008" "11008 4096"; do
  for b in 32 64; do
    for d in 25 50; do
      ab_case "m${mk% *}n64b${b}d${d}" --m "${mk% *}" --n 64 --k "${mk#* }" --block $b --density 0.$d
    done
  done
done
ab_case m4096n64b64x32d25 --m 4096 --n 64 --k 11008 --block 64x32 --density 0.25
ab_case m4096n64b32x64d25 --m 4096 --n 64 --k 11008 --block 32x64 --density 0.25
ab_case m4096n64b16d25 --m 4096 --n 64 --k 11008 --block 16 --density 0.25
ab_case m4096n16b32d25 --m 4096 --n 16 --k 11008 --block 32 --density 0.25
ab_case m11008n16b64d50 --m 11008 --n 16 --k 4096 --block 64 --density 0.5
ab_run 2 bsr_bench_main f2s4 f2s6 f2s8 h3s4 h3s6
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w3
grep -v "^rc=0 " $W/runs.txt
grep gain $W/summary.txt | awk '{print $1, $3, $5}' | paste - - - - - | awk '{print $1, $2"="$3, $5"="$6, $8"="$9, $11"="$12, $14"="$15}'
