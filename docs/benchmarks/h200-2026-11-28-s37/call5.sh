#!/bin/bash
# Session 37 call 5 (H200): the skinny kernel's A blocks (C = 16 / 32) and packed B slices (width
# 16 / 32) as 128-byte TMA rows, as it lands (call 4's experiment, cleaned up).
# 1. `[skinny]` GPU tests (new: packed B at N = 16 / 32 in every block shape and in
#    `[skinnysmall]`); memcheck / racecheck / synccheck on `[skinnysmall]`.
# 2. A/B, two rounds, main (9b08f2e's code) against the change: the skinny suite's 32 cases.
# 3. The skinny suite with the change (every system), for docs/benchmarks/nvidia-h200-skinny.json.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w5; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
ab_gpu_checks $W "[skinny]" "[skinnysmall]"
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=330 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_skinny_cases f16
ab_skinny_cases bf16
ab_run 2 bsr_bench_main bsr_bench
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
timeout 150 $C/bsr_bench --suite skinny --json nvidia-h200-skinny.json > skinny_suite.md 2> skinny_suite.err
echo "skinny suite rc=$? (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w5
grep -v "^rc=0 " $W/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/summary.txt)"
grep gain $W/summary.txt | awk '{print $1, $5}' | paste - - - -
