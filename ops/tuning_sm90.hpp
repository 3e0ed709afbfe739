// Tuned defaults of the Hopper BSR GEMM per block shape, with the measurement behind each number
// (see docs/perf_log.md for the full log). The planner reads these; sm90_instances.cuh must
// instantiate every configuration named here (a CPU test checks that it does).
#pragma once

#include "bsrflow/ops/gemm_config.hpp"

namespace bsrflow::sm90 {

struct Tuning {
  int swath;
  GemmOrientation orientation;
  int cluster = 1;  // CTAs per cluster (2: A chunks multicast to a CTA pair)
};

// Per block height R, from perf_log.md entry 1 (H100, 8192^3 f16, 12.5% blocks):
// - R >= 64: direct orientation, 64 rows per consumer warpgroup, swath 256: 128 (R = 128) / 64
//   (R = 64) accumulators per thread and 4-5 stages of 64-deep chunks. Measured: 128: swath 256
//   465 TFLOPS vs swath 128 421; 64: direct 371 vs swap 361.
// - R <= 32: swap-AB (a 64-row wgmma-M on 16/32 rows would waste 75% / 50% of the tensor core),
//   swath 512: 32: 221 TFLOPS vs 173 at swath 256; 16: 66 vs 46 (the wider swath halves the
//   per-stage barrier and wgmma-issue overhead per flop); confirmed in entries 2-4.
// - CTA pairs (A chunks multicast, entry 7): R = 64 401 TFLOPS vs 373 single; 128 515 vs 525
//   (not load-bound there), 16 / 32 within 2% (A is 3-6% of a stage): pairs for 64 only.
// - k-chunk 64 (the default): 32-deep chunks with 8 stages lost at 64 (299 vs 383) and 128
//   (472 vs 526), entry 3.
constexpr Tuning tuned_for(int R) {
  switch (R) {
    case 16: return {512, GemmOrientation::swap};
    case 32: return {512, GemmOrientation::swap};
    case 64: return {256, GemmOrientation::direct, 2};
    default: return {256, GemmOrientation::direct};  // 128
  }
}

// Block heights / widths the fast kernel takes; anything else goes to the reference kernel.
constexpr bool supported_block_dim(int d) { return d == 16 || d == 32 || d == 64 || d == 128; }

// Stage ring depth bounds. More than 8 never helped the copy-only probe (DESIGN.md: 24 stages
// was worse than 8 for 16-row boxes); fewer than 2 cannot overlap load and math.
constexpr int kMinStages = 2;
constexpr int kMaxStages = 8;

// Long-row splitting: a block row is cut into pieces of at most
//   max(kSplitMinBlocks, kSplitAverageFactor * average row length,
//       total tile blocks / (kSplitPerCtaFraction * CTAs))
// blocks, so no single tile holds more than half of one CTA's fair share of the work.
constexpr int kSplitMinBlocks = 16;
constexpr int kSplitAverageFactor = 4;
constexpr int kSplitPerCtaFraction = 2;

}  // namespace bsrflow::sm90
