#!/bin/bash
# Session 34 call 6 (H200): why the in-kernel split sums (call 5) ran slower than main's fix-up
# kernel (128 power-law -1.4%, 64 -2.2%). One binary (call 5's tree +
# patches/exp_reduce_switches.patch: BSRFLOW_EXP_REDUCE=from_start,busy_ns,idle_ns - whether the
# producer warpgroup's idle warps sum from the start, and the poll sleep caps of waiting warps
# beside the main loops / after their list). Wrappers: r1 = call 5's (1,2048,256); r2 = fewer
# polls (1,8192,1024); r3 = no sums beside the main loops (0,-,256); r4 = (1,8192,256). Against
# main (05291a0), three alternated rounds, the plan only.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
for v in "r1 1,2048,256" "r2 1,8192,1024" "r3 0,0,256" "r4 1,8192,256"; do
  set -- $v
  printf '#!/bin/sh\nBSRFLOW_EXP_REDUCE=%s exec %s/bsr_bench_exp "$@"\n' $2 $C > $C/$1
  chmod +x $C/$1
done
source tests/ab_bench.sh
W=/tmp/w6; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
nvidia-smi --query-gpu=uuid,name,clocks.max.sm,power.limit --format=csv >> device.txt
SECONDS=0
AB_BIN_DIR=$C AB_BUDGET_S=300 AB_SYSTEMS="--systems bsrflow_sm90"
ab_case pl128 --block 128 --density 0.125 --pattern powerlaw
ab_case pl64 --block 64 --density 0.125 --pattern powerlaw
ab_run 3 bsr_bench_main r1 r2 r3 r4
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
cd /tmp && tar czf $OUT/results.tgz w6
grep -v "^rc=0 " $W/runs.txt
cat $W/summary.txt
