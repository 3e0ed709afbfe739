#!/bin/bash
# Session 32 call 3 (H200): the final tree (held output + 64-deep chunks at R = 128, perf_log
# entry 54) against main (9720a98).
# 1. bsr_bench 8192^3, 128 x 128, three alternated rounds, each binary with its tuned plan plus
#    both k-chunks named (swath256_direct = 64-deep, swath256_direct_kc32): uniform 12.5% f16 /
#    bf16, power-law 12.5%, 50% and 3% uniform; the plan's probe; bsr_bench checks each result.
# 2. [sm90],[rowgroup] GPU tests; memcheck / racecheck / synccheck on [sm90small].
# 3. The standard suite and the PyTorch peer with this tree (docs/benchmarks/<gpu>.*).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/w3; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
bench() {  # binary tag density pattern round [more bsr_bench options]
  local bin=$1 tag=$2 density=$3 pattern=$4 round=$5; shift 5
  [ $SECONDS -gt 200 ] && { echo "skipped $tag $bin round $round (${SECONDS}s)" >> runs.txt; return; }
  timeout 60 $C/$bin --m 8192 --n 8192 --k 8192 --block 128 --density $density --pattern $pattern \
    --systems bsrflow_sm90,bsrflow_sm90_copy_probe --sm90-configs swath256_direct,swath256_direct_kc32 "$@" \
    --json b_${tag}_${bin}_r$round.json > /dev/null 2> b_${tag}_${bin}_r$round.err
  echo "rc=$? $tag $bin round $round (${SECONDS}s)" >> runs.txt
}
for round in 1 2 3; do
  for bin in bsr_bench_main bsr_bench; do
    bench $bin u128 0.125 uniform $round; bench $bin bf128 0.125 uniform $round --dtype bf16
    bench $bin pl128 0.125 powerlaw $round; bench $bin d50x128 0.5 uniform $round
    bench $bin d3x128 0.03125 uniform $round
  done
done
python3 - > summary.txt <<'PY'
import json, glob, collections
rows = collections.defaultdict(list)
for f in sorted(glob.glob('b_*.json')):
    tag, rest = f[2:-5].split('_', 1)
    bin_ = {'bsr_bench_main': 'main', 'bsr_bench': 'new'}[rest.rsplit('_r', 1)[0]]
    for r in json.load(open(f)):
        if r.get('ms') is None: continue
        name = r['system'] if r['system'].startswith('bsrflow') else r.get('config', '')[len('bsr_sm90_f16_r128c128_'):]
        rows[(tag, name[:28], bin_)].append((r['ms'], r.get('status', ''), r.get('config', '')))
for (tag, system, bin_), v in sorted(rows.items()):
    print('%-7s %-28s %-4s %s %s %s' % (tag, system, bin_, ' '.join('%.4f' % x[0] for x in v),
                                       ','.join(sorted(set(x[1] for x in v))), v[0][2][:46]))
PY
timeout 240 $C/bsrflow_tests "[sm90],[rowgroup]" > tests.log 2>&1
echo "rc=$? sm90/rowgroup gpu tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "[sm90small]" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
if [ $SECONDS -lt 440 ]; then
  timeout 120 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
  echo "standard (burst) rc=$? (${SECONDS}s)" >> runs.txt
  [ $SECONDS -lt 540 ] && { timeout 50 python3 $R/torch_peer.py $GPU.json > torch_peer.log 2>&1; echo "torch_peer rc=$? (${SECONDS}s)" >> runs.txt; }
fi
cd /tmp && tar czf $OUT/results.tgz w3
cat $W/runs.txt | grep -v "^rc=0 [a-z0-9_.]* bsr_bench"
cat $W/summary.txt
grep -E "FAILED" -A6 $W/tests.log | head -30
