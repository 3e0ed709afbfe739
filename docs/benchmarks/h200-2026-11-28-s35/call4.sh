#!/bin/bash
# Session 35 call 4 (H200): the stage box of call 3 as a plan rule. A full stage's A blocks load
# as one TMA box where the tile is 64 wide (N > 32), C <= 64 and a stage holds more than one
# block; other plans keep main's per-block loads, now on their own branch of the producer loop.
# BSRFLOW_EXP_ABOX=1 (experiment only) forces the stage box at every width.
# 1. `[skinny]` GPU tests as planned and forced; memcheck / racecheck / synccheck on
#    `[skinnysmall]` as planned and racecheck / memcheck forced.
# 2. A/B, two rounds: main (a6492a7), the rule ("bsr_bench"), forced ("abox1"): the 16 f16 skinny
#    suite cases, N = 64 32 x 32 bf16, N = 32 32 x 32 (W = 32, not yet measured) and 16 x 32.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w4; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
for m in rule 1; do
  if [ $m = rule ]; then unset BSRFLOW_EXP_ABOX; else export BSRFLOW_EXP_ABOX=$m; fi
  timeout 100 $C/bsrflow_tests "[skinny]" > $W/tests_$m.log 2>&1
  echo "[skinny] abox=$m rc=$? $(grep -E 'passed|failed' $W/tests_$m.log | tail -1)"
  tools="memcheck racecheck synccheck"; [ $m = 1 ] && tools="memcheck racecheck"
  for tool in $tools; do
    timeout 150 compute-sanitizer --tool $tool $C/bsrflow_tests "[skinnysmall]" > $W/san_${tool}_$m.log 2>&1
    echo "$tool abox=$m rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_${tool}_$m.log | tail -1)"
  done
done
unset BSRFLOW_EXP_ABOX
echo "checks done (${SECONDS}s)"
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=520 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_variant abox1 bsr_bench BSRFLOW_EXP_ABOX=1
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
ab_case m4096n64b32d50bf --m 4096 --n 64 --k 11008 --block 32 --density 0.5 --dtype bf16
ab_case m11008n64b32d25bf --m 11008 --n 64 --k 4096 --block 32 --density 0.25 --dtype bf16
ab_case m4096n32b32d25 --m 4096 --n 32 --k 11008 --block 32 --density 0.25
ab_case m4096n32b32d50 --m 4096 --n 32 --k 11008 --block 32 --density 0.5
ab_case m11008n32b32d50 --m 11008 --n 32 --k 4096 --block 32 --density 0.5
ab_case m4096n16b16x32d25 --m 4096 --n 16 --k 11008 --block 16x32 --density 0.25
ab_run 2 bsr_bench_main bsr_bench abox1
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
cd /tmp && tar czf $OUT/results.tgz w4
grep -v "^rc=0 " $W/runs.txt
grep gain $W/summary.txt
