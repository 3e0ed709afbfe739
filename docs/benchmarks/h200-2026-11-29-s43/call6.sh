#!/bin/bash
# Session 43 call 6 (H200): every GPU test but the soak with the session's final binaries (124aab4:
# the skinny kernel's programmatic dependent launch, the chain test in its final form), then the
# three sanitizers on [skinnysmall] (which holds the chain test).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s43w6; rm -rf $W; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
timeout 330 $C/bsrflow_tests "[gpu]~[soak]" --durations yes > $W/gpu_tests.log 2>&1
echo "[gpu]~[soak] rc=$? $(tail -2 $W/gpu_tests.log | head -1) (${SECONDS}s)"
AB_CHECKS_TIMEOUT_S=200 BSRFLOW_GPU_TESTS=0 ab_gpu_checks $W "[skinny]" "[skinnysmall]"
cd /tmp && gzip -9 $W/gpu_tests.log && tar czf $OUT/results.tgz s43w6
