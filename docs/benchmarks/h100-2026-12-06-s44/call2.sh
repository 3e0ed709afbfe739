#!/bin/bash
# Session 44 call 2 (H100): every GPU test but the soak with this session's binaries (main's library
# code, 3c9a75e, whose GPU tests last ran on H200s; bsr_bench with --chain and its GPU test), the
# skinny suite as chains of 8 products (--chain 8: the decode-step regime in bsr_bench's own
# records), then compute-sanitizer memcheck on tests/gpu_machine.sh's default set with what is left.
# Prediction: tests pass; chains per product 0.85-0.95 of the single launches' time for the skinny
# kernel (chain_probe in call 1: 0.84-0.95), memcheck clean.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s44w2; rm -rf $W; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
timeout 300 $C/bsrflow_tests "[gpu]~[soak]" --durations yes > $W/gpu_tests.log 2>&1
echo "[gpu]~[soak] rc=$? $(tail -2 $W/gpu_tests.log | head -1) (${SECONDS}s)" | tee -a $W/runs.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
(cd $W && timeout 110 $C/bsr_bench --suite skinny --chain 8 --json $GPU-skinny-chain8.json > skinny_chain8.md 2> skinny_chain8.err)
echo "skinny --chain 8 rc=$? (${SECONDS}s)" | tee -a $W/runs.txt
left=$((570 - SECONDS))
timeout $left compute-sanitizer --tool memcheck --error-exitcode 99 $C/bsrflow_tests \
  '[gpu]~[sm90]~[apps]~[soak]~[provokes-api-errors],[sm90small]' > $W/sanitize_memcheck.log 2>&1
echo "memcheck rc=$? (${SECONDS}s, limit ${left}s): $(grep -E 'ERROR SUMMARY' $W/sanitize_memcheck.log | tail -1)" | tee -a $W/runs.txt
cd /tmp && gzip -9 $W/gpu_tests.log $W/sanitize_memcheck.log && tar czf $OUT/results.tgz s44w2
grep -E "FAILED|failed" -A8 <(zcat $W/gpu_tests.log.gz) | head -40
echo "chain records: ok $(grep -c '| ok' $W/skinny_chain8.md) wrong $(grep -c 'WRONG (' $W/skinny_chain8.md)"
grep -E "\| bsrflow_skinny " $W/skinny_chain8.md | cut -c1-200 | head -16
