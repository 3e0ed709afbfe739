#!/bin/bash
# Session 34 call 2 (H200): sweep of the last group's piece list and of the fix-up's poll sleep,
# one binary (this tree + patches/exp_env_switches.patch: BSRFLOW_EXP_FINAL_PERCENT overrides
# tail_final_percent(R), BSRFLOW_EXP_SLEEP_NS the fix-up's __nanosleep between polls, 200 ns).
# Wrappers p<percent>[s<sleep>] set them; three alternated rounds (tests/ab_bench.sh), the plan
# only. Call 1 measured 75% against main: 128 power-law 8192^3 12.5% -0.8% (its probe +1.0%),
# 25% +2.1%, 4096^3 +1.8% / +4.8%. Question: does a percentage or a longer sleep (fewer polls
# hammering one L2 line while the GEMM's last tiles run) win on all four?
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
for v in "p100 100 200" "p85 85 200" "p75 75 200" "p60 60 200" "p100s2k 100 2000" "p75s2k 75 2000"; do
  set -- $v
  printf '#!/bin/sh\nBSRFLOW_EXP_FINAL_PERCENT=%s BSRFLOW_EXP_SLEEP_NS=%s exec %s/bsr_bench_exp "$@"\n' $2 $3 $C > $C/$1
  chmod +x $C/$1
done
source tests/ab_bench.sh
W=/tmp/w2; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
nvidia-smi --query-gpu=uuid,name,clocks.max.sm,power.limit --format=csv >> device.txt
SECONDS=0
AB_BIN_DIR=$C AB_BUDGET_S=420 AB_SYSTEMS="--systems bsrflow_sm90"
ab_case pl128 --block 128 --density 0.125 --pattern powerlaw
ab_case pl128d25 --block 128 --density 0.25 --pattern powerlaw
ab_run 3 p100 p85 p75 p60 p100s2k p75s2k
ALL_TAGS=("${AB_TAGS[@]}")
AB_TAGS=()
AB_COMMON="--m 4096 --n 4096 --k 4096"
ab_case s4pl128 --block 128 --density 0.125 --pattern powerlaw
ab_case s4pl128d25 --block 128 --density 0.25 --pattern powerlaw
ab_run 3 p100 p85 p75 p60 p100s2k p75s2k
AB_TAGS=("${ALL_TAGS[@]}" "${AB_TAGS[@]}")
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
cd /tmp && tar czf $OUT/results.tgz w2
grep -v "^rc=0 " $W/runs.txt
grep gain $W/summary.txt
