#!/bin/bash
# Session 37 call 6 (H200): the landed rule (packed A rows at widths 16 / 32 only; call 5 had them
# at 64 too): `[skinny]` GPU tests, memcheck / racecheck / synccheck on `[skinnysmall]`, and the
# skinny suite (every system) for docs/benchmarks/nvidia-h200-skinny.json.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w6; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
ab_gpu_checks $W "[skinny]" "[skinnysmall]"
cd $W
timeout 150 $C/bsr_bench --suite skinny --json nvidia-h200-skinny.json > skinny_suite.md 2> skinny_suite.err
echo "skinny suite rc=$? (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w6
