#!/bin/bash
# Session 40 call 1 (H200). Binaries: a_base (7bef461 = a00952a's skinny kernel), b_clus (this tree:
# where every block row is cut into the same k pieces, 2 <= k <= 8, each row's pieces launch as one
# cluster and rank 0 adds the other ranks' tiles from their shared memory - no partial tiles in
# global memory, no GPU-scope fence, no ticket, no L2 reads of the row's sum).
# Prediction: the 8 split-row cases (4096 rows; k = 3 at 32 x 32, 5 at 64 x 64) -5 to -10% time at
# N = 16 and N = 64 (s38/s39 timers: ~1.1 us from the cross-warp sum to the ticket, then ~0.5-1.8 us
# for the last piece's sum, of ~12-20 us); the 8 whole-row cases (11008 rows) within 1%.
# 1. `[skinny]` + memcheck / racecheck / synccheck on `[skinnysmall]` (b_clus's tests).
# 2. A/B: the skinny suite's 16 f16 cases + the 4 bf16 split-row ones at N = 16, three rounds.
# 3. The skinny suite with b_clus.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s40w1; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
ab_gpu_checks $W "[skinny]" "[skinnysmall]"
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=330 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_skinny_cases f16
for b in 32 64; do
  for d in 25 50; do
    ab_case "m4096n16b${b}d${d}bf16" --m 4096 --n 16 --k 11008 --block $b --density 0.$d --dtype bf16
  done
done
ab_run 3 a_base b_clus
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd $W
timeout 100 $C/b_clus --suite skinny --json nvidia-h200-skinny.json > skinny_suite.md 2> skinny_suite.err
echo "skinny suite rc=$? (${SECONDS}s)" | tee -a runs.txt
cd /tmp && tar czf $OUT/results.tgz s40w1
grep -v "^rc=0 " $W/ab/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/ab/summary.txt)"
grep gain $W/ab/summary.txt | awk '{print $1, $3, $5}' | paste - -
