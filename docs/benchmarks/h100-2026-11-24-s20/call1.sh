#!/bin/bash
# Session 20 call 1 (H100): the last swath groups' tiles handed out longest first across groups
# (ScheduleShape::lpt_groups, kLptGroups = 3). 7ae9f34's bsr_bench (.carry/bsr_bench_old) against
# this tree's (new), and this tree + patches/exp_lpt_env.patch (.carry/bsr_bench_exp) with
# BSRFLOW_EXP_LPT = 0 / 2 / 4 groups; three rounds. Then [sm90][gpu] and the three sanitizers on
# [sm90small]. TESTS=0 skips the tests and sanitizers.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w1; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
run() {  # name bin block pattern density env...
  local name=$1 bin=$2 block=$3 pattern=$4 density=$5; shift 5
  env "$@" timeout 60 $bin --m 8192 --n 8192 --k 8192 --block $block --density $density --pattern $pattern --systems bsrflow_sm90,bsrflow_sm90_copy_probe > $W/ab/$name.md 2>$W/ab/$name.err
  echo "$name: $(grep -E '\| bsrflow_sm90' $W/ab/$name.md | awk -F'|' '{printf "%s %s %s;", $3, $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2 3; do
  for v in old new; do
    bin=$C/bsr_bench; [ $v = old ] && bin=$C/bsr_bench_old
    for c in "128 powerlaw 0.125" "128 uniform 0.125" "64 powerlaw 0.125" "32 powerlaw 0.125" "16 powerlaw 0.125" "128 powerlaw 0.5" "128 powerlaw 0.03"; do
      set -- $c; run ${v}_$1_$2_$3_$i $bin $1 $2 $3
    done
  done
  run k0_128_powerlaw_0.125_$i $C/bsr_bench_exp 128 powerlaw 0.125 BSRFLOW_EXP_LPT=0
  for k in 2 4; do
    for d in 0.125 0.5 0.03; do run k${k}_128_powerlaw_${d}_$i $C/bsr_bench_exp 128 powerlaw $d BSRFLOW_EXP_LPT=$k; done
  done
done
if [ "${TESTS:-1}" != 0 ]; then
  timeout 260 $T "[sm90][gpu]" > $W/tests_sm90.log 2>&1; echo "[sm90][gpu] rc=$? $(tail -2 $W/tests_sm90.log | head -1) (${SECONDS}s)" >> $W/summary.txt
  CS=/usr/local/cuda/bin/compute-sanitizer
  for tool in memcheck racecheck synccheck; do
    timeout 150 $CS --tool $tool --error-exitcode 9 $T "[sm90small]" > $W/san_$tool.log 2>&1
    echo "$tool [sm90small] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$tool.log | tail -1) (${SECONDS}s)" >> $W/summary.txt
  done
fi
cd /tmp && tar czf $OUT/results.tgz w1
cat $W/summary.txt
