#!/bin/bash
# Session 19 call 5 (H100): equal tiles on fewer clusters when that fills the
# last round (sm90::balanced_clusters). [sm90][gpu], the sanitizers on [sm90small] and on the new
# section, then 97620be's bsr_bench (.carry/bsr_bench_old) against this one, three rounds.
# TESTS=0 skips the tests and sanitizers.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w5; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
if [ "${TESTS:-1}" != 0 ]; then
  timeout 260 $T "[sm90][gpu]" > $W/tests_sm90.log 2>&1; echo "[sm90][gpu] rc=$? $(tail -2 $W/tests_sm90.log | head -1) (${SECONDS}s)" >> $W/summary.txt
  CS=/usr/local/cuda/bin/compute-sanitizer
  for tool in memcheck racecheck synccheck; do
    timeout 150 $CS --tool $tool --error-exitcode 9 $T "[sm90small]" > $W/san_$tool.log 2>&1
    echo "$tool [sm90small] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$tool.log | tail -1) (${SECONDS}s)" >> $W/summary.txt
    for sec in "cluster 0, block 32" "cluster 0, block 128"; do
      timeout 100 $CS --tool $tool --error-exitcode 9 $T "sm90 GEMM: the tuned plan is exact on hostile patterns" -c "$sec: rows of one length on a few clusters fewer" > "$W/san_${tool}_${sec// /_}.log" 2>&1
      echo "$tool '$sec: rows of one length' rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|assertions' "$W/san_${tool}_${sec// /_}.log" | tail -2 | tr '\n' ' ') (${SECONDS}s)" >> $W/summary.txt
    done
  done
fi
run() {  # name bin block pattern density
  timeout 60 $2 --m 8192 --n 8192 --k 8192 --block $3 --density $5 --pattern $4 --systems bsrflow_sm90,bsrflow_sm90_copy_probe > $W/ab/$1.md 2>$W/ab/$1.err
  echo "$1: $(grep -E '\| bsrflow_sm90' $W/ab/$1.md | awk -F'|' '{printf "%s %s %s;", $3, $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2 3; do for v in old new; do
  bin=$C/bsr_bench; [ $v = old ] && bin=$C/bsr_bench_old
  for c in "128 uniform 0.125" "64 uniform 0.125" "32 uniform 0.125" "16 uniform 0.125" "128 uniform 0.5" "128 uniform 0.03" "128 powerlaw 0.125"; do
    set -- $c; run ${v}_$1_$2_$3_$i $bin $1 $2 $3
  done
done; done
cd /tmp && tar czf $OUT/results.tgz w5
cat $W/summary.txt
