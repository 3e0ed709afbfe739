#!/bin/bash
# Session 25 call 2 (H100) / 3 (H200): 64 x 64 blocks whose rows are not near-equal keep swath
# 256; which k-chunk should they take? main's heuristic (64-deep chunks, 4 stages) against 32-
# and 16-deep chunks (8 stages) in one process, three rounds; power-law rows (two seeds, f16 and
# bf16) and the clustered pattern; the banded pattern for the plan it gets.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
B="--m 8192 --n 8192 --k 8192 --block 64 --density 0.125 --systems bsrflow_sm90,bsrflow_sm90_copy_probe"
V="--sm90-configs swath256_direct,swath256_direct_kc32,swath256_direct_kc16"
for i in 1 2 3; do
  for cs in "powerlaw f16 1" "powerlaw bf16 1" "powerlaw f16 2" "clustered f16 1" "banded f16 1" "uniform f16 1"; do
    set -- $cs
    timeout 100 $C/bsr_bench $B --pattern $1 --dtype $2 --seed $3 $V --json r${i}_$1_$2_s$3.json > /dev/null 2> r${i}_$1_$2_s$3.err
    echo "rc=$? r$i $1 $2 s$3 (${SECONDS}s)" >> runs.txt
  done
done
python3 - >> summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('r*_*.json')):
    s = {r['system']: r for r in json.load(open(f)) if r.get('status') in ('ok', 'probe')}
    k = s['bsrflow_sm90']
    line = '%-26s tuned %-44s %5.1f TF' % (f[:-5], k['config'], k['eff_tflops'])
    for n in sorted(s):
        if 'swath256' in n:
            line += ' | %s %5.1f (%.3f)' % (n.replace('bsrflow_sm90_', ''), s[n]['eff_tflops'], s[n]['eff_tflops'] / k['eff_tflops'])
    print(line)
PY
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt; grep -v "rc=0" $W/runs.txt | head
