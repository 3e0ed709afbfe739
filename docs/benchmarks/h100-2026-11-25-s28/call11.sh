#!/bin/bash
# Session 28 call 11 (H100): the skinny kernel's swizzled() as a call of tma_swizzle.hpp's swizzled_offset
# (the same rule; its SASS differs in register allocation). main (5c8972f, "old") against the change
# ("new"): bsrflow_skinny on four llm shapes at N = 16 and 64, alternated three times; the skinny GPU tests
# and memcheck on them.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=/tmp/carry; mkdir -p $C; for f in bsrflow_tests bsr_bench bsr_bench_old; do gunzip -c $R/$f.gz > $C/$f; chmod +x $C/$f; done
W=/tmp/w11; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
for round in 1 2 3; do
  for v in old new; do
    [ $v = old ] && B=$C/bsr_bench_old || B=$C/bsr_bench
    for c in "4096 16 11008 32 0.25" "11008 16 4096 64 0.5" "4096 64 11008 64 0.25" "11008 64 4096 32 0.5"; do
      set -- $c
      timeout 60 $B --m $1 --n $2 --k $3 --block $4 --density $5 --systems bsrflow_skinny \
        --json s_$1x$2x$3_b$4_$5_${v}_$round.json > /dev/null 2> /dev/null
      echo "rc=$? $v $c round $round (${SECONDS}s)" >> runs.txt
    done
  done
done
timeout 200 $C/bsrflow_tests "[skinny][gpu]" > tests.log 2>&1
echo "rc=$? skinny gpu tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $C/bsrflow_tests "[skinny][gpu]" > san_memcheck.log 2>&1
echo "rc=$? sanitizer memcheck (${SECONDS}s): $(grep -E 'ERROR SUMMARY' san_memcheck.log | tail -1)" >> runs.txt
python3 - > summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('s_*.json')):
    for r in json.load(open(f)):
        if r.get('ms') is not None:
            print('%-40s %-16s %9.5f ms %7.0f GB/s' % (f[2:-5], r['system'], r['ms'], r.get('gbps') or 0))
PY
cd /tmp && tar czf $OUT/results.tgz w11
cat $W/summary.txt; grep -E "FAILED" -A4 $W/tests.log | head -20; tail -3 $W/runs.txt
