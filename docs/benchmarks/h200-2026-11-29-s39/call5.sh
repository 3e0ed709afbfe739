#!/bin/bash
# Session 39 call 5 (H200). Binaries: a_base (7bef461), b_split (this tree: a split piece's row -
# its index from split_of_slot, then its first slot and count from split_rows, two dependent loads
# the consumers made after their main loop before the ticket - is looked up by lane 0 of the last
# producer warp once its stages are issued, into shared memory behind an mbarrier).
# Prediction: the 8 split-row cases (4096 rows) +1-4% (s38 call 6 timers: cross-warp sum to
# ticket 1.4 us), the 8 whole-row cases (11008 rows) and the small-block cases within 1%.
# 1. `[skinny]` + memcheck / racecheck / synccheck on `[skinnysmall]` (b_split's tests).
# 2. A/B: the skinny suite's 16 f16 cases + 6 small-block cases, a_base / b_split, three rounds.
# 3. The skinny suite with b_split.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s39w5; rm -rf $W; mkdir -p $W/ab
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
ab_run 3 a_base b_split
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd $W
timeout 100 $C/b_split --suite skinny --json nvidia-h200-skinny.json > skinny_suite.md 2> skinny_suite.err
echo "skinny suite rc=$? (${SECONDS}s)" | tee -a runs.txt
cd /tmp && tar czf $OUT/results.tgz s39w5
grep -v "^rc=0 " $W/ab/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/ab/summary.txt)"
grep gain $W/ab/summary.txt | awk '{print $1, $3, $5}' | paste - -
