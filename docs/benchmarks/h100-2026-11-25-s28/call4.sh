#!/bin/bash
# Session 28 call 4 (H100): old (main) against v2 (calls 1-2: one-add descriptors, one-row masks first,
# stages in batches of 32) in bsr_bench, alternated twice: 12.5% uniform f16 at 16 / 32 / 64 / 128 (32 also
# with the row-group plan), power-law f16 at 16 and 32. Then every GPU test and the three sanitizers on the
# small sm90 cases.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=/tmp/carry; mkdir -p $C; for f in bsrflow_tests bsr_bench bsr_bench_old; do gunzip -c $PWD/.carry/$f.gz > $C/$f; chmod +x $C/$f; done
W=/tmp/w4; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
bench() {  # version block pattern round
  case $1 in old) B=$C/bsr_bench_old;; v2) B=$C/bsr_bench;; esac
  extra=""; [ $2 = 32 ] && extra="--sm90-configs swath256_swap_g4"
  timeout 60 $B --m 8192 --n 8192 --k 8192 --block $2 --density 0.125 --pattern $3 \
    --systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense $extra --json b$2_$3_$1_$4.json > /dev/null 2> b$2_$3_$1_$4.err
  echo "rc=$? $1 b$2 $3 round $4 (${SECONDS}s)" >> runs.txt
}
for round in 1 2; do
  for v in old v2; do
    for b in 16 32 64 128; do bench $v $b uniform $round; done
    for b in 16 32; do bench $v $b powerlaw $round; done
  done
done
timeout 330 $C/bsrflow_tests "[gpu]" > tests.log 2>&1
echo "rc=$? gpu tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "[sm90small]" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
python3 - > summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('b*.json'), key=lambda f: (int(f.split('_')[0][1:]), f)):
    rs = json.load(open(f))
    cu = [r['eff_tflops'] for r in rs if r.get('system') == 'cublas_dense' and r.get('eff_tflops')]
    cu = cu[0] if cu else float('nan')
    for r in rs:
        if r.get('ms') is None or r['system'] == 'cublas_dense': continue
        print('%-20s %-24s %-44s %8.4f ms %6.1f TF %.3f of cuBLAS' % (f[:-5], r['system'][:24], r.get('config', '')[:44], r['ms'], r['eff_tflops'], r['eff_tflops'] / cu))
PY
cd /tmp && tar czf $OUT/results.tgz w4
cat $W/summary.txt; grep -E "FAILED" -A4 $W/tests.log | head -30; cat $W/runs.txt
