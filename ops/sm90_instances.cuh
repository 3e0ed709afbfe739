// The list of instantiated Hopper BSR GEMM configurations, shared by the four instantiation TUs
// (input dtype x B layout). X(R, K_CHUNK, SWATH, SWAP, COPY_ONLY).
//
// Each instantiation costs compile time (~1 s on the 2-core CI), so the list is the tuned
// configuration per block shape (tuning_sm90.hpp) for each k-chunk; for f16, the copy-only
// speed-of-light probe of each of them (both B layouts: the B loads differ; bf16 moves the same
// bytes, so its cases use the f16 probe); and for f16 with row-major B, the alternatives the
// benchmark measures against the tuned ones.
#pragma once

// Tuned: R -> (swath, orientation) of tuned_for(R, C, B layout), for k-chunks 16, 32, 64 (C = 16,
// 32, 64/128); 16 x 16 blocks with row-major B and N > 512 take swath 1024 (instantiated for both
// layouts, an autotuner candidate with column-major B), and swath 512 at R = 16 with 16-deep
// chunks stays for N <= 512, column-major B, the other widths' k_chunk = 16 option and the tuner.
#define BSRFLOW_SM90_TUNED(X)                                                                        \
  X(16, 16, 1024, true, false) X(16, 16, 512, true, false) X(16, 32, 512, true, false)             \
  X(16, 64, 512, true, false)                                                                        \
  X(32, 16, 512, true, false) X(32, 32, 512, true, false) X(32, 64, 512, true, false)               \
  X(64, 16, 256, false, false) X(64, 32, 256, false, false) X(64, 64, 256, false, false)            \
  X(128, 16, 256, false, false) X(128, 32, 256, false, false) X(128, 64, 256, false, false)

// Tuned for row-major B only (both input dtypes): R = 64 at swath 512 with 32-deep chunks, for
// near-equal block rows (tuning_sm90.hpp wide_swath_candidate).
#define BSRFLOW_SM90_TUNED_BROW(X) X(64, 32, 512, false, false)
#define BSRFLOW_SM90_TUNED_BROW_PROBES(X) X(64, 32, 512, false, true)
// The copy-only probes of the tuned configurations (bsr_bench's SOL source).
#define BSRFLOW_SM90_TUNED_PROBES(X)                                                                 \
  X(16, 16, 1024, true, true) X(16, 16, 512, true, true) X(16, 32, 512, true, true)                 \
  X(16, 64, 512, true, true)                                                                         \
  X(32, 16, 512, true, true) X(32, 32, 512, true, true) X(32, 64, 512, true, true)                  \
  X(64, 16, 256, false, true) X(64, 32, 256, false, true) X(64, 64, 256, false, true)               \
  X(128, 16, 256, false, true) X(128, 32, 256, false, true) X(128, 64, 256, false, true)

// Measured alternatives (square blocks only): f16, row-major B (perf_log entries 1-4 and 27).
#define BSRFLOW_SM90_ALTERNATIVES(X)                                                                 \
  X(16, 16, 256, true, false) X(32, 32, 256, true, false) X(64, 64, 256, true, false)               \
  X(128, 64, 128, false, false)

// Row groups (perf_log entries 48-51; swap-AB, items of G block rows, A gathered per run):
// G(R, K_CHUNK = C, SWATH, ROW_GROUP, ITEMS_PER_STAGE, COPY_ONLY), swaths as tuning_sm90.hpp
// row_group_swath (128 accumulators per thread), two items per stage at 16 x 16 too
// (tuned_items_per_stage); the copy-only probes for f16. G = 2 at twice the swath was measured
// and dropped (entry 49: its copy stream is no faster than the one-row design's).
#define BSRFLOW_SM90_ROW_GROUPS(G) G(16, 16, 512, 4, 1, false) G(16, 16, 512, 4, 2, false) G(32, 32, 256, 4, 1, false)
#define BSRFLOW_SM90_ROW_GROUP_PROBES(G) G(16, 16, 512, 4, 1, true) G(16, 16, 512, 4, 2, true) G(32, 32, 256, 4, 1, true)
