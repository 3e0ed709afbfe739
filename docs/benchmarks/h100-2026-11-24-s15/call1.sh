#!/bin/bash
# Session 15 call 1: serpentine walks (k order reversed on odd swath groups = KREV; piece order reversed on odd groups = PREV)
export LD_LIBRARY_PATH=$PWD/.carry/lib
T=.carry/bsrflow_tests
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv | tee -a $W/device.txt
# correctness with both switches on (every config + hostile + random/fp64)
BSRFLOW_EXP_KREV=1 BSRFLOW_EXP_PREV=1 timeout 200 $T "[sm90][gpu]~[tuning]" > $W/tests_kp.log 2>&1; echo "tests K+P rc=$?" | tee -a $W/summary.txt
tail -3 $W/tests_kp.log
run() { # tag env...
  local tag=$1; shift
  env "$@" BSRFLOW_SM90BENCH_BLOCKS=128,64 timeout 120 $T "[.sm90bench]" > $W/bench_$tag.log 2>&1
  echo "== $tag" >> $W/summary.txt
  grep -E "\[tuned\]|\[tuned, again\]|probe =|cublas" $W/bench_$tag.log >> $W/summary.txt
  grep -E "copy" $W/bench_$tag.log | awk '{print "   probe", $3, $(NF-4), $(NF-3)}' >> $W/summary.txt
}
SECONDS=0
run base1 A=0
run k1 BSRFLOW_EXP_KREV=1
run kp1 BSRFLOW_EXP_KREV=1 BSRFLOW_EXP_PREV=1
run p1 BSRFLOW_EXP_PREV=1
run base2 A=0
run k2 BSRFLOW_EXP_KREV=1
run kp2 BSRFLOW_EXP_KREV=1 BSRFLOW_EXP_PREV=1
echo "bench seconds $SECONDS" >> $W/summary.txt
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
