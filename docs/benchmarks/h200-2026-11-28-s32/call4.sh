#!/bin/bash
# Session 32 call 4 (H200): with the held output and 64-deep chunks at 128 (this tree), does a
# shallower chunk now pay for 64 x 64 rows that keep swath 256 (power-law), as 64-deep did at 128?
# bsr_bench 8192^3 12.5%, the tuned plan plus named variants, two rounds: 64 x 64 power-law and
# uniform (f16), 64 x 64 power-law bf16, 128 x 128 power-law.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/w4; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
bench() {  # tag block pattern round [more bsr_bench options]
  local tag=$1 block=$2 pattern=$3 round=$4; shift 4
  timeout 90 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block $block --density 0.125 --pattern $pattern \
    --systems bsrflow_sm90,bsrflow_sm90_copy_probe "$@" --json b_${tag}_r$round.json > /dev/null 2> b_${tag}_r$round.err
  echo "rc=$? $tag round $round (${SECONDS}s)" >> runs.txt
}
V64="--sm90-configs swath256_direct,swath256_direct_kc32,swath256_direct_kc16,swath512_direct_kc32"
for round in 1 2; do
  bench pl64 64 powerlaw $round $V64; bench u64 64 uniform $round $V64
  bench pl64bf 64 powerlaw $round --dtype bf16 $V64
  bench pl128 128 powerlaw $round --sm90-configs swath256_direct,swath256_direct_kc32,swath128_direct
done
python3 - > summary.txt <<'PY'
import json, glob, collections
rows = collections.defaultdict(list)
for f in sorted(glob.glob('b_*.json')):
    tag = f[2:-5].rsplit('_r', 1)[0]
    for r in json.load(open(f)):
        if r.get('ms') is None: continue
        name = r['system'] if r['system'] in ('bsrflow_sm90', 'bsrflow_sm90_copy_probe') else r.get('config', '')
        rows[(tag, name[:44])].append((r['ms'], r.get('status', ''), r.get('config', '')))
for (tag, system), v in sorted(rows.items()):
    print('%-7s %-44s %s %s %s' % (tag, system, ' '.join('%.4f' % x[0] for x in v),
                                   ','.join(sorted(set(x[1] for x in v))), v[0][2][:46]))
PY
cd /tmp && tar czf $OUT/results.tgz w4
grep -v "^rc=0 " $W/runs.txt
cat $W/summary.txt
