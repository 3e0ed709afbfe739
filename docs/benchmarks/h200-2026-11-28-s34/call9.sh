#!/bin/bash
# Session 34 call 9 (H200): 32 x 32 f16 with and without row groups on a third H200 unit. Session
# 33's tuner found the no-row-group kernel 7.1% faster at 12.5% on its unit, session 32's even
# (1.004); the heuristic takes row groups from 11% density (row-major B). bsr_bench (05291a0),
# one process per case and round, three rounds: the plan (bsrflow_sm90 = swath256_swap_g4 at 12.5%)
# and both configurations by name.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w9; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
nvidia-smi --query-gpu=uuid,name,clocks.max.sm,power.limit --format=csv >> device.txt
SECONDS=0
AB_BIN_DIR=$C AB_BUDGET_S=300 AB_SYSTEMS="--systems bsrflow_sm90 --sm90-configs swath256_swap_kc32,swath256_swap_g4"
ab_case u32 --block 32 --density 0.125
ab_case pl32 --block 32 --density 0.125 --pattern powerlaw
ab_case u32d6 --block 32 --density 0.0625
ab_case u32d25 --block 32 --density 0.25
ab_run 3 bsr_bench_main
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
cd /tmp && tar czf $OUT/results.tgz w9
grep -v "^rc=0 " $W/runs.txt
cat $W/summary.txt
