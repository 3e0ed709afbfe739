#!/bin/bash
# Session 23 call 18 (H100): 32 x 32 50%, the autotuned plan (16-deep chunks, 8 stages) against
# the heuristic's in alternating pairs, rested bursts (the default) and hot (--rest-ms 0
# --warmup-ms 200: the pairs follow the sustained series directly), two rounds each.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
for i in 1 2; do for mode in rested hot; do for dt in f16 bf16; do
  flags=""; [ $mode = hot ] && flags="--rest-ms 0 --warmup-ms 200"
  timeout 100 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block 32 --density 0.5 --dtype $dt --systems bsrflow_sm90,bsrflow_sm90_tuned $flags --json ${mode}_${dt}_$i.json > /dev/null 2>&1
  python3 -c "
import json; r={x['system']:x for x in json.load(open('${mode}_${dt}_$i.json'))}
t=r['bsrflow_sm90_tuned']; h=r['bsrflow_sm90']
print('round $i $mode $dt: heuristic %.4f ms, tuned %.4f ms (%s), paired gain %s (p10 %s p90 %s), MHz %s / %s' % (h['ms'], t['ms'], t['config'], t.get('paired_gain'), t.get('paired_gain_p10'), t.get('paired_gain_p90'), h.get('sm_mhz'), t.get('sm_mhz')))" >> summary.txt
done; done; done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
