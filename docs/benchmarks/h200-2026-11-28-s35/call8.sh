#!/bin/bash
# Session 35 call 8 (H200, diagnosis): what the skinny kernel's loads cost at N = 16 on the H200
# (entry 41's switches were measured on an H100). Experiment binary = 140b171 +
# patches/exp_skip_loads.patch: BSRFLOW_EXP_SKIP=1 issues no B slices, 2 no A boxes (the stage's
# expected bytes follow; results wrong, so BSRFLOW_EXP_NOCHECK skips bsr_bench's check). The 8 N = 16
# f16 suite cases (old single-lane producer), two rounds; chain_probe's plain read on the same unit.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w8; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
timeout 60 $R/chain_probe 8 > $W/chain8.txt 2>&1; echo "chain_probe rc=$?"
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=300 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_variant loads bsr_bench
ab_variant noB bsr_bench BSRFLOW_EXP_SKIP=1 BSRFLOW_EXP_NOCHECK=1
ab_variant noA bsr_bench BSRFLOW_EXP_SKIP=2 BSRFLOW_EXP_NOCHECK=1
for mk in "4096 11008" "11008 4096"; do
  set -- $mk
  for b in 32 64; do
    for d in 25 50; do
      ab_case "m$1b${b}d${d}" --m $1 --n 16 --k $2 --block $b --density 0.$d
    done
  done
done
ab_run 2 loads noB noA
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
cd /tmp && tar czf $OUT/results.tgz w8
grep -v "^rc=0 " $W/runs.txt
grep "plain read" $W/chain8.txt
grep -v gain $W/summary.txt | awk '{print $1, $3, $4, $5}'
