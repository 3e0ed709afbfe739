#!/bin/bash
# Session 40 call 4 (H200). Binaries: a_base (7bef461's bsr_bench: a00952a's library), b_rule (this
# tree: 32 x 32 blocks, row-major B, near-equal rows, GPUs with >= 4 TB/s memory - the one-row
# kernel at swath 256 from 6% density, and instead of row groups while their items carry fewer
# than 1.25 blocks, which the plan now counts; tuning_sm90.hpp narrow_swath_candidate).
# Prediction (call 3's unit): 32 x 32 uniform rows 9% +5%, 12.5% +3-4% (f16 and bf16), 6.25%
# +2%, 15% / 18.75% / 25% unchanged (their items carry 1.25 / 1.33 / 1.46 blocks: row groups as
# before); power-law, banded, clustered, 3%, 50% and B column-major unchanged (same plans).
# 1. `[sm90],[rowgroup]` GPU tests (the plan's count, the new plan-name test); memcheck on the two
#    new row-group tests.
# 2. A/B: a_base / b_rule on 12 cases of 32 x 32 at 8192^3, three rounds.
# 3. The standard suite with b_rule (+ PyTorch peer), for docs/benchmarks if it lands.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s40w4; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
timeout 240 $C/bsrflow_tests "[sm90],[rowgroup]" > $W/tests.log 2>&1
echo "rc=$? [sm90],[rowgroup] GPU tests (${SECONDS}s): $(tail -n 3 $W/tests.log | grep -E 'passed|failed' | tr -s ' ')" | tee -a $W/runs.txt
timeout 120 compute-sanitizer --tool memcheck $C/bsrflow_tests "row groups: the plan counts what near-equal 32 x 32 rows share,row groups: the device builder and the gather match the host rule" > $W/memcheck.log 2>&1
echo "rc=$? memcheck (${SECONDS}s): $(grep 'ERROR SUMMARY' $W/memcheck.log)" | tee -a $W/runs.txt
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=330 AB_COMMON="--m 8192 --n 8192 --k 8192 --block 32" AB_SYSTEMS="--systems bsrflow_sm90"
for d in 0.0625 0.09 0.125 0.15 0.1875 0.03 0.5; do ab_case "u$d" --density $d; done
ab_case p0.125 --pattern powerlaw
ab_case b0.125 --pattern banded
ab_case c0.125 --pattern clustered
ab_case u0.125bf16 --dtype bf16
ab_case u0.125bcol --b-layout col
ab_run 3 a_base b_rule
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd $W
GPU=nvidia-h200
timeout 170 $C/b_rule --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "standard suite rc=$? (${SECONDS}s)" | tee -a runs.txt
timeout 60 python3 $R/torch_peer.py $GPU.json > torch_peer.log 2>&1; echo "torch_peer rc=$? (${SECONDS}s)" | tee -a runs.txt
cd /tmp && tar czf $OUT/results.tgz s40w4
grep -v "^rc=0 " $W/ab/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/ab/summary.txt)"
awk '$4 == "gain" {print $1, $5}' $W/ab/summary.txt | paste - - -
grep -v gain $W/ab/summary.txt | awk '{print $1, $3, $NF}' | sort -u | grep b_rule
