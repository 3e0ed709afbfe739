#!/bin/bash
# Session 16 call 7 (H200): tests, sanitizers, old/new A/B, standard suite + PyTorch peer at HEAD
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
SECONDS=0
timeout 300 $T "[sm90][gpu]" > $W/tests_sm90.log 2>&1; echo "[sm90][gpu] rc=$? $(tail -2 $W/tests_sm90.log | head -1) (${SECONDS}s)" >> $W/summary.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  timeout 200 $CS --tool $tool --error-exitcode 9 $T "[sm90small]" > $W/san_$tool.log 2>&1
  echo "$tool [sm90small] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$tool.log | tail -1) (${SECONDS}s)" >> $W/summary.txt
done
mkdir -p $W/ab
for i in 1 2; do
  for v in old new; do
    bin=$C/bsr_bench; [ $v = old ] && bin=$C/bsr_bench_old
    for pat in powerlaw uniform; do
      timeout 100 $bin --m 8192 --n 8192 --k 8192 --block 128 --density 0.125 --pattern $pat --systems bsrflow_sm90,bsrflow_sm90_copy_probe > $W/ab/${v}_${pat}_$i.md 2>$W/ab/${v}_${pat}_$i.err
      echo "$v $pat $i: $(grep -E '\| bsrflow_sm90 ' $W/ab/${v}_${pat}_$i.md | awk -F'|' '{print $5, $6}') probe $(grep -E 'copy_probe' $W/ab/${v}_${pat}_$i.md | awk -F'|' '{print $6}')" >> $W/summary.txt
    done
  done
done
cd $W
timeout 200 $C/bsr_bench --suite standard --json nvidia-h200.json --csv nvidia-h200.csv > nvidia-h200.md 2> bsr_bench.err
echo "bsr_bench standard rc=$? (${SECONDS}s)" >> summary.txt
timeout 120 python3 $C/torch_peer.py nvidia-h200.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> summary.txt
timeout 150 $T "[gpu]~[sm90]~[soak]" > $W/tests_other.log 2>&1; echo "[gpu]~[sm90]~[soak] rc=$? $(tail -2 $W/tests_other.log | head -1) (${SECONDS}s)" >> $W/summary.txt
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
