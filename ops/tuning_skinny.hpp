// Tuning constants of the skinny BSR GEMM (skinny_kernel.cuh): where the planner sends a GEMM to
// it, its CTA shape and pipeline, and how block rows are cut into pieces. The measurements behind
// them are in docs/perf_log.md (entry 15).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "bsrflow/ops/sm90_schedule_build.hpp"  // LastWave

namespace bsrflow::skinny {

// Widest N the planner sends to the skinny kernel (automatic choice): at N <= 64 the Hopper
// kernel's 256- / 512-column tiles are mostly zero fill and its tile count is the number of block
// rows, so it runs latency-bound on a fraction of the SMs.
constexpr int kMaxN = 64;

// Eight consumer warps (math) and two producer warps that take alternate stages and issue their
// TMA loads. One thread issues only ~5.4 TMA boxes a microsecond whatever their size, and the rate
// scales with the issuing threads (perf_log entry 60 part 10). H200, against one producer warp
// (entry 60 part 11): 32 x 32 at N = 16 (one lane issues ten boxes a stage) +6-17%, 64 x 64 -2 to
// 0%; where the lanes issue (lane_producer) -5 to +6%. One warp for the lane-producer plans only
// (entry 61, another unit, three rounds) lost up to 10% there (16 x 16 at N = 64 0.904, 16 x 32
// 0.924, 32 x 32 at 4096 x 64 x 11008, 50% 0.958) and gained at most 2.3%: two for every plan.
constexpr int kWarps = 8;
constexpr int kProducerWarps = 2;
constexpr int kThreads = 32 * (kWarps + kProducerWarps);
// Registers capped for three CTAs per SM (64 per thread), as many as ~64 KiB rings fit; a warp
// with a 64-wide row of tiles (32 accumulators per thread) would spill there and keeps two (96).
constexpr int min_ctas_per_sm(int warp_n_tiles) { return warp_n_tiles >= 8 ? 2 : 3; }
// TMA ring depth: kStages - 1 stages are in flight while one is computed. Deeper rings (6 or 8
// stages of 32 x 32 / 64 x 64 blocks at N = 64, two CTAs per SM) ran no faster (perf_log entries
// 17 and 58); with three CTAs per SM there is no shared memory for more stages, but larger ones
// gained where they were small (kWideMinBlocks, entry 60).
constexpr int kStages = 4;
// Small blocks share a stage so that each stage moves about this many bytes (A + B slice).
constexpr int kStageTargetBytes = 16384;
// ... but at width 64 at least kWideMinBlocks where that many fit in kStageMaxBytes, the most that
// keeps three CTAs per SM (their rings of 4 x 18 KiB, the 1 KiB alignment slack and the 1 KiB the
// GPU reserves per CTA: 3 x 74 KiB within the SM's 228 KiB): 32 x 32 blocks with their 64-wide
// slices (6 KiB) take three a stage instead of two. Their stream was short of bytes in flight - ncu:
// the producer waited for a free slot at nearly every stage while the consumers waited for data -
// and three gained 3-11% (H200, perf_log entry 60). Elsewhere larger stages measured mixed: 18 KiB
// for every shape lost 2-4% at 16 x 32, N = 16 and 32 x 16, N = 64; three 6 KiB blocks a stage at
// narrower widths gained 2-4% at 16 x 64 (width 32), -2 to +4% at 64 x 32 (width 32) and lost 1-2%
// at 32 x 64 (width 16).
constexpr int kStageMaxBytes = 18432;
constexpr int kWideMinBlocks = 3;
constexpr int kMaxBlocksPerStage = 16;

// Pieces: the average row is cut into max(1, resident / block_rows) pieces, so that the pieces
// of the average rows fill one wave of the CTAs the GPU holds at once (ncu on 1.7-wave launches
// flagged the last partial wave) - unless every SM has a row and the average row holds at most
// kWholeRowMaxBytes of A: then it stays whole. A split row's partial tile, ticket and sum add
// ~2.5 us to the end of a ~15 us kernel, more than a fuller wave returns for short rows; longer
// rows on one CTA each leave the SMs that hold two CTAs behind (perf_log entry 42: 172 rows of
// 64 x 64 blocks, N = 16, whole rows -10% / -4% at 128 KiB per row on an H100 / H200, but +10% on
// the H200 at 256 KiB). Rows up to kRowSlack times that length stay whole, no piece is shorter
// than kMinPieceBlocks stored blocks, and no row is cut into more than kMaxPiecesPerRow pieces
// (the last CTA of a row sums them all).
constexpr double kRowSlack = 1.25;
// CTAs per SM the pieces are planned for, at most: the narrow tiles fit four per SM by registers
// (56 per thread) but four waves' worth of smaller pieces cost 64 x 64 blocks up to 9% in split-row
// partials against planning for three (perf_log entry 17).
constexpr int kMaxPlannedCtasPerSm = 3;
constexpr int kMinPieceBlocks = 8;
constexpr std::int64_t kWholeRowMaxBytes = std::int64_t{128} << 10;
constexpr int kMaxPiecesPerRow = 64;

// Whole rows that take more than one wave of resident CTAs leave the GPU mostly idle in the last,
// partial wave. Its rows (the shortest, at the end of the longest-first order) are cut into
// round(wave / rows in it) pieces, at most kLastWaveMaxPieces and none shorter than
// kMinPieceBlocks (a split row's tail costs more than a short piece saves), so that they fill it (perf_log
// entry 45: 11008 x 64 x 4096, 32 x 32 blocks, 344 rows on 264 CTAs, 3 pieces: -10% / -14% at 25% /
// 50% density on an H100; 2 pieces -6% / -9%; 4 pieces lost, split rows' sums cost more).
constexpr int kLastWaveMaxPieces = 3;
inline sm90::LastWave last_wave(int block_rows, int wave) {
  if (wave < 1 || block_rows <= wave) return {};
  const int rows = block_rows % wave;  // rows of the last wave
  if (rows == 0) return {};
  const int pieces = std::clamp((wave + rows / 2) / rows, 1, kLastWaveMaxPieces);
  if (pieces < 2) return {};
  return {block_rows - rows, pieces, kMinPieceBlocks};
}

// Programmatic dependent launch (PDL): every CTA lets the next kernel in the stream launch at its
// entry and waits for the previous kernel before it touches an operand (only its piece record,
// plan-owned, comes first). Launched so, a product's CTAs take the SMs that the previous kernel's
// last CTAs free, their launch and set-up done under its tail - where that kernel lets them (a
// skinny product does). The plan launches so only where its CTAs fill at least kPdlMinWavePercent
// of one wave of resident CTAs: an early launch hands CTAs to the SMs that free first, and one that
// fills only part of the GPU may so load some SMs with more of them than a launch on an idle GPU
// would (a guess that fits the data, not measured). H200, chains of 8 products on different
// weights of the llm suite's shapes (perf_log entry 65 parts 2-5), time a product with PDL over
// without: CTAs >= 85% of a wave 0.91-1.00 on one unit and 0.92-0.99 on another (24 cases, 16 x 16
// to 64 x 64 blocks, N = 16 and 64; replayed from a CUDA graph 0.94-1.00 / 0.95-1.00); below it
// 0.95-1.20 (16 cases: 256 whole rows of 16 x 16 / 16 x 32 blocks 1.08-1.20, 172 rows of 64 x 32 /
// 64 x 64 at width 16 1.03-1.04, at width 64 0.95-0.97; 128 x 128 0.97-1.03). Single launches
// (bsr_bench) 0.98-1.02 either way.
constexpr int kPdlMinWavePercent = 85;
constexpr bool programmatic_launch(int ctas, int wave) {
  return wave > 0 && std::int64_t{ctas} * 100 >= std::int64_t{wave} * kPdlMinWavePercent;
}

// Output columns of one tile: 16, 32 or 64 (the kernel's template widths).
constexpr int tile_width(int n) { return n <= 16 ? 16 : n <= 32 ? 32 : 64; }

// Stored blocks per stage for R x C blocks and a tile `width` wide.
constexpr int blocks_per_stage(int R, int C, int width) {
  const int bytes = 2 * (R * C + C * width);
  const int blocks = std::clamp(kStageTargetBytes / bytes, 1, kMaxBlocksPerStage);
  const bool wide_min = width == 64 && blocks < kWideMinBlocks && kWideMinBlocks * bytes <= kStageMaxBytes;
  return wide_min ? kWideMinBlocks : blocks;
}

// The producer warp issues a stage's boxes one lane per block, a full stage's A blocks as one box,
// where its per-block instructions bound the kernel: many blocks per stage (small blocks), or
// 64-wide tiles of blocks up to 32 x 32 with more than one block per stage. Elsewhere one lane
// issues A and B block by block, which the stream of bytes prefers (H200, perf_log entry 57: 16 x
// 16 / 16 x 32 / 32 x 16 at N = 16 +86% / +38% / +10%, 16 x 16 and 32 x 32 at N = 64 +82% /
// +6-12%, 16 x 16 at N = 32 2.0x, 16 x 32 / 64 x 16 at N = 64 +29% / +6.5%; with it 32 x 32 at
// N = 16 / 32 lost 2-5% / 3.5%, 64 x 32 at N = 64 1.4%).
constexpr int kLaneProducerMinBlocks = 8;
constexpr int kLaneProducerMaxElements64 = 32 * 32;
constexpr bool lane_producer(int R, int C, int width) {
  const int bps = blocks_per_stage(R, C, width);
  if (C > 64 || bps < 2) return false;
  return bps >= kLaneProducerMinBlocks || (width == 64 && R * C <= kLaneProducerMaxElements64);
}

// Operands as 128-byte TMA rows (bsr_values_rows128_map, rows128_map; 128-byte swizzle) where
// their own rows are shorter: TMA moves a box row by row, and a row of 32 or 64 bytes is a request
// of its own. A's blocks are contiguous, so at C = 16 / 32 a block loads as R * C / 64 whole
// 128-byte rows instead of R short ones; a packed B (ld == width: its slice under a block is
// contiguous) at width 16 / 32 as C * width / 64 rows instead of C. 32 x 32 at N = 16: 16 + 8
// requests a block instead of 32 + 32 (H200, perf_log entry 59: 32 x 32 +3-11%, 64 x 64 -2 to +5%
// at N = 16). At width 64, where B's slices are 128-byte rows already and twice A's bytes, packed A
// read 0.995 of A's 64-byte rows (12 cases, two calls; 64 x 64 controls 1.003): not applied there.
// A block (and a B slice) must span whole 1024-byte swizzle periods, so that the consumer's
// per-lane swizzle key holds for every block of a stage.
constexpr bool a_rows_packed(int R, int C, int width) {
  return width <= 32 && (C == 16 || C == 32) && (R * C * 2) % 1024 == 0;
}
// B row-major with ld == n == width (16 or 32) and K * width a multiple of 64 (whole rows; slices
// past K read zeros).
constexpr bool b_rows_packed(int C, int width, bool b_row_major, std::int64_t ldb, int n, std::int64_t k) {
  return b_row_major && (width == 16 || width == 32) && ldb == width && n == width && (k * width) % 64 == 0 &&
         (C * width * 2) % 1024 == 0;
}

// A stage holds its A blocks, then (from the next 1024-byte boundary: TMA's 128-byte swizzle is
// defined on absolute address bits, so swizzled tiles start 1024-aligned) the B slices under them.
constexpr int round_up_1024(int bytes) { return (bytes + 1023) / 1024 * 1024; }
constexpr int stage_a_bytes(int R, int C, int width) { return round_up_1024(blocks_per_stage(R, C, width) * 2 * R * C); }
constexpr int stage_bytes(int R, int C, int width) {
  return stage_a_bytes(R, C, width) + round_up_1024(blocks_per_stage(R, C, width) * 2 * C * width);
}

// Dynamic shared memory for `warp_nt` n8 tiles per warp (warp_n_tiles): the ring (or the cross-warp
// reduction when that is larger, which reuses it), plus 1024 bytes to align it (dynamic shared
// memory is only 16-byte aligned).
constexpr int smem_bytes(int R, int C, int width, int warp_nt) {
  const int strips = R / 16;
  const int kgroups = kWarps / (strips * (width / 8 / warp_nt));
  const int reduce = (kgroups - 1) * strips * (width / 8) * 4 * 32 * 4;
  return std::max(kStages * stage_bytes(R, C, width), reduce) + 1024;
}

// Whether the plan keeps the average row whole: every SM has a row and it holds at most
// kWholeRowMaxBytes of A (nnzb blocks of `block_bytes` bytes over block_rows rows).
inline bool rows_stay_whole(std::int64_t nnzb, int block_rows, int sms, int block_bytes) {
  const int rows = std::max(block_rows, 1);
  const double average = static_cast<double>(nnzb) / rows;
  return rows >= sms && average * block_bytes <= static_cast<double>(kWholeRowMaxBytes);
}

// n8 tiles of output one consumer warp owns: the whole width, except for 64-wide tiles of blocks
// of at most 32 rows and 64 columns whose rows stay whole. There two warps own the two 32-column
// halves of a strip (16 accumulators a thread instead of 32), so that three CTAs fit per SM instead
// of two (their rings do, up to 64 columns) and one wave holds 1.5x the rows. H200, 11008 x 64 x
// 4096 at 25% (whole rows; perf_log entry 58): 16 x 16 / 16 x 32 / 16 x 64 / 32 x 16 / 32 x 32 /
// 32 x 64 +52% / +51% / +45% / +33% / +32% / +30% (at 50%: 32 x 32 +17-24%, 32 x 64 +13%). A warp's
// k16 step then loads its A fragment for 4 mma instead of 8: 64-row blocks lost 3-8% on whole rows
// and 6-15% on split ones, and split rows of 32 x 32 blocks (4096 x 64 x 11008: 3 pieces a row
// instead of 2) up to 4%.
constexpr int kHalfWidthMaxRows = 32;
constexpr int kHalfWidthMaxCols = 64;
constexpr int warp_n_tiles(int R, int C, int width, bool whole_rows) {
  const bool halves = width == 64 && whole_rows && R <= kHalfWidthMaxRows && C <= kHalfWidthMaxCols;
  return halves ? 4 : width / 8;
}

// Longest piece (in stored blocks) for nnzb blocks of `block_bytes` bytes over block_rows rows
// whose longest has `longest` blocks, when `resident` CTAs of the kernel fit on the GPU's `sms`
// SMs at once.
inline int piece_limit(std::int64_t nnzb, int block_rows, int longest, int resident, int sms, int block_bytes) {
  const int rows = std::max(block_rows, 1);
  const double average = static_cast<double>(nnzb) / rows;
  const bool whole = rows_stay_whole(nnzb, block_rows, sms, block_bytes);
  const int per_row = whole ? 1 : std::max(1, resident / rows);
  const auto even = static_cast<std::int64_t>(std::ceil(kRowSlack * average / per_row));
  const int capped = (longest + kMaxPiecesPerRow - 1) / kMaxPiecesPerRow;
  return static_cast<int>(std::max<std::int64_t>({kMinPieceBlocks, even, capped}));
}

}  // namespace bsrflow::skinny
