#!/bin/bash
# Session 36 call 1 (H200): 64-wide skinny tiles split into 32-column halves per warp for blocks
# up to 64 rows (skinny::warp_n_tiles: 16 accumulators a thread, 63 registers, three CTAs per SM
# instead of two; perf_log entry 58).
# 1. `[skinny]` GPU tests; memcheck / racecheck / synccheck on `[skinnysmall]`.
# 2. A/B, two rounds: main (4f0d8c5) / the change / the change with its producer choice flipped
#    (exp = the change + BSRFLOW_EXP_LANE; `lanes0` forces the single-lane loop, `lanes1` the lane
#    producer): the 8 N = 64 f16 suite cases, 32 x 32 bf16 at 11008 x 64 x 4096, and small or
#    non-square blocks at N = 64 / 48.
# 3. The two losing suite cases against their peers in one process (the change).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w1; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
BSRFLOW_GPU_BIN=/tmp/carry BSRFLOW_GPU_BENCH=0 BSRFLOW_GPU_TAR=0 BSRFLOW_GPU_SANITIZE_TAGS="[skinnysmall]" \
  OUT=$W/checks timeout 200 bash tests/gpu_machine.sh run "[skinny]" > $W/checks.log 2>&1
echo "checks rc=$? (${SECONDS}s)"; grep -A6 "== summary" $W/checks.log
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=420 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_variant lanes0 bsr_bench_exp BSRFLOW_EXP_LANE=0
ab_variant lanes1 bsr_bench_exp BSRFLOW_EXP_LANE=1
for mk in "4096 11008" "11008 4096"; do
  for b in 32 64; do
    for d in 25 50; do
      ab_case "m${mk% *}n64b${b}d${d}" --m "${mk% *}" --n 64 --k "${mk#* }" --block $b --density 0.$d
    done
  done
done
ab_case m11008n64b32d25bf --m 11008 --n 64 --k 4096 --block 32 --density 0.25 --dtype bf16
ab_case m11008n64b32d50bf --m 11008 --n 64 --k 4096 --block 32 --density 0.5 --dtype bf16
ab_case m4096n64b16d25 --m 4096 --n 64 --k 11008 --block 16 --density 0.25
ab_case m4096n64b16x32d25 --m 4096 --n 64 --k 11008 --block 16x32 --density 0.25
ab_case m4096n64b64x32d25 --m 4096 --n 64 --k 11008 --block 64x32 --density 0.25
ab_case m4096n64b32x64d25 --m 4096 --n 64 --k 11008 --block 32x64 --density 0.25
ab_case m11008n48b32d25 --m 11008 --n 48 --k 4096 --block 32 --density 0.25
ab_run 2 bsr_bench_main bsr_bench lanes0 lanes1
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
for d in 25 50; do
  timeout 60 $C/bsr_bench --m 11008 --n 64 --k 4096 --block 32 --density 0.$d \
    --systems bsrflow_skinny,cusparse_blocked_ell,cublas_dense --json peers_d$d.json > peers_d$d.md 2>&1
  echo "peers d$d rc=$?"
done
cd /tmp && tar czf $OUT/results.tgz w1
grep -v "^rc=0 " $W/runs.txt
grep gain $W/summary.txt
grep -h "bsrflow_skinny \|blocked_ell \|cublas_dense " $W/peers_d*.md | cut -c1-120
