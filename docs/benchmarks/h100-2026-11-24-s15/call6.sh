#!/bin/bash
# Session 15 call 6: bsr_bench old (ccbed1f kernels) vs new (reverse walk), 128 power-law and uniform, same GPU
export LD_LIBRARY_PATH=$PWD/.carry/lib
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
for i in 1 2 3; do
  for v in old new; do
    bin=$PWD/.carry/bsr_bench; [ $v = old ] && bin=$PWD/.carry/bsr_bench_old
    for pat in powerlaw uniform; do
      timeout 100 $bin --m 8192 --n 8192 --k 8192 --block 128 --density 0.125 --pattern $pat --systems bsrflow_sm90,bsrflow_sm90_copy_probe > $W/${v}_${pat}_$i.md 2>$W/${v}_${pat}_$i.err
      echo "$v $pat $i: $(grep -E '\| bsrflow_sm90 ' $W/${v}_${pat}_$i.md | awk -F'|' '{print $5, $6}') probe $(grep -E 'copy_probe' $W/${v}_${pat}_$i.md | awk -F'|' '{print $6}')" >> $W/summary.txt
    done
  done
done
for v in old new; do
  bin=$PWD/.carry/bsr_bench; [ $v = old ] && bin=$PWD/.carry/bsr_bench_old
  timeout 100 $bin --m 8192 --n 8192 --k 8192 --block 128 --density 0.125 --pattern powerlaw --dtype bf16 --systems bsrflow_sm90 > $W/${v}_pl_bf16.md 2>&1
  echo "$v powerlaw bf16: $(grep -E '\| bsrflow_sm90 ' $W/${v}_pl_bf16.md | awk -F'|' '{print $5, $6}')" >> $W/summary.txt
done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
