#!/bin/bash
# Session 38 call 4 (H200): the landed code (three 6 KiB blocks a stage at width 64 only - 32 x 32
# at N = 64 - and the consumers' barrier addresses pinned).
# 1. `[skinny]` GPU tests; memcheck / racecheck / synccheck on `[skinnysmall]`.
# 2. A/B, two rounds: bsr_bench_main (70e482a) against bsr_bench, the skinny suite's 16 f16 cases.
# 3. Diagnosis (patches/exp_skip_b.patch on the landed tree, lane producer only; results wrong and
#    timed anyway): N = 64, 32 x 32 with every B slice (x0: the patch's control), without those of
#    blocks 3 mod 4 (x4: -25% of B's bytes, what two rows over the union of their columns would save
#    at 50%) and without any (x1). Call 2's ncu put the L2-to-SM traffic near the rate the Hopper
#    kernel's probes reach (entry 26), now that the producer's path no longer paces (entry 59).
# 4. The skinny suite with every system (docs/benchmarks/nvidia-h200-skinny.json).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w4; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
ab_gpu_checks $W "[skinny]" "[skinnysmall]"
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=330 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_skinny_cases f16
ab_run 2 bsr_bench_main bsr_bench
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
mkdir -p $W/skip && cd $W/skip
ab_variant x0 bsr_bench_exp BSRFLOW_EXP_SKIP=0
ab_variant x4 bsr_bench_exp BSRFLOW_EXP_SKIP=4 BSRFLOW_EXP_NOCHECK=1
ab_variant x1 bsr_bench_exp BSRFLOW_EXP_SKIP=1 BSRFLOW_EXP_NOCHECK=1
AB_TAGS=()
for mk in "4096 11008" "11008 4096"; do
  for d in 25 50; do
    ab_case "m${mk% *}n64b32d${d}" --m "${mk% *}" --n 64 --k "${mk#* }" --block 32 --density 0.$d
  done
done
ab_run 2 bsr_bench x0 x1 x4
ab_summary > summary.txt
rm -f b_*.json
echo "skip done (${SECONDS}s)"
cd $W
timeout 150 $C/bsr_bench --suite skinny --json nvidia-h200-skinny.json > skinny_suite.md 2> skinny_suite.err
echo "skinny suite rc=$? (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w4
grep -v "^rc=0 " $W/runs.txt $W/skip/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/summary.txt)"
grep gain $W/summary.txt | awk '{print $1, $5}' | paste - - - -
grep gain $W/skip/summary.txt | awk '{print $1, $3, $5}' | paste - - -
