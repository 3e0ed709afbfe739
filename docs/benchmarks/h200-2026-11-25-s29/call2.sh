#!/bin/bash
# Session 29 call 2 (H100): the device_info test (the memory bandwidth the two-item rule reads), bsr_bench
# 8192^3 16 x 16 with the planner's plan, its probe and the named one-item / two-item row-group variants
# alternated over three rounds (uniform, power-law 12.5%), then every GPU test and the three sanitizers
# (the row-group tests run both item forms).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=/tmp/carry; mkdir -p $C; for f in bsrflow_tests bsr_bench; do gunzip -c $R/$f.gz > $C/$f; chmod +x $C/$f; done
W=/tmp/w2; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
nvidia-smi --query-gpu=name,clocks.max.memory,memory.total --format=csv >> device.txt
SECONDS=0
$C/bsrflow_tests "device_info reports the GPU's resources" -s > device_info.log 2>&1
echo "rc=$? device_info test: $(grep -m1 'memory bandwidth' device_info.log)" >> runs.txt
bench() {  # tag density pattern round
  timeout 60 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block 16 --density $2 --pattern $3 \
    --systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense --sm90-configs swath512_swap_g4,swath512_swap_g4x2 \
    --json b_$1_r$4.json > /dev/null 2> b_$1_r$4.err
  echo "rc=$? $1 round $4 (${SECONDS}s)" >> runs.txt
}
for round in 1 2 3; do bench u125 0.125 uniform $round; bench pl125 0.125 powerlaw $round; done
timeout 360 $C/bsrflow_tests "[gpu]" > tests.log 2>&1
echo "rc=$? gpu tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  tags="[sm90small]"; [ $tool = memcheck ] && tags="[sm90small],[rowgroup]"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "$tags" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
python3 - > summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('b_*.json')):
    rs = json.load(open(f))
    cu = [r['eff_tflops'] for r in rs if r.get('system') == 'cublas_dense' and r.get('eff_tflops')]
    cu = cu[0] if cu else float('nan')
    for r in rs:
        if r.get('ms') is None or r['system'] == 'cublas_dense': continue
        print('%-12s %-34s %-46s %8.4f ms %.3f of cuBLAS' % (f[2:-5], r['system'][:34], r.get('config', '')[:46], r['ms'], r['eff_tflops'] / cu))
PY
cd /tmp && tar czf $OUT/results.tgz w2
cat $W/runs.txt; cat $W/summary.txt; grep -E "FAILED" -A6 $W/tests.log | head -40
