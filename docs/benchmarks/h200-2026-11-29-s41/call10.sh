#!/bin/bash
# Session 41 call 10 (H200): the final tree (8974cee: the one-release signal, the fix-up's vector
# output through the epilogue's update helpers) - `[sm90],[rowgroup]` GPU tests, memcheck /
# racecheck / synccheck on `[sm90small]`. No timing (the GEMM kernels' PTX equals call 9's build).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s41w10; rm -rf $W; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
AB_CHECKS_TIMEOUT_S=300 ab_gpu_checks $W "[sm90],[rowgroup]" "[sm90small]"
cd /tmp && tar czf $OUT/results.tgz s41w10
