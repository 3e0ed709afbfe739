#!/bin/bash
# Session 21 call 5 (H200) / 6 (H100, SUITE=0): the tree with the skinny row sum on one
# acquire-release ticket and float4 reads. [skinny] tests and the three sanitizers on
# [skinnysmall]; the skinny suite, 557aa4c's bsr_bench (.carry/bsr_bench_old) against this tree's,
# alternated twice; the tuner A/B as in call 1; the standard suite + PyTorch peer (SUITE=1).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w5; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
note() { echo "$1 (${SECONDS}s)" >> $W/summary.txt; cp $W/summary.txt $OUT/; }
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
for r in 1 2; do for b in old new; do
  timeout 100 $C/bsrflow-tune_$b tune --suite standard --cache-dir $W/cache_${b}_$r > $W/tune_${b}_$r.log 2>&1
  note "tune $b $r rc=$?"
done; done
if [ "${SUITE:-1}" != 0 ]; then
  timeout 200 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
  note "bsr_bench standard rc=$?"
  timeout 100 python3 $C/torch_peer.py $GPU.json > torch_peer.log 2>&1
  note "torch_peer rc=$?"
else
  timeout 100 $C/bsr_bench --suite skinny --json $GPU-skinny.json > $GPU-skinny.md 2> skinny.err
  note "bsr_bench skinny (all systems) rc=$?"
fi
cd /tmp && tar czf $OUT/results.tgz w5
cat $W/summary.txt
for r in 1 2; do for b in old new; do echo "== $b $r"; grep 'bsrflow_skinny ' $W/skinny_${b}_$r.md | awk -F'|' '{print $2, $5}' | head -32; done; done
