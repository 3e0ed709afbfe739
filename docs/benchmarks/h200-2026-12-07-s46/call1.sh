#!/bin/bash
# Session 46 call 1 on an H200 (no H100 could be started): the same A/B as
# ../h100-2026-12-07-s46/call1.sh, whose header gives the binary and the variants. A rule landed
# for the H100 applies on the H200 too, so it must not lose there.
# Prediction (H200): d3 within +-1% everywhere (its HBM is 1.4x the H100's, so the power-law rows'
# DRAM re-reads cost less; 64 x 64 power-law already runs at 0.9+ of uniform there).
exec bash docs/benchmarks/h100-2026-12-07-s46/call1.sh
