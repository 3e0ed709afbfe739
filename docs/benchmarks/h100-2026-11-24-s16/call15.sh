#!/bin/bash
# Session 16 call 15 (H200): 16 x 16 swath 1024 only when N > 512: tests, sanitizers; swath 512 vs 1024 at N = 256 / 512 / 1024 / 2048
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
timeout 240 $T "[sm90][gpu]" > $W/tests_sm90.log 2>&1; echo "[sm90][gpu] rc=$? $(tail -2 $W/tests_sm90.log | head -1) (${SECONDS}s)" >> $W/summary.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  timeout 150 $CS --tool $tool --error-exitcode 9 $T "[sm90small]" > $W/san_$tool.log 2>&1
  echo "$tool [sm90small] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$tool.log | tail -1) (${SECONDS}s)" >> $W/summary.txt
done
for i in 1 2; do
  for n in 256 512 1024 2048; do
    timeout 60 $C/bsr_bench --m 8192 --n $n --k 8192 --block 16 --density 0.125 --systems bsrflow_sm90 --sm90-configs swath512_swap,swath1024_swap > $W/ab/n${n}_$i.md 2>$W/ab/n${n}_$i.err
    echo "N=$n $i: $(grep -E '\| bsrflow_sm90[a-z0-9_]* ' $W/ab/n${n}_$i.md | awk -F'|' '{printf "%s %s %s; ", $3, $5, $6}')" >> $W/summary.txt
  done
done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
