#!/bin/bash
# Session 36 call 5 (H200): the skinny consumer's ldmatrix addresses with their loop-invariant
# parts hoisted and no division by the run-time chunk count (call 4's ncu: a k16 step at width 64
# was ~90 SASS instructions for 8 mma, 32 now; the consumer warps spend ~55% of their samples in
# steps and stage overhead, ~19% waiting for data). Results are bitwise those of main (same mma
# order). Whole-width warps at every width (the tree's bsr_bench).
# 1. `[skinny]` GPU tests; memcheck / racecheck / synccheck on `[skinnysmall]`.
# 2. A/B, two rounds: main (4f0d8c5) / the change / h3 = the change with 32-column warps at width
#    64 (three CTAs per SM; exp4 = the tree + patches/exp_stages.patch, BSRFLOW_EXP_WNT=4) /
#    s6 = the change with 6 stages at width 64 (BSRFLOW_EXP_STAGES=6): the 16 f16 suite cases,
#    32 x 32 bf16 at 11008 x 64 x 4096, small and non-square blocks, N = 32 / 48.
# 3. The two 11008 x 64 x 4096, 32 x 32 suite cases against their peers in one process (the change).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w5; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
BSRFLOW_GPU_BIN=/tmp/carry BSRFLOW_GPU_BENCH=0 BSRFLOW_GPU_TAR=0 BSRFLOW_GPU_SANITIZE_TAGS="[skinnysmall]" \
  OUT=$W/checks timeout 200 bash tests/gpu_machine.sh run "[skinny]" > $W/checks.log 2>&1
echo "checks rc=$? (${SECONDS}s)"; grep -A6 "== summary" $W/checks.log
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=440 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_variant h3 bsr_bench_exp4 BSRFLOW_EXP_WNT=4
ab_variant s6 bsr_bench_exp4 BSRFLOW_EXP_STAGES=6
ab_skinny_cases f16
ab_case m11008n64b32d25bf --m 11008 --n 64 --k 4096 --block 32 --density 0.25 --dtype bf16
ab_case m11008n64b32d50bf --m 11008 --n 64 --k 4096 --block 32 --density 0.5 --dtype bf16
ab_case m4096n64b16d25 --m 4096 --n 64 --k 11008 --block 16 --density 0.25
ab_case m4096n64b64x32d25 --m 4096 --n 64 --k 11008 --block 64x32 --density 0.25
ab_case m4096n64b32x64d25 --m 4096 --n 64 --k 11008 --block 32x64 --density 0.25
ab_case m4096n64b128d25 --m 4096 --n 64 --k 11008 --block 128 --density 0.25
ab_case m4096n16b16d25 --m 4096 --n 16 --k 11008 --block 16 --density 0.25
ab_case m4096n32b32d50 --m 4096 --n 32 --k 11008 --block 32 --density 0.5
ab_case m11008n48b32d25 --m 11008 --n 48 --k 4096 --block 32 --density 0.25
ab_run 2 bsr_bench_main bsr_bench h3 s6
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
for d in 25 50; do
  timeout 60 $C/bsr_bench --m 11008 --n 64 --k 4096 --block 32 --density 0.$d \
    --systems bsrflow_skinny,cusparse_blocked_ell,cublas_dense --json peers_d$d.json > peers_d$d.md 2>&1
  echo "peers d$d rc=$?"
done
cd /tmp && tar czf $OUT/results.tgz w5
grep -v "^rc=0 " $W/runs.txt
grep gain $W/summary.txt | awk '{print $1, $3, $5}' | paste - - - | awk '{print $1, $2"="$3, $5"="$6, $8"="$9}'
grep -h "bsrflow_skinny \|blocked_ell \|cublas_dense " $W/peers_d*.md | cut -c1-100
