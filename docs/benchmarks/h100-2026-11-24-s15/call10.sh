#!/bin/bash
# Session 15 call 10: review mend (the A coordinate through block_at): sm90 tests, sanitizers, 128/64 against 99e36b1
export LD_LIBRARY_PATH=$PWD/.carry/lib
T=$PWD/.carry/bsrflow_tests; TB=$PWD/.carry/bsrflow_tests_base
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
SECONDS=0
timeout 300 $T "[sm90][gpu]" > $W/tests_sm90.log 2>&1; echo "[sm90][gpu] rc=$? $(tail -2 $W/tests_sm90.log | head -1) (${SECONDS}s)" >> $W/summary.txt
for tool in memcheck racecheck synccheck; do
  timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 $T "[sm90small]" > $W/san_$tool.log 2>&1
  echo "$tool [sm90small] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$tool.log | tail -1) (${SECONDS}s)" >> $W/summary.txt
done
echo "tag  tuned128 probe128 probe128 again128 | tuned16 ... again16" >> $W/summary.txt
for i in 1 2; do
  for v in base new; do
    bin=$T; [ $v = base ] && bin=$TB
    BSRFLOW_SM90BENCH_BLOCKS=128,16 timeout 120 $bin "[.sm90bench]" > $W/bench_${v}$i.log 2>&1
    printf "%-6s" $v$i >> $W/summary.txt
    grep -E "block 128 .*\[tuned|block 128 .*kc32_pair_copy|block  16 .*\[tuned" $W/bench_${v}$i.log | awk '{for(i=1;i<=NF;i++) if($i=="TFLOPS") printf "%7s ", $(i-1)}' >> $W/summary.txt
    echo >> $W/summary.txt
  done
done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
