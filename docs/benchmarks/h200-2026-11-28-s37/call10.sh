#!/bin/bash
# Session 37 call 10 (H200): the skinny producer's per-stage path shortened (part 6): shared
# addresses of the ring, barriers and B slots computed once and pinned, A's packed blocks as a
# 3-D map like the unpacked ones (no per-issue branch), B's packed row as a shift.
# 1. `[skinny]` GPU tests; memcheck / racecheck / synccheck on `[skinnysmall]`.
# 2. A/B, two rounds, main (731d40d's code) against the change: the skinny suite's 16 f16 cases.
# 3. The skinny suite with the change (every system).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w10; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
ab_gpu_checks $W "[skinny]" "[skinnysmall]"
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=200 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_skinny_cases f16
ab_run 2 bsr_bench_main bsr_bench
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
timeout 120 $C/bsr_bench --suite skinny --json nvidia-h200-skinny.json > skinny_suite.md 2> skinny_suite.err
echo "skinny suite rc=$? (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w10
grep -v "^rc=0 " $W/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/summary.txt)"
grep gain $W/summary.txt | awk '{print $1, $5}' | paste - - - -
