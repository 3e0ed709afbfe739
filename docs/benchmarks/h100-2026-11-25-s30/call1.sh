#!/bin/bash
# Session 30 call 1 (H100; call 2 runs it on an H200): the swap-AB TMA-store epilogue (perf_log entry 52).
# 1. Every GPU test and the three sanitizers on [sm90small] (memcheck also on [rowgroup]).
# 2. bsr_bench 8192^3, main's binary (bsr_bench_main, bd294a8) against this tree's, alternated over
#    three rounds, the planner's plan and its probe: 16 x 16 / 32 x 32 uniform and power-law 12.5%,
#    32 x 32 50% (row groups), 16 x 16 3% (one row, swath 1024), 32 x 32 12.5% into column-major C.
# 3. Column-major B, this tree only, two rounds: the planner's one-row plan against the row-group
#    variants (16 x 16 at 6.25 / 9 / 12.5%, 32 x 32 at 6.25 / 9 / 12.5 / 18.75%).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
gunzip -c $R/bsr_bench_main.gz > $C/bsr_bench_main && chmod +x $C/bsr_bench_main
W=/tmp/w1; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
nvidia-smi --query-gpu=name,clocks.max.memory,memory.total --format=csv >> device.txt
SECONDS=0
timeout 300 $C/bsrflow_tests "[gpu]" > tests.log 2>&1
echo "rc=$? gpu tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  tags="[sm90small]"; [ $tool = memcheck ] && tags="[sm90small],[rowgroup]"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "$tags" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
bench() {  # binary tag block density pattern round [extra options]
  local bin=$1 tag=$2 block=$3 density=$4 pattern=$5 round=$6; shift 6
  [ $SECONDS -gt 560 ] && { echo "skipped $tag $bin round $round (${SECONDS}s)" >> runs.txt; return; }
  timeout 40 $C/$bin --m 8192 --n 8192 --k 8192 --block $block --density $density --pattern $pattern \
    --systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense "$@" --json b_${tag}_${bin}_r$round.json > /dev/null 2> b_${tag}_${bin}_r$round.err
  echo "rc=$? $tag $bin round $round (${SECONDS}s)" >> runs.txt
}
for round in 1 2 3; do
  for bin in bsr_bench_main bsr_bench; do
    bench $bin u16 16 0.125 uniform $round; bench $bin pl16 16 0.125 powerlaw $round
    bench $bin u32 32 0.125 uniform $round; bench $bin pl32 32 0.125 powerlaw $round
    bench $bin u32d50 32 0.5 uniform $round; bench $bin u16d3 16 0.03 uniform $round
    bench $bin u32ccol 32 0.125 uniform $round --c-layout col
  done
done
for round in 1 2; do
  for d in 0.0625 0.09 0.125; do bench bsr_bench bcol16_$d 16 $d uniform $round --b-layout col --sm90-configs swath512_swap_g4,swath512_swap_g4x2; done
  for d in 0.0625 0.09 0.125 0.1875; do bench bsr_bench bcol32_$d 32 $d uniform $round --b-layout col --sm90-configs swath256_swap_g4; done
done
python3 - > summary.txt <<'PY'
import json, glob, collections
rows = collections.defaultdict(list)
for f in sorted(glob.glob('b_*.json')):
    tag, bin_ = f[2:-5].rsplit('_r', 1)[0].rsplit('_bsr_bench', 1)
    bin_ = 'main' if bin_ == '_main' else 'new'
    for r in json.load(open(f)):
        if r.get('ms') is None or r['system'] == 'cublas_dense': continue
        rows[(tag, r['system'], r.get('config', ''), bin_)].append(r['ms'])
for (tag, system, config, bin_), ms in sorted(rows.items()):
    print('%-14s %-4s %-34s %-46s %s' % (tag, bin_, system[:34], config[:46], ' '.join('%.4f' % x for x in ms)))
PY
cd /tmp && tar czf $OUT/results.tgz w1
cat $W/runs.txt | grep -v "^rc=0 [a-z0-9_.]* bsr_bench" ; cat $W/summary.txt; grep -E "FAILED" -A6 $W/tests.log | head -40
