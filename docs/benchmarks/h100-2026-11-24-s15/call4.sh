#!/bin/bash
# Session 15 call 4: final binary (reverse walk on odd swath groups): GPU tests, sanitizers, A/B vs main's previous kernels
export LD_LIBRARY_PATH=$PWD/.carry/lib
T=$PWD/.carry/bsrflow_tests; TB=$PWD/.carry/bsrflow_tests_base
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
SECONDS=0
timeout 300 $T "[sm90][gpu]" > $W/tests_sm90.log 2>&1; echo "[sm90][gpu] rc=$? $(tail -2 $W/tests_sm90.log | head -1) (${SECONDS}s)" >> $W/summary.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  timeout 200 $CS --tool $tool --error-exitcode 9 $T "[sm90small]" > $W/san_$tool.log 2>&1
  echo "$tool [sm90small] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$tool.log | tail -1) (${SECONDS}s)" >> $W/summary.txt
done
run() { # tag binary env...
  local tag=$1 bin=$2; shift 2
  env "$@" timeout 120 $bin "[.sm90bench]" > $W/bench_$tag.log 2>&1
  printf "%-10s" $tag >> $W/summary.txt
  grep -E "block 128 .*\[tuned|block  64 .*\[tuned|block 128 .*kc32_pair_copy|block  64 .*s5_pair_copy" $W/bench_$tag.log | awk '{for(i=1;i<=NF;i++) if($i=="TFLOPS") printf "%7s ", $(i-1)}' >> $W/summary.txt
  echo >> $W/summary.txt
}
echo "tag  tuned128 probe128 probe128 again128 tuned64 probe64 probe64 again64" >> $W/summary.txt
for i in 1 2 3; do
  run base$i $TB BSRFLOW_SM90BENCH_BLOCKS=128,64
  run new$i $T BSRFLOW_SM90BENCH_BLOCKS=128,64
done
run base_small $TB BSRFLOW_SM90BENCH_BLOCKS=16,32
run new_small $T BSRFLOW_SM90BENCH_BLOCKS=16,32
grep -E "\[tuned" $W/bench_base_small.log $W/bench_new_small.log | awk '{for(i=1;i<=NF;i++) if($i=="TFLOPS") print $1, $2, $3, $(i-1)}' >> $W/summary.txt
echo "total ${SECONDS}s" >> $W/summary.txt
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
