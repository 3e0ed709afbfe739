#!/bin/bash
# Session 43 call 1 (H200): the standard suite twice on one unit, on main (35b51aa; library code of
# 7dfa60d) - as a burst (the file of record's regime) and in the sustained regime (--warmup-ms 200:
# each series first runs its own load for 200 ms, so the GPU sits at its power cap). The sustained
# figures in nvidia-h200.md are session 23's, from older kernels; issue 4 leaves the regime open.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/s43w1; rm -rf $W; mkdir -p $W
cd $W
nvidia-smi -L > device.txt; nvidia-smi --query-gpu=uuid,name,clocks.max.sm,power.limit --format=csv >> device.txt; cat device.txt
SECONDS=0
timeout 200 $C/bsr_bench --suite standard --json burst.json --csv burst.csv > burst.md 2> burst.err
echo "burst suite rc=$? (${SECONDS}s)" | tee -a runs.txt
timeout 330 $C/bsr_bench --suite standard --warmup-ms 200 --json sustained.json --csv sustained.csv > sustained.md 2> sustained.err
echo "sustained suite rc=$? (${SECONDS}s)" | tee -a runs.txt
cd /tmp && tar czf $OUT/results.tgz s43w1
for f in burst sustained; do echo "$f: ok $(grep -c '| ok' $W/$f.md) wrong $(grep -ci 'wrong' $W/$f.md)"; done
