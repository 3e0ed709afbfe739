#!/bin/bash
# Session 38 call 10 (H200): two producer warps (patches/exp_two_producers.patch: producer warp pw
# issues stages pw, pw + 2, ...; both producer paths take their block columns per stage, held by
# the lanes two of the warp's stages ahead, instead of the single lane's 32-column windows).
# Call 9: one issuing thread moves ~5.4 TMA boxes a microsecond whatever their size, and the rate
# scales with the issuing threads. Binaries: bsr_bench (landed), bsr_bench_p1 (the patch with one
# producer warp: the per-stage columns alone), bsr_bench_p2 (two producer warps).
# 1. `[skinny]` GPU tests and memcheck / racecheck / synccheck on `[skinnysmall]` with two producers.
# 2. A/B, two rounds: the skinny suite's 16 f16 cases and 16 x 16, 16 x 32, 32 x 16 at 11008 x N x
#    4096, 25%, N = 16 / 64.
# 3. The skinny suite with bsr_bench_p2.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w10; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
ab_gpu_checks $W "[skinny]" "[skinnysmall]"
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=290 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_skinny_cases f16
for n in 16 64; do
  for b in 16 16x32 32x16; do
    ab_case "m11008n${n}b${b}d25" --m 11008 --n $n --k 4096 --block $b --density 0.25
  done
done
ab_run 2 bsr_bench bsr_bench_p1 bsr_bench_p2
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
timeout 100 $C/bsr_bench_p2 --suite skinny --json nvidia-h200-skinny.json > skinny_suite.md 2> skinny_suite.err
echo "skinny suite rc=$? (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w10
grep -v "^rc=0 " $W/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/summary.txt)"
grep gain $W/summary.txt | awk '{print $1, $3, $5}' | paste - -
