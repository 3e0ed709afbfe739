#!/bin/bash
# Session 38 call 8 (H200): call 7's finer pieces lost 0-50%. A narrower cut: where whole rows are
# fewer than a wave but more than the SMs (11008 x 64 x 4096, 64 x 64: 172 rows, 2 CTAs per SM, so
# 40 SMs hold two rows and 92 one - call 6: their main loops end 19.5 / 15.5 us), the shortest
# (wave - rows) rows are cut in two so that every SM gets the same number of CTAs (172 -> 264:
# SMs get 1.5 or 1 rows instead of 2 or 1). Experiment binary = the landed tree +
# patches/exp_fill.patch (BSRFLOW_EXP_FILL=1). Two rounds; fill against the landed binary.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w8; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=200 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_variant f0 bsr_bench_fill
ab_variant f1 bsr_bench_fill BSRFLOW_EXP_FILL=1
for b in 32 64; do
  for d in 25 50; do
    ab_case "m11008n64b${b}d$d" --m 11008 --n 64 --k 4096 --block $b --density 0.$d
    ab_case "m11008n16b${b}d$d" --m 11008 --n 16 --k 4096 --block $b --density 0.$d
  done
done
ab_run 3 bsr_bench f0 f1
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w8
grep -v "^rc=0 " $W/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/summary.txt)"
grep gain $W/summary.txt | awk '{print $1, $3, $5}' | paste - -
