#!/bin/bash
# Session 18 call 12: plan-time tile costs per block height (R = 128: 1 block per whole tile, 3 per
# split piece; R <= 64 unchanged): [sm90][gpu], sanitizers on [sm90small], A/B against main
# (bsr_bench_old = 21d9d6f, the same kernels), three rounds.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w12; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
timeout 260 $T "[sm90][gpu]" > $W/tests_sm90.log 2>&1; echo "[sm90][gpu] rc=$? $(tail -2 $W/tests_sm90.log | head -1) (${SECONDS}s)" >> $W/summary.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  timeout 150 $CS --tool $tool --error-exitcode 9 $T "[sm90small]" > $W/san_$tool.log 2>&1
  echo "$tool [sm90small] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$tool.log | tail -1) (${SECONDS}s)" >> $W/summary.txt
done
run() {  # name bin block pattern density
  timeout 60 $2 --m 8192 --n 8192 --k 8192 --block $3 --density $5 --pattern $4 --systems bsrflow_sm90,bsrflow_sm90_copy_probe > $W/ab/$1.md 2>$W/ab/$1.err
  echo "$1: $(grep -E '\| bsrflow_sm90' $W/ab/$1.md | awk -F'|' '{printf "%s %s %s;", $3, $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2 3; do for v in old new; do
  bin=$C/bsr_bench; [ $v = old ] && bin=$C/bsr_bench_old
  for c in "128 powerlaw 0.125" "128 uniform 0.125" "128 uniform 0.5" "64 powerlaw 0.125"; do
    set -- $c; run ${v}_$1_$2_$3_$i $bin $1 $2 $3
  done
done; done
cd /tmp && tar czf $OUT/results.tgz w12
cat $W/summary.txt
