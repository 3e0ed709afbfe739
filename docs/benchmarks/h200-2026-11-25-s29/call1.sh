#!/bin/bash
# Session 29 call 1 (H200): two row-group items per stage as the H200's tuned form (perf_log entry 51).
# bsr_bench 8192^3 16 x 16: the planner's plan, its probe, and the named one-row / one-item / two-item
# variants in one process, alternated over three rounds (uniform 12.5%, power-law 12.5%, bf16 12.5%,
# uniform 6.25% / 9% for the density rule); then the standard suite and the PyTorch peer for
# docs/benchmarks/nvidia-h200.*; the device_info test (the memory bandwidth the rule reads).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=/tmp/carry; mkdir -p $C; for f in bsrflow_tests bsr_bench; do gunzip -c $R/$f.gz > $C/$f; chmod +x $C/$f; done
W=/tmp/w1; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
nvidia-smi --query-gpu=name,clocks.max.memory,memory.total --format=csv >> device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
$C/bsrflow_tests "device_info reports the GPU's resources" -s > device_info.log 2>&1
echo "rc=$? device_info test: $(grep -m1 'memory bandwidth' device_info.log)" >> runs.txt
bench() {  # tag density pattern dtype round
  timeout 60 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block 16 --density $2 --pattern $3 --dtype $4 \
    --systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense --sm90-configs swath512_swap,swath512_swap_g4,swath512_swap_g4x2 \
    --json b_$1_r$5.json > /dev/null 2> b_$1_r$5.err
  echo "rc=$? $1 round $5 (${SECONDS}s)" >> runs.txt
}
for round in 1 2 3; do
  bench u125 0.125 uniform f16 $round; bench pl125 0.125 powerlaw f16 $round; bench bf125 0.125 uniform bf16 $round
  [ $round -le 2 ] && { bench u0625 0.0625 uniform f16 $round; bench u09 0.09 uniform f16 $round; }
done
timeout 300 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "standard (burst) rc=$? (${SECONDS}s)" >> runs.txt
timeout 100 python3 $R/torch_peer.py $GPU.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> runs.txt
python3 - > summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('b_*.json')):
    rs = json.load(open(f))
    cu = [r['eff_tflops'] for r in rs if r.get('system') == 'cublas_dense' and r.get('eff_tflops')]
    cu = cu[0] if cu else float('nan')
    for r in rs:
        if r.get('ms') is None or r['system'] == 'cublas_dense': continue
        print('%-12s %-34s %-46s %8.4f ms %.3f of cuBLAS' % (f[2:-5], r['system'][:34], r.get('config', '')[:46], r['ms'], r['eff_tflops'] / cu))
PY
cd /tmp && tar czf $OUT/results.tgz w1
cat $W/runs.txt; cat $W/summary.txt; grep -E "^\| *16|ratio|min" $W/$GPU.md | head -20
