#!/bin/bash
# Session 18 call 7: v4 of run-time tile claims (only producers handle indices; records ride with
# each tile's first stage): [sm90][gpu] tests, sanitizers, A/B against main 21d9d6f
# (bsr_bench_old) alternated twice, and two lead settings.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
timeout 260 $T "[sm90][gpu]" > $W/tests_sm90.log 2>&1; echo "[sm90][gpu] rc=$? $(tail -2 $W/tests_sm90.log | head -1) (${SECONDS}s)" >> $W/summary.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  timeout 150 $CS --tool $tool --error-exitcode 9 $T "[sm90small]" > $W/san_$tool.log 2>&1
  echo "$tool [sm90small] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$tool.log | tail -1) (${SECONDS}s)" >> $W/summary.txt
done
run() {  # name bin block pattern systems
  timeout 60 $2 --m 8192 --n 8192 --k 8192 --block $3 --density 0.125 --pattern $4 --systems $5 > $W/ab/$1.md 2>$W/ab/$1.err
  echo "$1: $(grep -E '\| bsrflow_sm90' $W/ab/$1.md | awk -F'|' '{printf "%s %s %s;", $3, $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for v in old new c24 c12 old2 new2; do
  bin=$C/bsr_bench; [ $v = old ] || [ $v = old2 ] && bin=$C/bsr_bench_old
  unset BSRFLOW_EXP_CLAIM BSRFLOW_EXP_PUBLISH BSRFLOW_EXP_BATCH
  [ $v = c24 ] && export BSRFLOW_EXP_CLAIM=24 BSRFLOW_EXP_PUBLISH=16 BSRFLOW_EXP_BATCH=8
  [ $v = c12 ] && export BSRFLOW_EXP_CLAIM=12 BSRFLOW_EXP_PUBLISH=8 BSRFLOW_EXP_BATCH=4
  for c in "128 powerlaw" "128 uniform" "64 powerlaw" "64 uniform" "32 powerlaw" "32 uniform" "16 powerlaw" "16 uniform"; do
    set -- $c; sys=bsrflow_sm90; [ $1 = 128 ] && sys=bsrflow_sm90,bsrflow_sm90_copy_probe
    run ${v}_$1_$2 $bin $1 $2 $sys
  done
done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
