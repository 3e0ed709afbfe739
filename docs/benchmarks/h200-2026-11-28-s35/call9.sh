#!/bin/bash
# Session 35 call 9 (H200, diagnosis): per-CTA timers of the skinny kernel at N = 16 (entry 41's
# timeline was the H100's). Experiment binary = 140b171 + patches/exp_skinny_timers.patch:
# BSRFLOW_EXP_TIMERS=<file> writes the last run's stamps (64 u64 per CTA); the last run of each
# case is a timed one after an L2 flush. skinny_timers.py summarises them.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w9; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
run() {  # tag, options
  local tag=$1; shift
  BSRFLOW_EXP_TIMERS=$W/$tag.bin timeout 60 $C/bsr_bench --systems bsrflow_skinny --iters 5 "$@" \
    --json $W/$tag.json > $W/$tag.md 2> $W/$tag.err
  echo "$tag rc=$?"
}
run u32d25 --m 4096 --n 16 --k 11008 --block 32 --density 0.25
run u32d50 --m 4096 --n 16 --k 11008 --block 32 --density 0.5
run w32d50 --m 11008 --n 16 --k 4096 --block 32 --density 0.5
run u64d50 --m 4096 --n 16 --k 11008 --block 64 --density 0.5
run u16x32d25 --m 4096 --n 16 --k 11008 --block 16x32 --density 0.25
cd $W && python3 $OLDPWD/docs/benchmarks/h200-2026-11-28-s35/skinny_timers.py u32d25.bin u32d50.bin w32d50.bin u64d50.bin u16x32d25.bin | tee timers.txt
cd /tmp && tar czf $OUT/results.tgz w9
