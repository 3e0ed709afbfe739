#!/bin/bash
# Session 34 call 7 (H200): L2 policies on the direct kernels' TMA stores. Call 4 showed main's
# fix-up summing most split rows after the GEMM's last CTA at DRAM speed (~25 MB in ~9 us), and
# call 6 that this end phase's throughput is what matters. One binary (main +
# patches/exp_store_hints.patch: BSRFLOW_EXP_HINTS=c,partial, 0 none / 1 evict-first / 2
# evict-last on C's and on the partial tiles' TMA stores): h00 (as main), h02 (partial tiles kept:
# the fix-up reads them from L2), h10 (C streamed out first: B and the partials stay), h12 (both).
# Prediction: h02 / h12 128 power-law +1-3% (end phase from L2), 64 power-law +0-1%; h10 uniform
# 0-1%. Against main (05291a0), three alternated rounds, the plan only.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
for v in "h00 0,0" "h02 0,2" "h10 1,0" "h12 1,2"; do
  set -- $v
  printf '#!/bin/sh\nBSRFLOW_EXP_HINTS=%s exec %s/bsr_bench_exp "$@"\n' $2 $C > $C/$1
  chmod +x $C/$1
done
source tests/ab_bench.sh
W=/tmp/w7; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
nvidia-smi --query-gpu=uuid,name,clocks.max.sm,power.limit --format=csv >> device.txt
SECONDS=0
AB_BIN_DIR=$C AB_BUDGET_S=400 AB_SYSTEMS="--systems bsrflow_sm90"
ab_case pl128 --block 128 --density 0.125 --pattern powerlaw
ab_case pl64 --block 64 --density 0.125 --pattern powerlaw
ab_case u128 --block 128 --density 0.125
ab_case u64 --block 64 --density 0.125
ab_run 3 bsr_bench_main h00 h02 h10 h12
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
cd /tmp && tar czf $OUT/results.tgz w7
grep -v "^rc=0 " $W/runs.txt
grep gain $W/summary.txt
