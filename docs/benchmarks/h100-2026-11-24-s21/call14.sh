#!/bin/bash
# Session 21 call 14 (H100): the first column window planned per piece (entry 43,
# patches/first_window_per_piece.patch; measured and dropped), against
# e8582bf (entry 42). [skinny] and the three sanitizers on [skinnysmall]; the skinny
# suite, e8582bf's bsr_bench (.carry/bsr_bench_old) against this tree's, alternated twice; the
# skinny suite of every system (H100).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w14; mkdir -p $W
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
cd /tmp && tar czf $OUT/results.tgz w14
cat $W/summary.txt
for r in 1 2; do for b in old new; do echo "== $b $r"; grep 'bsrflow_skinny ' $W/skinny_${b}_$r.md | awk -F'|' '{print $2, $5}'; done; done
