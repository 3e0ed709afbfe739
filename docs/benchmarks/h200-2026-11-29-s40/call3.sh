#!/bin/bash
# Session 40 call 3 (H200). Binaries: this tree (a00952a's library, the conversion tests sharing
# check_numeric_replays / pattern_only_broken).
# 1. `[formats][gpu]` (the shared test helpers).
# 2. 32 x 32 blocks at 8192^3 f16, row-major B: the plan against three configurations by name
#    (swath256_swap, swath512_swap, swath256_swap_g4), two rounds, over uniform rows at 9 / 12.5 /
#    15 / 18.75 / 25%, power-law at 12.5 / 18.75% and banded / clustered at 12.5%. Question: where
#    do row groups start to pay for near-equal rows on the H200 (entry 56 part 6: uniform 12.5%
#    6.7-7.1% faster without them on two of three units; session 39's tuner 3.3%), and do banded /
#    clustered rows (3.7 / 4 blocks a row-group item at 12.5%, against 1.21 for uniform and
#    power-law rows) keep them?
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s40w3; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
timeout 200 $C/bsrflow_tests "[formats][gpu]" > $W/tests_formats.log 2>&1
echo "[formats][gpu] rc=$? (${SECONDS}s): $(tail -2 $W/tests_formats.log | head -1)"
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=300 AB_COMMON="--m 8192 --n 8192 --k 8192 --block 32"
AB_SYSTEMS="--systems bsrflow_sm90 --sm90-configs swath256_swap,swath512_swap,swath256_swap_g4"
for d in 0.09 0.125 0.15 0.1875 0.25; do ab_case "u$d" --density $d; done
for d in 0.125 0.1875; do ab_case "p$d" --density $d --pattern powerlaw; done
ab_case b0.125 --pattern banded
ab_case c0.125 --pattern clustered
ab_run 2 bsr_bench
ab_summary > summary.txt
rm -f b_*.json
echo "runs done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz s40w3
grep -v "^rc=0 " $W/ab/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/ab/summary.txt)"
awk '{printf "%s %s %s %s %s\n", $1, $2, $4, $5, $NF}' $W/ab/summary.txt
