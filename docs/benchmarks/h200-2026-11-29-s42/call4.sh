#!/bin/bash
# Session 42 call 4 (H200): the sample apps and solver benchmarks on main (58a36af; the library
# code is 7dfa60d's) - cg_bench, the seven fem_solve configurations, gnn_layer (SBM, R-MAT, karate;
# pyg_compare.py if torch_geometric is present), spmv_bench, convert_bench - whose recorded figures
# were all H100's (docs/fem_solve.md, gnn_layer.md, benchmarks/cg_bench.md). No GPU tests or
# sanitizers (session 41 call 10 ran them on this library code).
BSRFLOW_GPU_SANITIZE=0 BSRFLOW_GPU_TESTS=0 BSRFLOW_GPU_BENCHES=cg_bench,fem_solve,gnn_layer,spmv_bench,convert_bench \
  timeout 540 bash tests/gpu_machine.sh run
