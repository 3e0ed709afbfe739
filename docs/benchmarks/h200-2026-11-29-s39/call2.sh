#!/bin/bash
# Session 39 call 2 (H200). Binaries: a_main (1459e8f), b_exp (this tree: the skinny kernel's two
# producer loops merged into one, plus exp_spare_pairs.patch: BSRFLOW_EXP_SPARE_PAIRS=k plans the
# Hopper kernel on k CTA pairs fewer, leaving their SMs to the split fix-up from the start).
# Predictions: merged loops within 1% of a_main on every skinny case (the lane path's SASS has ~4
# more instructions a stage: a uniform branch); spare pairs at 128 power-law +0.5-2% with one or two
# pairs (entry 56: ~9 us of fix-up after the GEMM's last CTA of ~229 us), uniform -1.5% a pair.
# 1. `[skinny]` + memcheck / racecheck / synccheck on `[skinnysmall]` (b_exp's tests).
# 2. A/B, skinny: the suite's 16 f16 cases + 6 small-block cases, a_main / b_exp, two rounds.
# 3. A/B, 8192^3 12.5%: 128 power-law f16 / bf16, 64 power-law, 128 uniform; a_main, b_exp and
#    b_exp with 1 / 2 / 3 spare pairs, four rounds.
# 4. `[sm90][gpu]` with one spare pair (correctness of the planned grid), no sanitizers.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
TREE=$PWD
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w2; mkdir -p $W/skinny $W/sm90
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
ab_gpu_checks $W "[skinny]" "[skinnysmall]"
cd $W/skinny
AB_BIN_DIR=$C AB_BUDGET_S=200 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_skinny_cases f16
for n in 16 64; do
  for b in 16 16x32 32x16; do
    ab_case "m11008n${n}b${b}d25" --m 11008 --n $n --k 4096 --block $b --density 0.25
  done
done
ab_run 2 a_main b_exp
ab_summary > summary.txt
rm -f b_*.json
echo "skinny A/B done (${SECONDS}s)"
cd $W/sm90
AB_TAGS=(); AB_OPTS=()
AB_BIN_DIR=$C AB_BUDGET_S=400 AB_COMMON="--m 8192 --n 8192 --k 8192"
AB_SYSTEMS="--systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense"
for k in 1 2 3; do ab_variant c_spare$k b_exp BSRFLOW_EXP_SPARE_PAIRS=$k; done
ab_case pl128 --block 128 --density 0.125 --pattern powerlaw
ab_case bpl128 --block 128 --density 0.125 --pattern powerlaw --dtype bf16
ab_case pl64 --block 64 --density 0.125 --pattern powerlaw
ab_case u128 --block 128 --density 0.125
ab_run 4 a_main b_exp c_spare1 c_spare2 c_spare3
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "sm90 A/B done (${SECONDS}s)"
cd $TREE
BSRFLOW_EXP_SPARE_PAIRS=1 timeout 150 $C/bsrflow_tests "[sm90][gpu]" > $W/sm90_spare1_tests.log 2>&1
echo "[sm90][gpu] with one spare pair rc=$? (${SECONDS}s): $(tail -n 2 $W/sm90_spare1_tests.log | head -1)"
cd /tmp && tar czf $OUT/results.tgz w2
grep -hv "^rc=0 " $W/*/runs.txt | head
echo "wrong records: $(cat $W/*/summary.txt | grep -ci wrong)"
grep gain $W/skinny/summary.txt | awk '{print $1, $3, $5}' | paste - -
grep gain $W/sm90/summary.txt | grep -v "cublas\|probe" | awk '{print $1, $3, $5}' | paste - - - -
grep gain $W/sm90/summary.txt | grep "probe" | awk '{print $1, $3, $5}' | paste - - - -
