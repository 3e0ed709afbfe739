#!/bin/bash
# Session 20 calls 4 (H200) and 5 (H100): the R-deep chunks for swap-AB blocks wider than tall.
# Every case: 7ae9f34's bsr_bench (.carry/bsr_bench_old) with the named configurations (its
# bsrflow_sm90 row is the old heuristic), then this tree's bsr_bench (.carry/bsr_bench: the new
# default); two rounds. Then [sm90][gpu] and the three sanitizers on [sm90small] (TESTS=0 skips).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w4; mkdir -p $W/cfg
nvidia-smi -L | tee $W/device.txt
SECONDS=0
for i in 1 2; do
  for c in "16x32 f16 row uniform 8192" "16x64 f16 row uniform 8192" "16x128 f16 row uniform 8192" "16x64 bf16 row uniform 8192" "16x64 f16 row powerlaw 8192" "16x64 f16 row uniform 512" \
           "32x64 f16 row uniform 8192" "32x128 f16 row uniform 8192" "32x128 bf16 row uniform 8192" "32x128 f16 row powerlaw 8192" "32x128 f16 row uniform 512" "32x64 f16 col uniform 8192"; do
    set -- $c; name=$1_$2_$3_$4_n$5_$i
    case $1 in 16x*) CFGS=swath512_swap,swath512_swap_kc16,swath512_swap_kc32,swath1024_swap_kc16;; *) CFGS=swath512_swap,swath512_swap_kc16,swath512_swap_kc32;; esac
    timeout 90 $C/bsr_bench_old --m 8192 --n $5 --k 8192 --block $1 --dtype $2 --b-layout $3 --pattern $4 --density 0.125 --systems bsrflow_sm90 --sm90-configs $CFGS > $W/cfg/$name.md 2>$W/cfg/$name.err
    echo "$name rc=$? (${SECONDS}s)" >> $W/summary.txt
    grep -E '\| (bsrflow_sm90|bsr_sm90)' $W/cfg/$name.md | awk -F'|' '{printf "   %-48s %s %s\n", $3, $5, $6}' >> $W/summary.txt
    timeout 90 $C/bsr_bench --m 8192 --n $5 --k 8192 --block $1 --dtype $2 --b-layout $3 --pattern $4 --density 0.125 --systems bsrflow_sm90 > $W/cfg/new_$name.md 2>$W/cfg/new_$name.err
    grep -E '\| bsrflow_sm90' $W/cfg/new_$name.md | awk -F'|' '{printf "   NEW %-44s %s %s %s\n", $3, $5, $6, $4}' >> $W/summary.txt
  done
done
if [ "${TESTS:-1}" != 0 ]; then
  timeout 260 $T "[sm90][gpu]" > $W/tests_sm90.log 2>&1; echo "[sm90][gpu] rc=$? $(tail -2 $W/tests_sm90.log | head -1) (${SECONDS}s)" >> $W/summary.txt
  CS=/usr/local/cuda/bin/compute-sanitizer
  for tool in memcheck racecheck synccheck; do
    timeout 150 $CS --tool $tool --error-exitcode 9 $T "[sm90small]" > $W/san_$tool.log 2>&1
    echo "$tool [sm90small] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$tool.log | tail -1) (${SECONDS}s)" >> $W/summary.txt
  done
fi
cd /tmp && tar czf $OUT/results.tgz w4
cat $W/summary.txt
