// Tuning constants of the skinny BSR GEMM (skinny_kernel.cuh): where the planner sends a GEMM to
// it, its CTA shape and pipeline, and how block rows are cut into pieces. The measurements behind
// them are in docs/perf_log.md (entry 15).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace bsrflow::skinny {

// Widest N the planner sends to the skinny kernel (automatic choice): at N <= 64 the Hopper
// kernel's 256- / 512-column tiles are mostly zero fill and its tile count is the number of block
// rows, so it runs latency-bound on a fraction of the SMs.
constexpr int kMaxN = 64;

constexpr int kWarps = 8;
constexpr int kThreads = 32 * kWarps;
// Registers capped for three CTAs per SM (80 per thread), as many as ~64 KiB rings fit; the
// 64-wide tile (32 accumulators per thread) would spill there and keeps two (128).
constexpr int min_ctas_per_sm(int n_tiles) { return n_tiles >= 8 ? 2 : 3; }
// cp.async ring depth: kStages - 1 stages are in flight while one is computed.
constexpr int kStages = 4;
// Small blocks share a stage so that each stage moves about this many bytes (A + B slice).
constexpr int kStageTargetBytes = 16384;
constexpr int kMaxBlocksPerStage = 16;

// Pieces: the average row is cut into max(1, resident / block_rows) pieces, so that the pieces
// of the average rows fill one wave of the CTAs the GPU holds at once (ncu on 1.7-wave launches
// flagged the last partial wave); rows up to kRowSlack times that length stay whole, no piece is
// shorter than kMinPieceBlocks stored blocks (a split row costs an f32 partial tile written and
// read back), and no row is cut into more than kMaxPiecesPerRow pieces (the last CTA of a row
// sums them all).
constexpr double kRowSlack = 1.25;
constexpr int kMinPieceBlocks = 8;
constexpr int kMaxPiecesPerRow = 64;

// Output columns of one tile: 16, 32 or 64 (the kernel's template widths).
constexpr int tile_width(int n) { return n <= 16 ? 16 : n <= 32 ? 32 : 64; }

// Stored blocks per stage for R x C blocks and a tile `width` wide.
constexpr int blocks_per_stage(int R, int C, int width) {
  const int bytes = 2 * (R * C + C * width);
  return std::clamp(kStageTargetBytes / bytes, 1, kMaxBlocksPerStage);
}

// Dynamic shared memory: the ring, or the cross-warp reduction when it is larger.
constexpr int smem_bytes(int R, int C, int width) {
  const int stage = blocks_per_stage(R, C, width) * 2 * (R * C + C * width);
  const int strips = R / 16;
  const int kgroups = kWarps / strips;
  const int reduce = (kgroups - 1) * strips * (width / 8) * 4 * 32 * 4;
  return std::max(kStages * stage, reduce);
}

// Longest piece (in stored blocks) for nnzb blocks over block_rows rows whose longest has
// `longest` blocks, when `resident` CTAs of the kernel fit on the GPU at once.
inline int piece_limit(std::int64_t nnzb, int block_rows, int longest, int resident) {
  const int rows = std::max(block_rows, 1);
  const int per_row = std::max(1, resident / rows);
  const double average = static_cast<double>(nnzb) / rows;
  const auto even = static_cast<std::int64_t>(std::ceil(kRowSlack * average / per_row));
  const int capped = (longest + kMaxPiecesPerRow - 1) / kMaxPiecesPerRow;
  return static_cast<int>(std::max<std::int64_t>({kMinPieceBlocks, even, capped}));
}

}  // namespace bsrflow::skinny
