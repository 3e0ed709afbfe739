#!/bin/bash
# Session 29 call 3 (H200): main's code (16032ad) through tests/gpu_machine.sh run with the gzipped pack:
# every GPU test and the three sanitizers on [sm90small] (the row-group kernels with one and two items per stage).
BSRFLOW_GPU_BENCH=0 BSRFLOW_GPU_SANITIZE_TAGS="[sm90small]" bash tests/gpu_machine.sh run
