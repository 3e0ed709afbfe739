#!/bin/bash
# Session 34 call 3 (H200): the last group's piece list at 100 / 75 / 60% of the tail limit (the
# call-2 binary: this tree + patches/exp_env_switches.patch) on more 128 x 128 power-law shapes:
# is 8192^3 12.5% (75%: -0.7 / -0.8% in calls 1-2) the exception or the rule? Three alternated
# rounds (tests/ab_bench.sh), the plan only.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
for v in "p100 100" "p75 75" "p60 60"; do
  set -- $v
  printf '#!/bin/sh\nBSRFLOW_EXP_FINAL_PERCENT=%s exec %s/bsr_bench_exp "$@"\n' $2 $C > $C/$1
  chmod +x $C/$1
done
source tests/ab_bench.sh
W=/tmp/w3; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
nvidia-smi --query-gpu=uuid,name,clocks.max.sm,power.limit --format=csv >> device.txt
SECONDS=0
P="--block 128 --pattern powerlaw"
AB_BIN_DIR=$C AB_BUDGET_S=400 AB_SYSTEMS="--systems bsrflow_sm90" AB_COMMON=""
ab_case pl128 --m 8192 --n 8192 --k 8192 --density 0.125 $P
ab_case pl128d6 --m 8192 --n 8192 --k 8192 --density 0.0625 $P
ab_case pl128n16k --m 8192 --n 16384 --k 8192 --density 0.125 $P
ab_case pl128m16k --m 16384 --n 8192 --k 8192 --density 0.125 $P
ab_case pl128k16k --m 8192 --n 8192 --k 16384 --density 0.125 $P
ab_case pl128n2k --m 8192 --n 2048 --k 8192 --density 0.125 $P
ab_case pl128s16k --m 16384 --n 16384 --k 16384 --density 0.125 $P
ab_case pl128s12k --m 12288 --n 12288 --k 12288 --density 0.125 $P
ab_run 3 p100 p75 p60
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
cd /tmp && tar czf $OUT/results.tgz w3
grep -v "^rc=0 " $W/runs.txt
grep gain $W/summary.txt
