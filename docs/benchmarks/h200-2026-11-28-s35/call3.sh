#!/bin/bash
# Session 35 call 3 (H200): the skinny kernel's A blocks of a full stage as ONE TMA box
# (box (C, R, blocks_per_stage) over the (C, R, nnzb) values tensor; C <= 64) instead of one box
# per block. Call 1 found the skinny kernel's time set by its block count where blocks are many
# (16 x 32 at 25% = 32 x 32 at 50%: same block count, half the bytes, same time). Experiment
# binary (a6492a7 + patches/stage_box.patch): BSRFLOW_EXP_ABOX=0 per block (main's loads),
# 1 the stage box before the stage's B slices, 2 after them.
# 1. `[skinny]` GPU tests with ABOX=1 and 2; memcheck / racecheck / synccheck on `[skinnysmall]`
#    with ABOX=1.
# 2. A/B, two rounds: the 16 f16 skinny-suite cases and two 16 x 32 cases (many blocks).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w3; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
for m in 1 2; do
  BSRFLOW_EXP_ABOX=$m timeout 100 $C/bsrflow_tests "[skinny]" > $W/tests_abox$m.log 2>&1
  echo "[skinny] abox=$m rc=$? $(grep -E 'passed|failed' $W/tests_abox$m.log | tail -1)"
done
for tool in memcheck racecheck synccheck; do
  BSRFLOW_EXP_ABOX=1 timeout 150 compute-sanitizer --tool $tool $C/bsrflow_tests "[skinnysmall]" > $W/san_$tool.log 2>&1
  echo "$tool abox=1 rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$tool.log | tail -1)"
done
echo "checks done (${SECONDS}s)"
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=520 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_variant abox0 bsr_bench BSRFLOW_EXP_ABOX=0
ab_variant abox1 bsr_bench BSRFLOW_EXP_ABOX=1
ab_variant abox2 bsr_bench BSRFLOW_EXP_ABOX=2
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
ab_case m4096n16b16x32d25 --m 4096 --n 16 --k 11008 --block 16x32 --density 0.25
ab_case m4096n16b16x32d50 --m 4096 --n 16 --k 11008 --block 16x32 --density 0.5
ab_run 2 bsr_bench_main abox0 abox1 abox2
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
cd /tmp && tar czf $OUT/results.tgz w3
grep -v "^rc=0 " $W/runs.txt
grep gain $W/summary.txt
