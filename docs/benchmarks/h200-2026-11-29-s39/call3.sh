#!/bin/bash
# Session 39 call 3 (H200). Binaries: a_main (d819836), b_afirst (this tree: the skinny producer
# issues a stage's A boxes before anything reads the stage's block columns - its stages two at a
# time, each with its own column register, so no register copy waits on a column's load; the
# landed loop's rotating pair made ptxas copy both registers before the A boxes).
# Prediction: the first ring's A leaves ~0.5 us earlier (one DRAM latency of the column loads,
# s38 call 6 timers: first issue 1.25 us, barrier 0.67 us); the stream is DRAM-bound at N = 16,
# so +1-4% there, 0-2% at N = 64, nothing slower beyond 1%.
# 1. `[skinny]` + memcheck / racecheck / synccheck on `[skinnysmall]`; `[core][gpu],[apps][gpu]`.
# 2. A/B: the skinny suite's 16 f16 cases + 6 small-block cases, a_main / b_afirst, three rounds.
# 3. Both suites with b_afirst (standard + PyTorch peer, skinny), for docs/benchmarks if it lands.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s39w3; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
ab_gpu_checks $W "[skinny]" "[skinnysmall]"
timeout 150 $C/bsrflow_tests "[core][gpu],[apps][gpu]" > $W/tests.log 2>&1
echo "rc=$? core / apps GPU tests (${SECONDS}s): $(tail -n 3 $W/tests.log | grep -E 'passed|failed' | tr -s ' ')" | tee -a $W/runs.txt
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=260 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_skinny_cases f16
for n in 16 64; do
  for b in 16 16x32 32x16; do
    ab_case "m11008n${n}b${b}d25" --m 11008 --n $n --k 4096 --block $b --density 0.25
  done
done
ab_run 3 a_main b_afirst
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd $W
GPU=nvidia-h200
timeout 170 $C/b_afirst --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "standard suite rc=$? (${SECONDS}s)" | tee -a runs.txt
timeout 60 python3 $R/torch_peer.py $GPU.json > torch_peer.log 2>&1; echo "torch_peer rc=$? (${SECONDS}s)" | tee -a runs.txt
timeout 120 $C/b_afirst --suite skinny --json $GPU-skinny.json > skinny_suite.md 2> skinny_suite.err
echo "skinny suite rc=$? (${SECONDS}s)" | tee -a runs.txt
cd /tmp && tar czf $OUT/results.tgz s39w3
grep -v "^rc=0 " $W/ab/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/ab/summary.txt)"
grep gain $W/ab/summary.txt | awk '{print $1, $3, $5}' | paste - -
