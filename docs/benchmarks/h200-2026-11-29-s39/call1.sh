#!/bin/bash
# Session 39 call 1 (H200): the selective two-producer form (s38 patches/two_producers_selective.patch:
# two producer warps only where one lane issues every box, lane_producer plans keep one and the
# second warp leaves at once). Binaries: bsr_bench_main (1459e8f), bsr_bench_sel (the patch).
# 1. `[skinny]` GPU tests and memcheck / racecheck / synccheck on `[skinnysmall]` with the patch.
# 2. A/B, three rounds: the skinny suite's 16 f16 cases and 16 x 16, 16 x 32, 32 x 16 at
#    11008 x N x 4096, 25%, N = 16 / 64 (session 38 call 10's set).
# 3. The skinny suite with bsr_bench_sel.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w1; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
ab_gpu_checks $W "[skinny]" "[skinnysmall]"
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=330 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_skinny_cases f16
for n in 16 64; do
  for b in 16 16x32 32x16; do
    ab_case "m11008n${n}b${b}d25" --m 11008 --n $n --k 4096 --block $b --density 0.25
  done
done
ab_run 3 bsr_bench_main bsr_bench_sel
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
timeout 100 $C/bsr_bench_sel --suite skinny --json nvidia-h200-skinny.json > skinny_suite.md 2> skinny_suite.err
echo "skinny suite rc=$? (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w1
grep -v "^rc=0 " $W/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/summary.txt)"
grep gain $W/summary.txt | awk '{print $1, $3, $5}' | paste - -
