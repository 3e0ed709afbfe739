#!/bin/bash
# Session 15 call 7: which tiles should walk backwards (128 power-law lost 2% in call 6)
export LD_LIBRARY_PATH=$PWD/.carry/lib
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
B=$PWD/.carry/bsr_bench
for i in 1 2; do
  for v in all:A=0 off:BSRFLOW_EXP_REV_OFF=1 unsplit:BSRFLOW_EXP_REV_UNSPLIT=1 max16:BSRFLOW_EXP_REV_MAX=16 max8:BSRFLOW_EXP_REV_MAX=8; do
    name=${v%%:*}; e=${v#*:}
    for pat in powerlaw uniform; do
      env $e timeout 100 $B --m 8192 --n 8192 --k 8192 --block 128 --density 0.125 --pattern $pat --systems bsrflow_sm90,bsrflow_sm90_copy_probe > $W/${name}_${pat}_$i.md 2>$W/${name}_${pat}_$i.err
      echo "$name $pat $i: $(grep -E '\| bsrflow_sm90 ' $W/${name}_${pat}_$i.md | awk -F'|' '{print $5, $6}') probe $(grep -E 'copy_probe' $W/${name}_${pat}_$i.md | awk -F'|' '{print $6}')" >> $W/summary.txt
    done
  done
done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
