#!/bin/bash
# Session 24 call 3 (H100) / 4 (H200): (1) 64 x 64 power-law rows at swath 512 with the split
# fraction at 2 (main), 1 and 4 (throw-away switch BSRFLOW_EXP_SPLITF, patches/exp_splitf.patch),
# against the heuristic (swath 256 for these rows), two rounds; (2) the [apps][gpu] tests and the
# standard suite + PyTorch peer for docs/benchmarks/<gpu>.* (switch unset: f95f494's behaviour).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
for i in 1 2; do
  for f in main 1 4; do
    env=""; [ $f != main ] && env="BSRFLOW_EXP_SPLITF=$f"
    env $env timeout 100 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block 64 --pattern powerlaw \
      --systems bsrflow_sm90 --sm90-configs swath512_direct_kc32 --json pl_${i}_$f.json > /dev/null 2> pl_${i}_$f.err
    echo "rc=$? pl $i $f (${SECONDS}s)" >> runs.txt
  done
done
python3 - >> summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('pl_*.json')):
    recs = [r for r in json.load(open(f)) if r.get('status') == 'ok']
    print(f[:-5], ' | '.join('%s %.4f ms %.0f TF' % (r['config'], r['ms'], r['eff_tflops']) for r in recs))
PY
timeout 150 $C/bsrflow_tests "[apps][gpu]" > apps_gpu.log 2>&1
echo "apps gpu tests rc=$? $(tail -3 apps_gpu.log | grep -E 'passed|failed') (${SECONDS}s)" >> summary.txt
timeout 250 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "standard (burst) rc=$? (${SECONDS}s)" >> summary.txt
timeout 100 python3 $C/torch_peer.py $GPU.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> summary.txt
python3 $C/summ.py $GPU.json >> summary.txt 2>&1
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt; grep -v "rc=0" $W/runs.txt | head
