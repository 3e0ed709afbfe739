#!/bin/bash
# Session 31 call 1 (H100): swap-AB split pieces' f32 partial tiles (perf_log entry 53).
# 1. [sm90],[rowgroup] GPU tests of this tree (variant D: partials stored straight from the
#    accumulators), memcheck on [sm90small],[rowgroup], racecheck / synccheck on [sm90small].
# 2. bsr_bench 8192^3 f16, main's binary (0a79b17) against D and against T (partials TMA-stored
#    from one f32 chunk, a throw-away worktree), alternated over three rounds; the planner's plan,
#    its probe and cuBLAS: 16 x 16 / 32 x 32 power-law 12.5% (split pieces), 16 x 16 power-law 3%,
#    16 x 16 / 32 x 32 uniform 12.5% (no split pieces: controls). bsr_bench checks each result.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/w1; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.memory,memory.total --format=csv >> device.txt
SECONDS=0
timeout 240 $C/bsrflow_tests "[sm90],[rowgroup]" > tests.log 2>&1
echo "rc=$? sm90/rowgroup gpu tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  tags="[sm90small]"; [ $tool = memcheck ] && tags="[sm90small],[rowgroup]"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "$tags" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
bench() {  # binary tag block density pattern round
  local bin=$1 tag=$2 block=$3 density=$4 pattern=$5 round=$6; shift 6
  [ $SECONDS -gt 540 ] && { echo "skipped $tag $bin round $round (${SECONDS}s)" >> runs.txt; return; }
  timeout 40 $C/$bin --m 8192 --n 8192 --k 8192 --block $block --density $density --pattern $pattern \
    --systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense "$@" --json b_${tag}_${bin}_r$round.json > /dev/null 2> b_${tag}_${bin}_r$round.err
  echo "rc=$? $tag $bin round $round (${SECONDS}s)" >> runs.txt
}
for round in 1 2 3; do
  for bin in bsr_bench_main bsr_bench bsr_bench_T; do
    bench $bin pl16 16 0.125 powerlaw $round; bench $bin pl32 32 0.125 powerlaw $round
    bench $bin pl16d3 16 0.03 powerlaw $round
    bench $bin u16 16 0.125 uniform $round; bench $bin u32 32 0.125 uniform $round
  done
done
python3 - > summary.txt <<'PY'
import json, glob, collections
rows = collections.defaultdict(list)
for f in sorted(glob.glob('b_*.json')):
    tag, rest = f[2:-5].split('_', 1)
    bin_ = {'bsr_bench_main': 'main', 'bsr_bench': 'D', 'bsr_bench_T': 'T'}[rest.rsplit('_r', 1)[0]]
    for r in json.load(open(f)):
        if r.get('ms') is None: continue
        rows[(tag, r['system'], bin_)].append((r['ms'], r.get('status', ''), r.get('config', '')))
for (tag, system, bin_), v in sorted(rows.items()):
    print('%-7s %-24s %-4s %s %s' % (tag, system[:24], bin_, ' '.join('%.4f' % x[0] for x in v),
                                    ','.join(sorted(set(x[1] for x in v))) + ' ' + v[0][2][:40]))
PY
cd /tmp && tar czf $OUT/results.tgz w1
cat $W/runs.txt | grep -v "^rc=0 [a-z0-9_.]* bsr_bench" ; cat $W/summary.txt; grep -E "FAILED" -A6 $W/tests.log | head -40
