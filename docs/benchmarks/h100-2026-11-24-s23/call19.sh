#!/bin/bash
# Session 23 call 19 (H100): 32 x 32 50% f16, the heuristic (swath512_swap, 6 stages of 32-deep
# chunks) against 16-deep chunks (the tuner's pick) in one process, with the case's operands shifted
# in device memory by a pad of 0 / 64 / 192 / 448 MB allocated first (BSRFLOW_EXP_PAD_MB,
# patches/exp_pad.patch); two rounds.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
for i in 1 2; do for pad in 0 64 192 448; do
  BSRFLOW_EXP_PAD_MB=$pad timeout 60 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block 32 --density 0.5 --systems bsrflow_sm90 --sm90-configs swath512_swap_kc16 --json p${pad}_$i.json > /dev/null 2>&1
  python3 -c "
import json; r=json.load(open('p${pad}_$i.json'))
print('round $i pad $pad MB: ' + ', '.join('%s %.4f ms' % (x['config'], x['ms']) for x in r if x['status']=='ok'))" >> summary.txt
done; done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
