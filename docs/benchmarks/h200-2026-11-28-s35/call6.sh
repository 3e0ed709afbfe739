#!/bin/bash
# Session 35 call 6 (H200): the lane producer as landed (skinny::lane_producer: one lane per
# block and a full stage's A as one box, where a stage holds >= 8 blocks or the tile is 64 wide
# with >= 2 blocks a stage; main's single-lane loop elsewhere, unchanged SASS).
# 1. `[skinny]` GPU tests; memcheck / racecheck / synccheck on `[skinnysmall]` (now with 64-wide
#    lane-producer cases).
# 2. A/B, two rounds, main (a6492a7) against the change: the 16 f16 skinny-suite cases, N = 64
#    32 x 32 bf16, and small blocks (16 x 16, 16 x 32, 32 x 16 at N = 16; 16 x 16, 64 x 32 at N = 64).
# 3. The skinny suite with the change (every system), for docs/benchmarks/nvidia-h200-skinny.json.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w6; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
BSRFLOW_GPU_BIN=/tmp/carry BSRFLOW_GPU_BENCH=0 BSRFLOW_GPU_TAR=0 BSRFLOW_GPU_SANITIZE_TAGS="[skinnysmall]" \
  OUT=$W/checks timeout 200 bash tests/gpu_machine.sh run "[skinny]" > $W/checks.log 2>&1
echo "checks rc=$? (${SECONDS}s)"; grep -A6 "== summary" $W/checks.log
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=380 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
for n in 16 64; do
  for mk in "4096 11008" "11008 4096"; do
    set -- $mk
    for b in 32 64; do
      for d in 25 50; do
        ab_case "m$1n${n}b${b}d${d}" --m $1 --n $n --k $2 --block $b --density 0.$d
      done
    done
  done
done
ab_case m4096n64b32d50bf --m 4096 --n 64 --k 11008 --block 32 --density 0.5 --dtype bf16
ab_case m11008n64b32d25bf --m 11008 --n 64 --k 4096 --block 32 --density 0.25 --dtype bf16
ab_case m4096n16b16d25 --m 4096 --n 16 --k 11008 --block 16 --density 0.25
ab_case m4096n16b16x32d25 --m 4096 --n 16 --k 11008 --block 16x32 --density 0.25
ab_case m4096n16b32x16d25 --m 4096 --n 16 --k 11008 --block 32x16 --density 0.25
ab_case m4096n64b16d25 --m 4096 --n 64 --k 11008 --block 16 --density 0.25
ab_case m4096n64b64x32d25 --m 4096 --n 64 --k 11008 --block 64x32 --density 0.25
ab_run 2 bsr_bench_main bsr_bench
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
timeout 170 $C/bsr_bench --suite skinny --json nvidia-h200-skinny.json > skinny_suite.md 2> skinny_suite.err
echo "skinny suite rc=$? (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w6
grep -v "^rc=0 " $W/runs.txt
grep gain $W/summary.txt
