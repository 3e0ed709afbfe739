#!/bin/bash
# Session 42 call 2 (H200). One binary, b_exp (7dfa60d + patches/exp_split_cost.patch), variants
# by BSRFLOW_EXP_SPLITCOST: the plan's cost of a split piece at R = 128 in the longest-processing-
# time assignment, in blocks beyond its own (s3 = main's tile_overhead(128).split; whole tiles 1).
# Why: session 33's per-tile timers (h200-2026-11-28-s33/call2, s42 regress.py) fit a pair's end
# as 1.27 us x blocks + 1.08 x whole tiles + 4.96 x split pieces + 27 (residual sd 1.5 us): a split
# piece costs ~3.9 blocks more than a whole tile, the plan counts 2. Pairs holding 4 split pieces
# end 16 us after those holding none. Replayed (overhead.py, the fit as the clock): last pair
# 221.8 us (s3) -> 219.2 (s4) / 220.1 (s5) / 222.3 (s6).
# Prediction: 8192^3 128 power-law +1% with s4 (bf16 alike), s5 +0.5%; other shapes within 1%.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s42w2; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=330 AB_TIMEOUT_S=30 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_sm90"
ab_variant s3 b_exp
ab_variant s4 b_exp BSRFLOW_EXP_SPLITCOST=4
ab_variant s5 b_exp BSRFLOW_EXP_SPLITCOST=5
S="--m 8192 --n 8192 --k 8192"
ab_case pl128 $S --block 128 --density 0.125 --pattern powerlaw
ab_case pl128bf $S --block 128 --density 0.125 --pattern powerlaw --dtype bf16
ab_case pl128seed2 $S --block 128 --density 0.125 --pattern powerlaw --seed 2
ab_case pl128s4k --m 4096 --n 4096 --k 4096 --block 128 --density 0.125 --pattern powerlaw
ab_case pl128d25 $S --block 128 --density 0.25 --pattern powerlaw
ab_case pl128m16k --m 16384 --n 8192 --k 8192 --block 128 --density 0.125 --pattern powerlaw
ab_case pl128n16k --m 8192 --n 16384 --k 8192 --block 128 --density 0.125 --pattern powerlaw
ab_run 3 s3 s4 s5
ab_summary > summary.txt
rm -f b_*.json
echo "runs done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz s42w2
grep -v "^rc=0 " $W/ab/runs.txt | head
cat $W/ab/summary.txt
