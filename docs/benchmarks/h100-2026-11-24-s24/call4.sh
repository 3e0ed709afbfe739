#!/bin/bash
# Session 24 call 4 (H200): the heuristic (64 x 64 at swath 512 for near-equal rows) against the
# old configuration (--sm90-configs swath256_direct) in the same process, two rounds, then the
# [sm90] tests of the new choice, the standard suite + PyTorch peer for docs/benchmarks/<gpu>.*
# (binary of call 3: f95f494 + the unset throw-away switch).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
for i in 1 2; do
  for cs in "uniform 0.125 f16" "powerlaw 0.125 f16" "uniform 0.5 f16" "uniform 0.125 bf16"; do
    set -- $cs
    timeout 100 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block 64 --density $2 --pattern $1 --dtype $3 \
      --systems bsrflow_sm90,bsrflow_sm90_copy_probe --sm90-configs swath256_direct --json r${i}_$1_$2_$3.json > /dev/null 2> r${i}_$1_$2_$3.err
    echo "rc=$? r$i $1 $2 $3 (${SECONDS}s)" >> runs.txt
  done
done
python3 - >> summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('r*_*.json')):
    recs = json.load(open(f))
    s = {r['system']: r for r in recs if r.get('status') in ('ok', 'probe')}
    k = s.get('bsrflow_sm90'); p = s.get('bsrflow_sm90_copy_probe')
    o = [r for n, r in s.items() if n.startswith('bsr_sm90_')]
    o = o[0] if o else None
    print('%-28s new %s %.4f ms %.0f TF (probe %.0f) | old %s %.4f ms %.0f TF | new/old %.3f' % (
        f[:-5], k['config'], k['ms'], k['eff_tflops'], p['eff_tflops'] if p else 0,
        o['config'] if o else '-', o['ms'] if o else 0, o['eff_tflops'] if o else 0,
        k['eff_tflops'] / o['eff_tflops'] if o else 0))
PY
timeout 60 $C/bsrflow_tests "sm90 GEMM: 64-row blocks take the 512-wide swath on near-equal rows only" > t_wide.log 2>&1
echo "wide-swath test rc=$? $(tail -3 t_wide.log | grep -E 'passed|failed') (${SECONDS}s)" >> summary.txt
timeout 250 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "standard (burst) rc=$? (${SECONDS}s)" >> summary.txt
timeout 100 python3 $C/torch_peer.py $GPU.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> summary.txt
python3 $C/summ.py $GPU.json >> summary.txt 2>&1
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt; grep -v "rc=0" $W/runs.txt | head
