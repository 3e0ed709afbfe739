#!/bin/bash
# Session 21 call 16 (H200, SKINNY_SUITE=0) / 17 (H100): whole rows for the skinny kernel once
# every SM has a row of at most 128 KiB (entry 42, as landed). [skinny] and the three sanitizers on [skinnysmall]; the skinny
# suite, ea71299's bsr_bench (.carry/bsr_bench_old) against this tree's, alternated twice; the
# skinny suite of every system (H100).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w16; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
note() { echo "$1 (${SECONDS}s)" >> $W/summary.txt; }
timeout 200 $T "[skinny]" > $W/tests_skinny.log 2>&1; note "[skinny] rc=$? $(tail -2 $W/tests_skinny.log | head -1)"
CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  timeout 120 $CS --tool $tool --error-exitcode 9 $T "[skinnysmall]" > $W/san_$tool.log 2>&1
  note "$tool [skinnysmall] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$tool.log | tail -1)"
done
cd $W
for r in 1 2; do for b in old new; do
  bin=$C/bsr_bench; [ $b = old ] && bin=$C/bsr_bench_old
  timeout 100 $bin --suite skinny --systems bsrflow_skinny --json skinny_${b}_$r.json > skinny_${b}_$r.md 2> skinny_${b}_$r.err
  note "skinny $b $r rc=$?"
done; done
if [ "${SKINNY_SUITE:-1}" != 0 ]; then
  timeout 100 $C/bsr_bench --suite skinny --json $GPU-skinny.json > $GPU-skinny.md 2> skinny.err
  note "bsr_bench skinny (all systems) rc=$?"
fi
cd /tmp && tar czf $OUT/results.tgz w16
cat $W/summary.txt
for r in 1 2; do for b in old new; do echo "== $b $r"; grep 'bsrflow_skinny ' $W/skinny_${b}_$r.md | grep "11008x.*64x64" | awk -F'|' '{print $2, $5}'; done; done
