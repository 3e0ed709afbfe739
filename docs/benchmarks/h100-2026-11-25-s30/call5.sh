#!/bin/bash
# Session 30 calls 5 (H100) and 6 (H200): the row-major row-group crossings between calls 3-4's
# densities, one process per case, two rounds: 16 x 16 at 3 / 4.5%, 32 x 32 at 9 / 10.5%, each with
# the one-row and row-group variants named.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/w5; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
bench() {  # tag block density round [extra options]
  local tag=$1 block=$2 density=$3 round=$4; shift 4
  timeout 40 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block $block --density $density \
    --systems bsrflow_sm90,cublas_dense "$@" --json b_${tag}_r$round.json > /dev/null 2> b_${tag}_r$round.err
  echo "rc=$? $tag round $round (${SECONDS}s)" >> runs.txt
}
for round in 1 2; do
  for d in 0.03 0.045; do bench brow16_$d 16 $d $round --sm90-configs swath1024_swap,swath512_swap_g4,swath512_swap_g4x2; done
  for d in 0.09 0.105; do bench brow32_$d 32 $d $round --sm90-configs swath512_swap,swath256_swap_g4; done
done
python3 - > summary.txt <<'PY'
import json, glob, collections
rows = collections.defaultdict(list)
for f in sorted(glob.glob('b_*.json')):
    tag = f[2:-5].rsplit('_r', 1)[0]
    for r in json.load(open(f)):
        if r.get('ms') is None or r['system'] == 'cublas_dense': continue
        rows[(tag, r['system'], r.get('config', ''))].append(r['ms'])
for (tag, system, config), ms in sorted(rows.items()):
    print('%-14s %-34s %-46s %s' % (tag, system[:34], config[:46], ' '.join('%.4f' % x for x in ms)))
PY
cd /tmp && tar czf $OUT/results.tgz w5
grep -v "^rc=0" $W/runs.txt; cat $W/summary.txt
