// The list of instantiated Hopper BSR GEMM configurations, shared by the four instantiation TUs
// (input dtype x B layout). X(R, K_CHUNK, SWATH, SWAP, COPY_ONLY).
//
// Each instantiation costs compile time (~1 s on the 2-core CI), so the list is the tuned
// configuration per block shape (tuning_sm90.hpp) for each k-chunk; for f16, the copy-only
// speed-of-light probe of each of them (both B layouts: the B loads differ; bf16 moves the same
// bytes, so its cases use the f16 probe); and for f16 with row-major B, the alternatives the
// benchmark measures against the tuned ones.
#pragma once

// Tuned: R -> (swath, orientation) of tuned_for(R), for k-chunks 16, 32, 64 (C = 16, 32, 64/128).
#define BSRFLOW_SM90_TUNED(X)                                                                        \
  X(16, 16, 512, true, false) X(16, 32, 512, true, false) X(16, 64, 512, true, false)               \
  X(32, 16, 512, true, false) X(32, 32, 512, true, false) X(32, 64, 512, true, false)               \
  X(64, 16, 256, false, false) X(64, 32, 256, false, false) X(64, 64, 256, false, false)            \
  X(128, 16, 256, false, false) X(128, 32, 256, false, false) X(128, 64, 256, false, false)

// The copy-only probes of the tuned configurations (bsr_bench's SOL source).
#define BSRFLOW_SM90_TUNED_PROBES(X)                                                                 \
  X(16, 16, 512, true, true) X(16, 32, 512, true, true) X(16, 64, 512, true, true)                  \
  X(32, 16, 512, true, true) X(32, 32, 512, true, true) X(32, 64, 512, true, true)                  \
  X(64, 16, 256, false, true) X(64, 32, 256, false, true) X(64, 64, 256, false, true)               \
  X(128, 16, 256, false, true) X(128, 32, 256, false, true) X(128, 64, 256, false, true)

// Measured alternatives (square blocks only): f16, row-major B. Swath 1024 at R = 16 (with its
// probe) measured 1-3% faster than the tuned 512 on the H100 (perf_log entry 27): a candidate for
// the autotuner, not yet the default.
#define BSRFLOW_SM90_ALTERNATIVES(X)                                                                 \
  X(16, 16, 256, true, false) X(32, 32, 256, true, false) X(64, 64, 256, true, false)               \
  X(128, 64, 128, false, false) X(16, 16, 1024, true, false) X(16, 16, 1024, true, true)
