#!/bin/bash
# Session 38 call 2 (H200): the skinny stage target 16 -> 18 KiB (the change as landed: one
# constant, tuning_skinny.hpp kStageTargetBytes) against main (70e482a), which call 1 measured
# through environment switches.
# 1. `[skinny]` GPU tests; memcheck / racecheck / synccheck on `[skinnysmall]` (the change).
# 2. A/B, two rounds: the skinny suite's 16 f16 cases, plus the shapes whose stage the change also
#    moves (16 x 16, 16 x 32, 32 x 16, 64 x 16 at 11008 x N x 4096, 25%, N = 16 / 64).
# 3. ncu (source-level stall samples) of the change at 11008 x 64 x 4096, 32 x 32, 50%: where the
#    producer warp's and the consumers' stage paths wait.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w2; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
ab_gpu_checks $W "[skinny]" "[skinnysmall]"
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=330 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_skinny_cases f16
for n in 16 64; do
  for b in 16 16x32 32x16 64x16; do
    ab_case "m11008n${n}b${b}d25" --m 11008 --n $n --k 4096 --block $b --density 0.25
  done
done
ab_run 2 bsr_bench_main bsr_bench
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
timeout 150 $NCU --set full --import-source no --kernel-name regex:skinny_gemm_kernel --launch-skip 2 --launch-count 1 \
  -o ncu_w64 -f $C/bsr_bench --m 11008 --n 64 --k 4096 --block 32 --density 0.5 --systems bsrflow_skinny \
  --iters 2 --warmup 1 --rest-ms 0 > ncu_w64.log 2>&1
echo "ncu rc=$? (${SECONDS}s)"
$NCU -i ncu_w64.ncu-rep --page details > ncu_w64_details.txt 2>&1
$NCU -i ncu_w64.ncu-rep --page source --csv --print-source sass > ncu_w64_sass.csv 2>&1
rm -f ncu_w64.ncu-rep
cd /tmp && tar czf $OUT/results.tgz w2
grep -v "^rc=0 " $W/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/summary.txt)"
grep gain $W/summary.txt | awk '{print $1, $5}' | paste - - - -
grep -E "Duration|SM Frequency|DRAM Throughput|L2 Cache Throughput|Issue Slots Busy|Registers Per" $W/ncu_w64_details.txt | head -8
