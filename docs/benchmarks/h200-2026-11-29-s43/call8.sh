#!/bin/bash
# Session 43 call 8 (H200): call 7's synccheck failed in the new graph test's conditional-node loop
# ("overflow of tracked cuda::barrier structures", then a launch failure), which passed without
# the tool. The test is now two: a task and a host-checked loop; a conditional-node loop with PDL on
# and off. Which of them does synccheck fail, and does PDL matter? (tests/gpu_machine.sh already
# leaves the PCG tests' conditional loops to memcheck for a like failure, docs/perf_log_pcg.md.)
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/s43w8; rm -rf $W; mkdir -p $W
nvidia-smi -L > $W/device.txt; cat $W/device.txt
SECONDS=0
timeout 100 $C/bsrflow_tests "[graph][gpu]~[soak]" > $W/graph_tests.log 2>&1
echo "[graph][gpu]~[soak] rc=$? $(tail -2 $W/graph_tests.log | head -1) (${SECONDS}s)"
run() {  # tool name test-filter
  timeout 100 compute-sanitizer --tool $1 $C/bsrflow_tests "$3" > $W/$1_$2.log 2>&1
  echo "$1 $2 rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/$1_$2.log | tail -1) $(grep -c overflow $W/$1_$2.log) overflow warnings (${SECONDS}s)"
}
run synccheck hostloop "Two dependent skinny products*"
run racecheck hostloop "Two dependent skinny products*"
run memcheck condloop "Skinny products with and without*"
run synccheck condloop "Skinny products with and without*"
grep -E "pdl :=|FAILED|overflow|Divergent" $W/synccheck_condloop.log | head -12
cd /tmp && tar czf $OUT/results.tgz s43w8
