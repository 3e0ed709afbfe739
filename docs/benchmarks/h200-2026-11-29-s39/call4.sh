#!/bin/bash
# Session 39 call 4 (H200). Binaries: a_base (8ef363c's skinny kernel), b_late (this tree: the
# piece record is loaded after thread 0 has issued the tensor maps' prefetch and the barriers'
# initialisation; before, ptxas placed the stage count's division, which reads the record, ahead of
# that block, so thread 0 prefetched the maps only once the record had come from DRAM).
# Prediction: the maps' descriptors fetched under the record's load, the first boxes ~0.3-0.5 us
# earlier: N = 16 +0-3%, N = 64 0-2%, nothing slower beyond 1%.
# 1. `[skinny]` + memcheck / racecheck / synccheck on `[skinnysmall]` (b_late's tests).
# 2. A/B: the skinny suite's 16 f16 cases + 6 small-block cases, a_base / b_late, three rounds.
# 3. The skinny suite with b_late.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s39w4; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
ab_gpu_checks $W "[skinny]" "[skinnysmall]"
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=220 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_skinny_cases f16
for n in 16 64; do
  for b in 16 16x32 32x16; do
    ab_case "m11008n${n}b${b}d25" --m 11008 --n $n --k 4096 --block $b --density 0.25
  done
done
ab_run 3 a_base b_late
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd $W
timeout 100 $C/b_late --suite skinny --json nvidia-h200-skinny.json > skinny_suite.md 2> skinny_suite.err
echo "skinny suite rc=$? (${SECONDS}s)" | tee -a runs.txt
cd /tmp && tar czf $OUT/results.tgz s39w4
grep -v "^rc=0 " $W/ab/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/ab/summary.txt)"
grep gain $W/ab/summary.txt | awk '{print $1, $3, $5}' | paste - -
