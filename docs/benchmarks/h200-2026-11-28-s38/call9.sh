#!/bin/bash
# Session 38 call 9 (H200): tma_issue_probe (built with the command in its header): what paces one
# CTA's stream of TMA boxes - their number or their bytes - at 1-3 CTAs per SM.
W=/tmp/w9; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
timeout 120 .carry/tma_issue_probe > $W/tma_issue_probe.md 2>&1; echo "probe rc=$?"
cat $W/tma_issue_probe.md
cd /tmp && tar czf $OUT/results.tgz w9
