#!/bin/bash
# Session 23 call 17 (H100): the last-wave rule with its minimum piece length (the skinny plan cuts the rows of a
# partial last wave): [skinny], the device piece builder against its host twin, memcheck /
# racecheck / synccheck on [skinnysmall] and the new section, and the skinny suite.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
timeout 150 $C/bsrflow_tests "[skinny]" > skinny_tests.log 2>&1
echo "skinny tests rc=$? $(tail -3 skinny_tests.log | grep -E 'passed|failed') (${SECONDS}s)" >> summary.txt
timeout 100 $C/bsrflow_tests "sm90 GEMM: device schedule matches the host rule" > schedule_test.log 2>&1
echo "schedule test rc=$? $(tail -3 schedule_test.log | grep -E 'passed|failed') (${SECONDS}s)" >> summary.txt
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool $C/bsrflow_tests "[skinnysmall]" > san_$tool.log 2>&1
  echo "$tool skinnysmall rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1) (${SECONDS}s)" >> summary.txt
done
timeout 200 compute-sanitizer --tool memcheck $C/bsrflow_tests "skinny GEMM: hostile patterns and split rows are exact" -c "whole rows beyond one wave: the last wave's rows cut into pieces" > san_lastwave.log 2>&1
echo "memcheck last-wave section rc=$? $(grep -E 'ERROR SUMMARY' san_lastwave.log | tail -1) (${SECONDS}s)" >> summary.txt
timeout 150 $C/bsr_bench --suite skinny --json $GPU-skinny.json > $GPU-skinny.md 2> skinny.err
echo "skinny suite rc=$? (${SECONDS}s)" >> summary.txt
python3 - >> summary.txt <<PY
import json
recs = json.load(open('$GPU-skinny.json'))
for c in sorted(set(r['case'] for r in recs)):
    if '11008x64x4096 32x32' not in c: continue
    s = {r['system']: r for r in recs if r['case'] == c and r['status'] == 'ok'}
    k = s['bsrflow_skinny']
    print('%-40s skinny %.4f (%s) ell %.4f dense %.4f' % (c, k['ms'], k['config'], s['cusparse_blocked_ell']['ms'], s['cublas_dense']['ms']))
PY
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
