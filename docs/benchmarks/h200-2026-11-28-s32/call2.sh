#!/bin/bash
# Session 32 call 2 (H200): with the held output (call 1's tree), 32- against 64-deep chunks at
# 128 x 128 in CTA pairs (tuning_sm90.hpp tuned_k_chunk; entry 19 chose 32, entry 29 saw 64 ahead
# in 5 of 10 calls). bsr_bench 8192^3, the tuned plan plus both k-chunks named, two rounds:
# uniform 12.5% f16 / bf16, power-law 12.5%, 50% and 3% uniform, and 12.5% with column-major B
# (64-deep K-major boxes; ran faster than row-major B in call 1's suite).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/w2; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
bench() {  # tag density pattern round [more bsr_bench options]
  local tag=$1 density=$2 pattern=$3 round=$4; shift 4
  [ $SECONDS -gt 400 ] && { echo "skipped $tag round $round (${SECONDS}s)" >> runs.txt; return; }
  timeout 60 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block 128 --density $density --pattern $pattern \
    --systems bsrflow_sm90,bsrflow_sm90_copy_probe "$@" --json b_${tag}_r$round.json > /dev/null 2> b_${tag}_r$round.err
  echo "rc=$? $tag round $round (${SECONDS}s)" >> runs.txt
}
KC="--sm90-configs swath256_direct_kc64,swath256_direct_kc32"
for round in 1 2; do
  bench u128 0.125 uniform $round $KC; bench bf128 0.125 uniform $round --dtype bf16 $KC
  bench pl128 0.125 powerlaw $round $KC; bench d50x128 0.5 uniform $round $KC
  bench d3x128 0.03125 uniform $round $KC; bench bcol128 0.125 uniform $round --b-layout col
done
python3 - > summary.txt <<'PY'
import json, glob, collections
rows = collections.defaultdict(list)
for f in sorted(glob.glob('b_*.json')):
    tag = f[2:-5].rsplit('_r', 1)[0]
    for r in json.load(open(f)):
        if r.get('ms') is None: continue
        rows[(tag, r['system'])].append((r['ms'], r.get('status', ''), r.get('config', '')))
for (tag, system), v in sorted(rows.items()):
    print('%-8s %-34s %s %s %s' % (tag, system[:34], ' '.join('%.4f' % x[0] for x in v),
                                   ','.join(sorted(set(x[1] for x in v))), v[0][2][:48]))
PY
cd /tmp && tar czf $OUT/results.tgz w2
cat $W/runs.txt | grep -v "^rc=0 "
cat $W/summary.txt
