#!/bin/bash
# Session 28 calls 5 (H100) and 6 (H200): the standard suite (burst) and the PyTorch peer for
# docs/benchmarks/<gpu>.* on 3479bdb (perf_log entry 50), then the row-group density check: the planner's
# plan against the row-group plan at 16 x 16 6.25% / 9% and 32 x 32 12.5% / 18.75%.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=/tmp/carry; mkdir -p $C; gunzip -c $R/bsr_bench.gz > $C/bsr_bench; chmod +x $C/bsr_bench
W=/tmp/w5; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
timeout 300 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "standard (burst) rc=$? (${SECONDS}s)" >> summary.txt
timeout 100 python3 $R/torch_peer.py $GPU.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> summary.txt
for c in "16 0.0625 swath512_swap_g4" "16 0.09 swath512_swap_g4" "32 0.125 swath256_swap_g4" "32 0.1875 swath256_swap_g4"; do
  set -- $c
  timeout 60 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block $1 --density $2 --systems bsrflow_sm90,cublas_dense \
    --sm90-configs $3 --json d$1_$2.json > /dev/null 2> d$1_$2.err
  echo "rc=$? density b$1 $2 (${SECONDS}s)" >> summary.txt
done
python3 $R/summ_tables.py $GPU.json >> summary.txt 2>&1
python3 - >> summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('d*.json')):
    for r in json.load(open(f)):
        if r.get('ms') is not None and r['system'] != 'cublas_dense':
            print('%-12s %-26s %-46s %8.4f ms %7.1f TF' % (f[:-5], r['system'][:26], r.get('config', ''), r['ms'], r['eff_tflops']))
PY
cd /tmp && tar czf $OUT/results.tgz w5
cat $W/summary.txt
