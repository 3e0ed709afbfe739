#!/bin/bash
# Session 44 call 1 (H100): the H100's files of record with main's binaries (3c9a75e: the kernels of
# perf_log entries 54-65, none measured on an H100 before) - the standard suite as a burst (+ the
# PyTorch BSR peer), the skinny suite, chains of 8 skinny products over the 40 llm-suite shapes
# (chain_probe, s43's: whether the 85% rule for programmatic dependent launch, fitted on H200s,
# holds here), then the standard suite in the sustained regime with what is left of the call.
# Prediction: every record ok or unsupported; 12.5% uniform f16 of cuBLAS 0.175 / 0.284 / >= 0.49 /
# >= 0.73 at 16 / 32 / 64 / 128 (session 31's 0.175 / 0.284 / 0.485 / 0.721 plus entries 54-55's
# +1-3% at 64 and 128); PDL chains 0.90-1.00 of plain where the plan takes it, as on the H200s.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s44w1; rm -rf $W; mkdir -p $W; cd $W
ab_device > device.txt; cat device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
timeout 220 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> standard.err
echo "standard suite rc=$? (${SECONDS}s)" | tee -a runs.txt
timeout 60 python3 $R/torch_peer.py $GPU.json > torch_peer.log 2>&1; echo "torch_peer rc=$? (${SECONDS}s)" | tee -a runs.txt
timeout 120 $C/bsr_bench --suite skinny --json $GPU-skinny.json > skinny.md 2> skinny.err
echo "skinny suite rc=$? (${SECONDS}s)" | tee -a runs.txt
BSRFLOW_PROBE_SHAPES=wide timeout 120 $C/chain_probe 8 plain auto > chain8_wide.txt 2>&1
echo "chain_probe rc=$? (${SECONDS}s)" | tee -a runs.txt
left=$((560 - SECONDS))
[ $left -gt 60 ] && timeout $left $C/bsr_bench --suite standard --warmup-ms 200 --json sustained.json > sustained.md 2> sustained.err
echo "sustained suite rc=$? (${SECONDS}s, limit ${left}s)" | tee -a runs.txt
cd /tmp && tar czf $OUT/results.tgz s44w1
for f in $GPU sustained skinny; do echo "$f: ok $(grep -c '| ok' $W/$f.md) wrong $(grep -ci 'wrong' $W/$f.md)"; done
grep -E "^\| 8192\^3 (16x16|32x32|64x64|128x128) 12.5% (uniform|powerlaw) f16 +\| (bsrflow_sm90|bsrflow_sm90_copy_probe|cublas_dense) " $W/$GPU.md | cut -c1-150
echo "C differs: $(grep -c DIFFERS $W/chain8_wide.txt)"
grep -E "^[0-9]|auto:" $W/chain8_wide.txt | sed 's/ *plain read.*(/ (/' | cut -c1-120 | head -60
