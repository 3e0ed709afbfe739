#!/bin/bash
# Session 37 call 4 (H200): the skinny kernel's operands as 128-byte TMA rows
# (patches/exp_packed_rows.patch on 9b08f2e; BSRFLOW_EXP_PACK = a / b / ab): A's blocks where their
# rows are 32 / 64 bytes (C = 16 / 32), B's slices where B is packed (ld == width 16 / 32), both
# landing with the 128-byte swizzle. Fewer, whole-line TMA requests: 32 x 32 at N = 16 moves a
# block in 16 + 8 rows instead of 32 + 32.
# 1. `[skinny]` GPU tests with BSRFLOW_EXP_PACK=ab (exact against the reference kernel); memcheck
#    and racecheck on `[skinnysmall]` with it.
# 2. A/B, two rounds, the skinny suite's 16 f16 cases: base / a / b / ab (one binary).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w4; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
BSRFLOW_EXP_PACK=ab timeout 150 $C/bsrflow_tests "[skinny]" > $W/tests_ab.log 2>&1
echo "rc=$? [skinny] with PACK=ab (${SECONDS}s): $(tail -n 3 $W/tests_ab.log | grep -E 'passed|failed' | tr -s ' ')"
grep -B3 -A12 "FAILED" $W/tests_ab.log | head -40
for tool in memcheck racecheck; do
  BSRFLOW_EXP_PACK=ab timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "[skinnysmall]" > $W/san_$tool.log 2>&1
  echo "rc=$? $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$tool.log | tail -1)"
done
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=480 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_variant base bsr_bench
ab_variant a bsr_bench BSRFLOW_EXP_PACK=a
ab_variant b bsr_bench BSRFLOW_EXP_PACK=b
ab_variant ab bsr_bench BSRFLOW_EXP_PACK=ab
ab_skinny_cases f16
ab_run 2 base a b ab
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w4
grep -v "^rc=0 " $W/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/summary.txt)"
grep gain $W/summary.txt | awk '{print $1, $3, $5}' | paste - - -
