#!/bin/bash
# Session 43 call 7 (H200): the task graph with skinny products launched with PDL - a new test
# captures two dependent products (a programmatic edge) as a task and as the body of a device loop
# (conditional node and host-checked). [graph][gpu] without the soak, then memcheck and synccheck
# on the new test.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/s43w7; rm -rf $W; mkdir -p $W
nvidia-smi -L > $W/device.txt; cat $W/device.txt
SECONDS=0
timeout 200 $C/bsrflow_tests "[graph][gpu]~[soak]" > $W/graph_tests.log 2>&1
echo "[graph][gpu]~[soak] rc=$? $(tail -2 $W/graph_tests.log | head -1) (${SECONDS}s)"
for tool in memcheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool $C/bsrflow_tests "Two dependent skinny products*" > $W/$tool.log 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY' $W/$tool.log | tail -1) (${SECONDS}s)"
done
grep -B5 -A20 "FAILED\|error" $W/graph_tests.log | head -60
cd /tmp && tar czf $OUT/results.tgz s43w7
