#!/bin/bash
# Session 23 call 14 (H100): the rows after the first wave cut into p pieces (BSRFLOW_EXP_TAIL, patches/exp_tail_pieces.patch)
# where whole rows exceed one wave of resident CTAs (11008 x 64 x 4096: 344 block rows of 32 x 32
# blocks, 264 CTAs fit), against the landed plan, two rounds; cuSPARSE Blocked-ELL and cuBLAS in the
# same process.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
for i in 1 2; do for q in 0 2 3 4; do
  for d in 0.25 0.5; do
    if [ $q = 0 ]; then unset BSRFLOW_EXP_TAIL; else export BSRFLOW_EXP_TAIL=$q; fi
    timeout 60 $C/bsr_bench --m 11008 --n 64 --k 4096 --block 32 --density $d --systems bsrflow_skinny,cusparse_blocked_ell,cublas_dense --json r${i}_q${q}_d$d.json > /dev/null 2>&1
    python3 -c "
import json; r={x['system']:x for x in json.load(open('r${i}_q${q}_d$d.json'))}
s=r['bsrflow_skinny']; print('round $i tail $q density $d: skinny %.4f ms (%s, ctas?) ell %.4f dense %.4f' % (s['ms'], s['config'], r['cusparse_blocked_ell']['ms'], r['cublas_dense']['ms']))" >> summary.txt
  done
done; done
unset BSRFLOW_EXP_TAIL
timeout 60 $C/bsrflow_tests "[skinny]" > skinny_tests.log 2>&1; echo "skinny tests rc=$?" >> summary.txt
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
