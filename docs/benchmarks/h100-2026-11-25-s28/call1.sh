#!/bin/bash
# Session 28 call 1: wgmma descriptors as one 32-bit add per descriptor (low word from per-warpgroup
# stage-0 bases) and the row-mask dispatch testing one-row masks first. bsr_bench of main (old) and of
# this build (new), alternated twice, 12.5% uniform f16 at 16 / 32 / 64 / 128; the sm90 and row-group
# GPU tests; memcheck on the small sm90 cases.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=/tmp/carry; mkdir -p $C; for f in bsrflow_tests bsr_bench bsr_bench_old; do gunzip -c $PWD/.carry/$f.gz > $C/$f; chmod +x $C/$f; done
W=/tmp/w1; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
for round in 1 2; do
  for v in old new; do
    [ $v = old ] && B=$C/bsr_bench_old || B=$C/bsr_bench
    for b in 16 32 64 128; do
      extra=""; [ $b = 32 ] && extra="--sm90-configs swath256_swap_g4"
      timeout 60 $B --m 8192 --n 8192 --k 8192 --block $b --density 0.125 \
        --systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense $extra --json b${b}_${v}_$round.json > /dev/null 2> b${b}_${v}_$round.err
      echo "rc=$? $v b$b round $round (${SECONDS}s)" >> runs.txt
    done
  done
done
timeout 300 $C/bsrflow_tests "[sm90][gpu]~[tuning],[rowgroup]" > tests.log 2>&1
echo "rc=$? tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $C/bsrflow_tests "[sm90small]" > san_memcheck.log 2>&1
echo "rc=$? sanitizer memcheck (${SECONDS}s): $(grep -E 'ERROR SUMMARY' san_memcheck.log | tail -1)" >> runs.txt
python3 - > summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('b*.json'), key=lambda f: (int(f.split('_')[0][1:]), f)):
    rs = json.load(open(f))
    cu = [r['eff_tflops'] for r in rs if r.get('system') == 'cublas_dense' and r.get('eff_tflops')]
    cu = cu[0] if cu else float('nan')
    for r in rs:
        if r.get('ms') is None or r['system'] == 'cublas_dense': continue
        print('%-14s %-24s %-44s %8.4f ms %6.1f TF %.3f of cuBLAS' % (f[:-5], r['system'][:24], r.get('config', '')[:44], r['ms'], r['eff_tflops'], r['eff_tflops'] / cu))
PY
cd /tmp && tar czf $OUT/results.tgz w1
cat $W/summary.txt; grep -E "FAILED" -A3 $W/tests.log | head -30; cat $W/runs.txt
