#!/bin/bash
# Session 35 call 1 (H200, no library change; a6492a7's binaries): what bounds the skinny kernel
# on the H200 (issue 4's N = 16 target: 0.8 of copy; the kernel reaches 0.33-0.49).
# 1. chain_probe (session 23's, docs/benchmarks/h100-2026-11-24-s23/chain_probe.cu, linked against
#    this build): a plain read of the same bytes, single and chained, on the H200 (only the H100's
#    was measured).
# 2. Row strips emulated: would cutting a 32- or 64-row block row into 16- / 32-row strips (whole
#    strips, no split-row sum) pay where the plan now splits rows along K? The same bytes of A as
#    R x C blocks with R = 16 / 32 (whole rows under the plan's rule) against the suite's blocks
#    (split rows), bsr_bench --systems bsrflow_skinny, two rounds.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w1; mkdir -p $W; cd $W
ab_device | tee device.txt
SECONDS=0
timeout 150 $R/chain_probe 8 > chain8.txt 2>&1; echo "chain_probe rc=$? (${SECONDS}s)"
AB_BIN_DIR=$C AB_BUDGET_S=420 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
for n in 16 64; do
  for d in 25 50; do
    for b in 32 16x32 64 32x64 16x64; do
      ab_case "n${n}d${d}b${b}" --m 4096 --n $n --k 11008 --density 0.$d --block $b
    done
  done
done
ab_run 2 bsr_bench
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
cd /tmp && tar czf $OUT/results.tgz w1
grep -v "^rc=0 " $W/runs.txt
cat $W/chain8.txt
cat $W/summary.txt
