#!/bin/bash
# Session 36 call 2 (H200, diagnosis): what call 1's halves (warp_n_tiles = 4 at width 64) change -
# the kernel, the three CTAs per SM, or the pieces planned for them. Experiment binary = the change
# + patches/exp_wnt_plan.patch (BSRFLOW_EXP_WNT: n8 tiles per warp at width 64; BSRFLOW_EXP_PLAN_CTAS:
# CTAs per SM the pieces are planned for; BSRFLOW_EXP_SMEM: at least this much dynamic shared memory,
# 80000 = two CTAs per SM). Variants: f2 = whole-width warps, pieces for 2 (main's plan and kernel);
# f3 = whole-width warps, pieces for 3 (two fit); h3 = halves, pieces for 3 (the change); h2 = halves,
# pieces for 2, three fit; h2o = halves, two fit (main's plan and occupancy, the halves kernel).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w2; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=300 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_variant f2 bsr_bench_exp2 BSRFLOW_EXP_WNT=8 BSRFLOW_EXP_PLAN_CTAS=2
ab_variant f3 bsr_bench_exp2 BSRFLOW_EXP_WNT=8 BSRFLOW_EXP_PLAN_CTAS=3
ab_variant h3 bsr_bench_exp2 BSRFLOW_EXP_WNT=4
ab_variant h2 bsr_bench_exp2 BSRFLOW_EXP_WNT=4 BSRFLOW_EXP_PLAN_CTAS=2
ab_variant h2o bsr_bench_exp2 BSRFLOW_EXP_WNT=4 BSRFLOW_EXP_SMEM=80000
for mk in "4096 11008" "11008 4096"; do
  for b in 32 64; do
    for d in 25 50; do
      ab_case "m${mk% *}n64b${b}d${d}" --m "${mk% *}" --n 64 --k "${mk#* }" --block $b --density 0.$d
    done
  done
done
ab_case m4096n64b64x32d25 --m 4096 --n 64 --k 11008 --block 64x32 --density 0.25
ab_case m4096n64b32x64d25 --m 4096 --n 64 --k 11008 --block 32x64 --density 0.25
ab_run 2 bsr_bench_main f2 f3 h3 h2 h2o
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w2
grep -v "^rc=0 " $W/runs.txt
grep gain $W/summary.txt | awk '{print $1, $3, $5}' | paste - - - - - | awk '{print $1, $2"="$3, $5"="$6, $8"="$9, $11"="$12, $14"="$15}'
