#!/bin/bash
# Session 37 call 3 (H200): the skinny kernel's load rules re-checked under the flush without dirty
# lines (entry 59): patches/exp_skinny_rules.patch on 9b08f2e, one binary, environment switches:
#   base  - as landed
#   lane1 - BSRFLOW_EXP_LANE=1: the lane producer (and stage box) wherever C <= 64 and a stage
#           holds 2+ blocks (adds 32 x 32 at N = 16, measured -2-5% under the old flush, entry 57)
#   pola  - BSRFLOW_EXP_POLA: A's boxes loaded evict-normal instead of evict-first
#   polb  - BSRFLOW_EXP_POLB: B's slices loaded evict-normal instead of evict-last (entry 24: +9%)
# A/B, three rounds, the skinny suite's 16 f16 cases, skinny kernel only.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w3; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=500 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_variant base bsr_bench_exp
ab_variant lane1 bsr_bench_exp BSRFLOW_EXP_LANE=1
ab_variant pola bsr_bench_exp BSRFLOW_EXP_POLA=1
ab_variant polb bsr_bench_exp BSRFLOW_EXP_POLB=1
ab_skinny_cases f16
ab_run 3 base lane1 pola polb
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w3
grep -v "^rc=0 " $W/runs.txt | head
grep gain $W/summary.txt | awk '{print $1, $3, $5}' | paste - - -
