#!/bin/bash
# Session 40 call 6 (H200). Binary: ring_machinery_probe.cu (stand-alone).
# Question: which part of the skinny kernel's machinery costs what - the ring of bulk copies that
# reads A as fast as a plain read (call 2), plus the consumers' hand-off, B's slices, a second
# producer warp and the columns' loads, one at a time.
# Prediction: the hand-off and B's slices cost most (entry 57 part 6: without A the kernel keeps
# 0.80-0.94 of its time); each step 3-10% at 23 MB.
R=$PWD/.carry
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/s40w6; rm -rf $W; mkdir -p $W
nvidia-smi -L > $W/device.txt; cat $W/device.txt
timeout 200 $C/ring_machinery_probe > $W/probe.md 2>&1
echo "probe rc=$?"
cat $W/probe.md
cd /tmp && tar czf $OUT/results.tgz s40w6
