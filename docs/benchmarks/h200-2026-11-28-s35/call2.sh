#!/bin/bash
# Session 35 call 2 (H200): the skinny kernel's split rows take their ticket before writing (the
# last piece keeps its tile in shared memory: no partial write, no MEMBAR before its ticket).
# 1. `[skinny]` GPU tests and memcheck / racecheck / synccheck on `[skinnysmall]` with the change.
# 2. A/B: the 16 f16 cases of the skinny suite, main (a6492a7) against the change, one process per
#    case, alternated, three rounds, --systems bsrflow_skinny.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w2; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
BSRFLOW_GPU_BIN=/tmp/carry BSRFLOW_GPU_BENCH=0 BSRFLOW_GPU_TAR=0 BSRFLOW_GPU_SANITIZE_TAGS="[skinnysmall]" \
  OUT=$W/checks timeout 280 bash tests/gpu_machine.sh run "[skinny]" > $W/checks.log 2>&1
echo "checks rc=$? (${SECONDS}s)"; tail -15 $W/checks.log
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=540 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
for n in 16 64; do
  for mk in "4096 11008" "11008 4096"; do
    set -- $mk
    for b in 32 64; do
      for d in 25 50; do
        ab_case "m$1n${n}b${b}d${d}" --m $1 --n $n --k $2 --block $b --density 0.$d
      done
    done
  done
done
ab_run 3 bsr_bench_main bsr_bench
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
cd /tmp && tar czf $OUT/results.tgz w2
grep -v "^rc=0 " $W/runs.txt
grep gain $W/summary.txt
