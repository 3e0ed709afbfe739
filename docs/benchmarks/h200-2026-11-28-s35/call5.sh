#!/bin/bash
# Session 35 call 5 (H200): leaner skinny producers. Call 4 showed the producer warp's per-block
# instructions bound the many-block cases (a restructured loop with ~40% more SASS per block: 16 x
# 32 -15%). Experiment binary (a6492a7 + patches/exp_producer.patch), BSRFLOW_EXP_PRODUCER:
#   0 main's loop (one lane issues per block: window, shuffle, two TMA issues);
#   1 lane j issues block j's A and B boxes (ptxas waterfalls the TMA issues over the active lanes;
#     columns loaded per lane two stages ahead; no window, no shuffle);
#   2 as 1 with a full stage's A blocks as one box (C <= 64) before the B boxes;
#   3 as 1 with each lane's B box before its A box.
# 1. `[skinny]` GPU tests under variants 1-3.
# 2. A/B, two rounds: main (a6492a7) and the four variants on the 16 f16 skinny-suite cases,
#    16 x 32 (N = 16, 25%) and 32 x 32 at N = 32.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w5; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
for v in 1 2 3; do
  BSRFLOW_EXP_PRODUCER=$v timeout 100 $C/bsrflow_tests "[skinny]" > $W/tests_p$v.log 2>&1
  echo "[skinny] producer=$v rc=$? $(grep -E 'passed|failed' $W/tests_p$v.log | tail -1)"
done
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=540 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
for v in 0 1 2 3; do ab_variant p$v bsr_bench BSRFLOW_EXP_PRODUCER=$v; done
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
ab_case m4096n32b32d50 --m 4096 --n 32 --k 11008 --block 32 --density 0.5
ab_case m4096n16b16x32d25 --m 4096 --n 16 --k 11008 --block 16x32 --density 0.25
ab_run 2 bsr_bench_main p0 p1 p2 p3
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
cd /tmp && tar czf $OUT/results.tgz w5
grep -v "^rc=0 " $W/runs.txt
grep -v gain $W/summary.txt | awk '{print $1, $3, $4, $5}'
