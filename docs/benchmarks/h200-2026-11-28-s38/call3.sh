#!/bin/bash
# Session 38 call 3 (H200). Call 2: 18 KiB stages for every shape gained at 32 x 32, N = 64 (+4-9%)
# but lost at 16 x 32, N = 16 (-2%) and 32 x 16, N = 64 (-4%); its ncu showed the producer waiting
# for a free slot at nearly every stage and the consumers for data. So the rule is narrowed to
# 6 KiB blocks (three a stage, 18 KiB, instead of two): 32 x 32 at width 64, 32 x 64 at width 16,
# 64 x 32 and 16 x 64 at width 32.
# Binaries: bsr_bench_main (70e482a), bsr_bench_rule (that rule), bsr_bench (the rule + the
# consumers' barrier addresses pinned: the full-barrier wait's retry loop without the S2UR and
# LEAs ptxas rebuilt in it).
# 1. `[skinny]` GPU tests; memcheck / racecheck / synccheck on `[skinnysmall]` (bsr_bench's tree).
# 2. A/B, two rounds: the skinny suite's 16 f16 cases and the three other 6 KiB shapes at 11008 x N
#    x 4096, 25% / 50%.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w3; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
ab_gpu_checks $W "[skinny]" "[skinnysmall]"
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=330 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_skinny_cases f16
for d in 25 50; do
  ab_case "m11008n16b32x64d$d" --m 11008 --n 16 --k 4096 --block 32x64 --density 0.$d
  ab_case "m11008n32b64x32d$d" --m 11008 --n 32 --k 4096 --block 64x32 --density 0.$d
  ab_case "m11008n32b16x64d$d" --m 11008 --n 32 --k 4096 --block 16x64 --density 0.$d
done
ab_run 2 bsr_bench_main bsr_bench_rule bsr_bench
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w3
grep -v "^rc=0 " $W/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/summary.txt)"
grep gain $W/summary.txt | awk '{print $1, $3, $5}' | paste - -
