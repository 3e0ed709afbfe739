#!/bin/bash
# Session 28 call 7 (H200): v2 (879b575) against v4 (v2 + row-group item masks packed 4 bits per item by
# one warp reduction per 8 items, instead of a shuffle per item): bsr_bench alternated three times at
# 16 x 16 (uniform and power-law) and 32 x 32 row groups (12.5%, 18.75%); the sm90 and row-group GPU
# tests and memcheck on v4.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=/tmp/carry; mkdir -p $C; for f in bsrflow_tests bsr_bench bsr_bench_v2; do gunzip -c $R/$f.gz > $C/$f; chmod +x $C/$f; done
W=/tmp/w7; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
bench() {  # version block density pattern round
  case $1 in v2) B=$C/bsr_bench_v2;; v4) B=$C/bsr_bench;; esac
  extra=""; [ $2 = 32 ] && extra="--sm90-configs swath256_swap_g4"
  timeout 60 $B --m 8192 --n 8192 --k 8192 --block $2 --density $3 --pattern $4 \
    --systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense $extra --json b$2_$3_$4_$1_$5.json > /dev/null 2> /dev/null
  echo "rc=$? $1 b$2 $3 $4 round $5 (${SECONDS}s)" >> runs.txt
}
for round in 1 2 3; do
  for v in v2 v4; do
    bench $v 16 0.125 uniform $round; bench $v 16 0.125 powerlaw $round
    bench $v 32 0.125 uniform $round; bench $v 32 0.1875 uniform $round
  done
done
timeout 300 $C/bsrflow_tests "[sm90][gpu]~[tuning],[rowgroup]" > tests.log 2>&1
echo "rc=$? tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $C/bsrflow_tests "[sm90small],[rowgroup]" > san_memcheck.log 2>&1
echo "rc=$? sanitizer memcheck (${SECONDS}s): $(grep -E 'ERROR SUMMARY' san_memcheck.log | tail -1)" >> runs.txt
python3 - > summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('b*.json')):
    rs = json.load(open(f))
    cu = [r['eff_tflops'] for r in rs if r.get('system') == 'cublas_dense' and r.get('eff_tflops')]
    cu = cu[0] if cu else float('nan')
    for r in rs:
        if r.get('ms') is None or r['system'] == 'cublas_dense': continue
        print('%-28s %-24s %-42s %8.4f ms %.3f of cuBLAS' % (f[:-5], r['system'][:24], r.get('config', '')[:42], r['ms'], r['eff_tflops'] / cu))
PY
cd /tmp && tar czf $OUT/results.tgz w7
cat $W/summary.txt; grep -E "FAILED" -A4 $W/tests.log | head -30; cat $W/runs.txt | tail -4
