#!/bin/bash
# Session 43 call 9 (H200): call 8's synccheck failure came in the conditional-node loop with PDL,
# and the sticky error hid the run without it. The same, PDL off first (GENERATE(false, true)).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/s43w9; rm -rf $W; mkdir -p $W
nvidia-smi -L > $W/device.txt; cat $W/device.txt
timeout 100 compute-sanitizer --tool synccheck $C/bsrflow_tests "Skinny products with and without*" > $W/synccheck_condloop.log 2>&1
echo "synccheck condloop rc=$? $(grep -E 'ERROR SUMMARY' $W/synccheck_condloop.log | tail -1)"
grep -E "pdl :=|FAILED|overflow|Divergent|passed" $W/synccheck_condloop.log | head -12
timeout 100 compute-sanitizer --tool synccheck --num-cuda-barriers 64 $C/bsrflow_tests "Skinny products with and without*" > $W/synccheck_condloop_b64.log 2>&1
echo "synccheck --num-cuda-barriers 64 condloop rc=$? $(grep -E 'ERROR SUMMARY' $W/synccheck_condloop_b64.log | tail -1)"
grep -E "pdl :=|FAILED|overflow|Divergent|passed|rror" $W/synccheck_condloop_b64.log | head -12
cd /tmp && tar czf $OUT/results.tgz s43w9
