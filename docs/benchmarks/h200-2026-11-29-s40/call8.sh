#!/bin/bash
# Session 40 call 8 (H200). Binaries: a_base (7bef461 = a00952a's skinny kernel), b_early (this tree:
# at tile width 16 a consumer warp loads up to three k16 steps' fragments, and on a stage's last
# ones releases the slot before their mma run; the mma order and the results' bits unchanged).
# Why: call 7 - without math the kernel runs 0.7-2 us faster at N = 16, though the mma work is a
# few hundred cycles a stage: the ring is paced by when consumers release slots.
# Prediction: N = 16 +2-5%; widths 32 / 64 unchanged (the same code path as before).
# 1. `[skinny]` + memcheck / racecheck / synccheck on `[skinnysmall]` (b_early's tests).
# 2. A/B: the skinny suite's 16 f16 cases + 4 bf16 N = 16 ones, three rounds.
# 3. The skinny suite with b_early.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s40w8; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
ab_gpu_checks $W "[skinny]" "[skinnysmall]"
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=250 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_skinny_cases f16
for b in 32 64; do
  for d in 25 50; do
    ab_case "m4096n16b${b}d${d}bf16" --m 4096 --n 16 --k 11008 --block $b --density 0.$d --dtype bf16
  done
done
ab_run 3 a_base b_early
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd $W
timeout 80 $C/b_early --suite skinny --json nvidia-h200-skinny.json > skinny_suite.md 2> skinny_suite.err
echo "skinny suite rc=$? (${SECONDS}s)" | tee -a runs.txt
cd /tmp && tar czf $OUT/results.tgz s40w8
grep -v "^rc=0 " $W/ab/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/ab/summary.txt)"
grep gain $W/ab/summary.txt | awk '{print $1, $3, $5}' | paste - - -
