#!/bin/bash
# Session 28 call 9 (H100): main (879b575, "v2") against the candidate ("v6": two row-group items per stage
# at 16 x 16 only, 32 x 32 row groups keep one): bsr_bench alternated twice at 16 x 16 (uniform, power-law),
# 32 x 32 12.5% (+ row groups) and 18.75%, 64 and 128; then every GPU test and the three sanitizers.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=/tmp/carry; mkdir -p $C; for f in bsrflow_tests bsr_bench bsr_bench_v2; do gunzip -c $R/$f.gz > $C/$f; chmod +x $C/$f; done
W=/tmp/w9; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
bench() {  # version block density pattern round
  case $1 in v2) B=$C/bsr_bench_v2;; v6) B=$C/bsr_bench;; esac
  extra=""; [ $2 = 32 ] && extra="--sm90-configs swath256_swap_g4"
  timeout 60 $B --m 8192 --n 8192 --k 8192 --block $2 --density $3 --pattern $4 \
    --systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense $extra --json b$2_$3_$4_$1_$5.json > /dev/null 2> /dev/null
  echo "rc=$? $1 b$2 $3 $4 round $5 (${SECONDS}s)" >> runs.txt
}
for round in 1 2; do
  for v in v2 v6; do
    bench $v 16 0.125 uniform $round; bench $v 16 0.125 powerlaw $round
    bench $v 32 0.125 uniform $round; bench $v 32 0.1875 uniform $round
    bench $v 64 0.125 uniform $round; bench $v 128 0.125 uniform $round
  done
done
timeout 330 $C/bsrflow_tests "[gpu]" > tests.log 2>&1
echo "rc=$? gpu tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  tags="[sm90small]"; [ $tool = memcheck ] && tags="[sm90small],[rowgroup]"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "$tags" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
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
cd /tmp && tar czf $OUT/results.tgz w9
cat $W/summary.txt; grep -E "FAILED" -A4 $W/tests.log | head -30; cat $W/runs.txt | tail -5
