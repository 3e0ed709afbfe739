#!/bin/bash
# Session 23 call 2 (H100) / 3 (H200): GPU tests of the apps (GpuMonitor), the monitor's
# effect on timing (one case, monitor on/off alternated), the standard suite + PyTorch peer and
# the skinny suite with SM clocks per record.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
timeout 120 $C/bsrflow_tests "[apps][gpu]" > apps_gpu.log 2>&1
echo "apps gpu tests rc=$? $(tail -3 apps_gpu.log | grep -E 'passed|failed') (${SECONDS}s)" >> summary.txt
for i in 1 2; do for m in on off; do
  flag=""; [ $m = off ] && flag=--no-gpu-monitor
  timeout 60 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block 128 --systems bsrflow_sm90,cublas_dense --iters 30 $flag --json mon_${m}_$i.json > mon_${m}_$i.md 2>&1
  python3 -c "import json;r=[x for x in json.load(open('mon_${m}_$i.json'))['records']];print('monitor $m $i', ['%s %.4f ms %s MHz' % (x['system'], x['ms'], x.get('sm_mhz')) for x in r])" >> summary.txt
done; done
timeout 300 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "bsr_bench standard rc=$? (${SECONDS}s)" >> summary.txt
timeout 120 python3 $C/torch_peer.py $GPU.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> summary.txt
timeout 200 $C/bsr_bench --suite skinny --json $GPU-skinny.json > $GPU-skinny.md 2> skinny.err
echo "bsr_bench skinny rc=$? (${SECONDS}s)" >> summary.txt
python3 $C/summ.py $GPU.json >> summary.txt 2>&1
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
awk '/## Autotuning/,0' $W/$GPU.md | tail -4
