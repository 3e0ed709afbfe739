// Tuned defaults of the Hopper BSR GEMM per block shape, with the measurement behind each number
// (see docs/perf_log.md for the full log). The planner reads these; sm90_instances.cuh must
// instantiate every configuration named here (a CPU test checks that it does).
#pragma once

#include <cstdint>

#include "bsrflow/ops/gemm_config.hpp"

namespace bsrflow::sm90 {

struct Tuning {
  int swath;
  GemmOrientation orientation;
};

// Per block height R, from perf_log.md entry 1 (H100, 8192^3 f16, 12.5% blocks):
// - R >= 64: direct orientation, 64 rows per consumer warpgroup, swath 256: 128 (R = 128) / 64
//   (R = 64) accumulators per thread and 4-5 stages of 64-deep chunks. Measured: 128: swath 256
//   465 TFLOPS vs swath 128 421; 64: direct 371 vs swap 361.
// - R <= 32: swap-AB (a 64-row wgmma-M on 16/32 rows would waste 75% / 50% of the tensor core),
//   swath 512: 32: 221 TFLOPS vs 173 at swath 256; 16: 66 vs 46 (the wider swath halves the
//   per-stage barrier and wgmma-issue overhead per flop); confirmed in entries 2-4.
// - k-chunk 64 (the default): 32-deep chunks with 8 stages lost at 64 (299 vs 383) and 128
//   (472 vs 526), entry 3.
// - 16 x 16 blocks with row-major B (16-deep stages): swath 1024, 6 stages of 32 KiB B slices.
//   Each stage carries twice the work of a 512-wide one for the same producer handshake, which is
//   what bounds this shape on the H200 (entry 25): +20% there, +1-3% on the H100 (entries 27,
//   33). Column-major B keeps 512 (its 1024-wide stage takes four boxes: -6% on the H200), and
//   so do wider blocks (at C = 32 a 1024-wide stage leaves 3 stages and lost 7%, entry 27) and
//   N <= 512 (one 512-wide swath holds it; a 1024-wide one would double the MMA work on zero fill).
// - R = 64 with row-major B, C >= 32 and N >= 1024, block rows near-equal (wide_swath_rows):
//   swath 512 with 32-deep chunks (5 stages of 36 KiB; 64-deep ones leave 2). Each consumer
//   warpgroup then owns 64 x 256 outputs, as at R = 128, and a pair's A chunk serves 1024 columns:
//   B + A bytes from L2 per FMA fall 5.6%. Measured (perf_log entry 46, H100, 8192^3, TFLOPS,
//   swath 256 -> 512): 12.5% uniform 418 -> 428 (its probe 428 -> 455), 50% 443 -> 477;
//   power-law rows 395 -> 388 (2% slower), hence near-equal rows only. 16-deep chunks (8 stages)
//   were slower still (405 / 450 / 375), so C = 16 keeps swath 256.
constexpr bool wide_swath_candidate(int R, int C, Layout b_layout, std::int64_t n) {
  return R == 64 && C >= 32 && b_layout == Layout::row_major && n >= 1024;
}
// Near-equal block rows for the wide swath: the longest holds at most kWideSwathRowFactor x the
// average (uniform rows: 1).
constexpr int kWideSwathRowFactor = 2;
constexpr bool wide_swath_rows(int longest, std::int64_t nnzb, int block_rows) {
  return nnzb > 0 && static_cast<std::int64_t>(longest) * block_rows <= kWideSwathRowFactor * nnzb;
}
// `near_equal_rows`: the pattern's rows pass wide_swath_rows (the planner measures them only where
// wide_swath_candidate holds; false where unknown).
constexpr Tuning tuned_for(int R, int C, Layout b_layout, std::int64_t n, bool near_equal_rows) {
  switch (R) {
    case 16: return {C == 16 && b_layout == Layout::row_major && n > 512 ? 1024 : 512, GemmOrientation::swap};
    case 32: return {512, GemmOrientation::swap};
    case 64:
      return {wide_swath_candidate(R, C, b_layout, n) && near_equal_rows ? 512 : 256, GemmOrientation::direct};
    default: return {256, GemmOrientation::direct};  // 128
  }
}

// CTAs per cluster (2: CTA pairs sharing each A chunk by multicast) for block height R.
// Measured (H100, perf_log entries 7, 12 and 19):
// - R = 64: pairs +8% at 12.5% and 50% density, +1% at 3%.
// - R = 128, with 32-deep chunks (entry 19): bsr_bench 8192^3 12.5% +4.5% (f16) / +5.5% (bf16)
//   and power-law rows +21% against single CTAs with 64-deep chunks; 50% density equal to pairs
//   with 64-deep chunks (which were +5-7% over single CTAs there); 3% (2 blocks per row) within
//   noise of every variant. Pairs now take 64-deep chunks (tuned_k_chunk, entry 54).
// - R = 16 / 32 (swap-AB): within 2% (A is 3-6% of a stage): single CTAs.
constexpr int tuned_cluster(int R) { return R >= 64 ? 2 : 1; }

// K depth of one stage (0 = Sm90Config's default, min(C, 64)). R = 128 keeps the default: 4
// stages of 48 KiB. 32-deep chunks (8 stages of 24 KiB) were its default in CTA pairs with
// row-major B from perf_log entry 19 (H100, 12.5%: 578 / 576 TFLOPS against 564 / 566) until the
// direct kernels held their 16-bit output in registers (entry 54): since then 64-deep chunks are
// ahead in every case measured (H200, 8192^3, 12.5% uniform f16 +1.4%, bf16 +0.8%, power-law
// +1.2%, 50% +1.2%, 3% +1.8%; entry 29 had already seen them ahead in 5 of 10 H100 calls, behind
// in 2). Single CTAs and column-major B lost with 32-deep chunks too (entry 19). R = 64 loses with
// them at swath 256 (410 vs 422).
// Swap-AB blocks (R = 16 / 32) at least 64 wide with row-major B: 32-deep chunks, 6 stages
// instead of 3 (perf_log entry 39; 8192^3 12.5%, TFLOPS, old -> new). H200 (session 20 call 4):
// 32x64 241-249 -> 260-263, 32x128 248 -> 262-264 (bf16 the same, power-law 232 -> 258, N = 512
// 190 -> 208), 16x64 126-130 -> 141-143 (power-law 129 -> 139-141, N = 512 122 -> 132), 16x128
// 128-130 -> 142. H100 (call 5): 16x64 120 -> 125, 16x128 120 -> 125, power-law 117 -> 121,
// 32x64 222 -> 234, 32x128 225 -> 234, power-law 212 -> 226. 16-deep chunks at R = 16 won on the
// H100 (+4-5%) but lost on the H200 (16x32 -12%), so 16x32 keeps its 32 (= C). Column-major B
// keeps min(C, 64): shallower chunks shrink its boxes' rows (32x64: 255 -> 219 at 32 deep).
// R = 64 at swath 512 (above): 32-deep chunks, single CTAs too (64-deep ones leave 2 stages).
constexpr int tuned_k_chunk(int R, int C, Layout b_layout, int swath) {
  if (b_layout != Layout::row_major) return 0;
  if (R == 64 && swath == 512 && C >= 32) return 32;
  if (R <= 32 && C >= 64) return 32;
  return 0;
}

// Row groups (Sm90Config::row_group, perf_log entries 48-49): kRowGroupRows consecutive block
// rows per tile, swath 512 at 16 x 16 and 256 at 32 x 32, so that a consumer warpgroup holds 128
// accumulators (4 rows x 4 or 2 m-tiles x 8 or 16). Instantiated for square 16- and 32-row blocks
// (k-chunk = C). They pay where a group's rows share block columns: at density d a stage carries
// 4d / (1 - (1 - d)^4) blocks on uniform random rows (1.10 at 6.25%, 1.21 at 12.5%, 1.46 at 25%,
// 2.13 at 50%), against the fixed cost of the one-row kernel's stage. Measured in the library
// (entry 49, bsr_bench 8192^3 f16 uniform, row-major B, time of the one-row plan / the row-group
// plan in one process; H100 | H200):
//   16 x 16: 3% 0.84 | 0.77, 6.25% 0.97 | 0.89, 12.5% 1.11 | 1.00, 25% 1.32 | 1.17
//   32 x 32: 6.25% 0.84 | 0.77, 12.5% 0.98 | 0.88, 25% 1.15 | 1.04, 50% 1.46 | 1.28
// With the consumer's cheaper descriptors (entry 50) the crossings moved down (bsr_bench, same
// ratio; H100 | H200): 16 x 16 6.25% 0.98 | 0.96, 9% 1.07 | 1.03; 32 x 32 12.5% 0.98 | 0.98 (1.03
// on a second H100), 18.75% 1.08 | 1.09. With the swap-AB TMA-store epilogue (entry 52, which
// took the row-group kernels 6.6-8.3% and the one-row kernels 4.7-5.4% at 12.5%) they moved again
// (H100 | H200): row-major B, 16 x 16 3% 1.03 | 0.94, 4.5% 1.06 | 1.00, 6.25% 1.06 | 1.02;
// 32 x 32 9% 0.98 | 0.97, 10.5% 1.00 | 0.99, 12.5% 1.03 | 1.02, 15% 1.06 | 1.04. Column-major B,
// whose one-row kernel loads B as K-major boxes of 32- / 64-byte rows, slower per byte, so the
// bytes that row groups share are worth more: 16 x 16 3% 1.03 | 1.00, 4.5% 1.07 | 1.03, 12.5%
// 1.21 | 1.15; 32 x 32 3% 1.01 | 1.04, 4.5% 1.04 | 1.04, 12.5% 1.14 | 1.08. So the planner takes
// them from 4.5% (16 x 16) and 11% (32 x 32) with row-major B, from 3% with column-major B
// (kRowGroupMinDensity*; below 3% not measured), where the options leave the geometry to it.
constexpr int kRowGroupRows = 4;
constexpr double kRowGroupMinDensity16 = 0.045;
constexpr double kRowGroupMinDensity32 = 0.11;
constexpr double kRowGroupMinDensityColumnB = 0.03;
constexpr bool row_group_shape(int R, int C) { return (R == 16 || R == 32) && C == R; }
constexpr int row_group_swath(int R) { return R == 16 ? 512 : 256; }
// `density`: stored blocks / (block rows x block columns).
constexpr int tuned_row_group(int R, int C, Layout b_layout, double density) {
  if (!row_group_shape(R, C)) return 1;
  const double from = b_layout == Layout::col_major ? kRowGroupMinDensityColumnB
                      : R == 16                     ? kRowGroupMinDensity16
                                                    : kRowGroupMinDensity32;
  return density >= from ? kRowGroupRows : 1;
}

// Which block rows form a row group (sm90_row_groups.hpp): consecutive ones, or the rows sorted by
// length where that gives fewer items. Measured against consecutive groups in one process (perf_log
// entry 53, H100, bsr_bench 8192^3 f16 power-law rows, ~25% fewer items): 16 x 16 at 12.5% +3.5%,
// at 25% +10% (uniform and clustered rows keep consecutive groups: unchanged); 32 x 32 at 12.5%
// -2.5%, though its probe ran 21% faster: the consumer bounds the heavier items (1.6 blocks), and
// the schedule weighs every item as one stage, so the groups of four long rows run long. H200
// (call 3), whose 16 x 16 kernel takes two items per stage and was consumer-bound already (entry
// 51): 12.5% -6%, 25% +2%. So only the 16 x 16 kernel with one item per stage (the H100's plan)
// takes sorted groups.
constexpr bool row_groups_by_length(int R, int items_per_stage) { return R == 16 && items_per_stage == 1; }

// Items per stage of the 16 x 16 row-group kernel (Sm90Config::items_per_stage; perf_log entries
// 50-51): two items per ring stage pay the consumers' per-stage work (barrier wait, release, loop
// step) once per two items, but a stage is twice as large (6 stages of 36 KiB instead of 12 of 18)
// and is released only when both items are done, so fewer items are in flight. Measured
// (bsr_bench 8192^3 f16 12.5%, one process, time of one item / two items per stage; entry 51):
// H200 1.022 uniform, 1.048 power-law, 1.022 bf16 (consumer-bound); H100 0.967 uniform, 1.007
// power-law (load-bound: the shallower ring loses); entry 50 had 1.032 / 1.065 and 0.97 / 1.01 on
// other units. 32 x 32 at 4 two-item stages of 48 KiB: 0.965, so only 16 x 16 has them. The planner takes two on GPUs whose memory moves at least kTwoItemsMinBandwidth (the
// H200's 4.8 TB/s; the H100's 3.35 TB/s is below it): the two GPUs measured differ in memory
// speed, not in SMs or L2, and the loads keep up with the two-item consumer only on the faster one.
constexpr int kMaxItemsPerStage = 2;
constexpr double kTwoItemsMinBandwidth = 4.0e12;  // bytes per second, the device's peak
constexpr bool two_items_shape(int R, int C, int row_group) { return R == 16 && C == 16 && row_group > 1; }
constexpr int tuned_items_per_stage(int R, int C, int row_group, double memory_bandwidth) {
  return two_items_shape(R, C, row_group) && memory_bandwidth >= kTwoItemsMinBandwidth ? 2 : 1;
}

// Block heights / widths the fast kernel takes; anything else goes to the reference kernel.
constexpr bool supported_block_dim(int d) { return d == 16 || d == 32 || d == 64 || d == 128; }
// Swaths (N columns per tile) a kernel can be instantiated with; sm90_instances.cuh says which are.
constexpr bool supported_swath(int s) { return s == 128 || s == 256 || s == 512 || s == 1024; }

// Stage ring depth bounds. More than 8 never helped the copy-only probe (DESIGN.md: 24 stages
// was worse than 8 for 16-row boxes); fewer than 2 cannot overlap load and math.
constexpr int kMinStages = 2;
constexpr int kMaxStages = 8;
// Row-group kernels (small stages, KernelTraits::kMaxStages) ring up to kMaxStagesRowGroups.
constexpr int kMaxStagesRowGroups = 12;
// Block rows per row group, at most (sm90_row_groups.hpp).
constexpr int kMaxRowGroup = 8;

// Long-row splitting: a block row is cut into pieces of at most
//   max(kSplitMinBlocks, kSplitAverageFactor * average row length,
//       total tile blocks / (split_per_cta_fraction(R) * CTAs))
// blocks, so no single tile holds more than a fraction of one CTA's fair share of the work.
// The fraction is per block height (perf_log entry 13, H100, power-law rows, 8192^3 12.5%): at
// R = 128 a quarter of the old share (8: pieces of <= 32 blocks) gave 349 -> 370 TFLOPS - a
// 62-block piece held its cluster ~16 swath groups behind the others, out of L2's reach; at
// R = 64 it lost 2% (more partial tiles), at 32 it was equal.
constexpr int kSplitMinBlocks = 16;
constexpr int kSplitAverageFactor = 4;
constexpr int split_per_cta_fraction(int R) { return R == 128 ? 8 : 2; }

// Tile assignment (sm90_schedule_build.hpp, perf_log entry 13): each (piece, swath group) goes
// to the cluster with the least work so far, a tile costing its blocks + tile_overhead(R) (its
// epilogue, in blocks' worth of main-loop time; a split piece writes an f32 partial tile, twice
// C's bytes). Per-tile timers (entry 36, H100, 128 power-law): a 128 x 128 block takes ~1.8 us
// in the main loop with no per-tile intercept, an epilogue ~2.1 us (C) / ~4.7 us (partial
// tile): 1 and 3 blocks, where 2 and 2 had the clusters ending 228-294 us apart (replayed: the
// new weights end the last cluster 18 us sooner). At 64 the same timers give ~2 and ~3 blocks,
// and replaying other weights gains nothing there, so R <= 64 keeps 2 and 2.
// The last swath groups use finer pieces so the clusters can finish together: rows longer than
//   max(kTailMinBlocks, kTailAverageFactor * average row length, nnzb / clusters)
// are cut there, over enough groups to absorb the longest ordinary piece on every cluster's
// share: ceil(clusters * longest / (kTailAbsorbDivisor * nnzb)) groups. Modelled on the bench's
// power-law rows (8192^3, 12.5%): max / average cluster work 1.10-1.77 -> 1.00-1.05, B swaths
// in flight 5-21 -> 2-11, 4-25 MiB of partial tiles; uniform rows are never cut.
struct TileOverhead {
  int whole;  // a piece that is a whole block row: writes C
  int split;  // a split row's piece: writes an f32 partial tile
};
constexpr TileOverhead tile_overhead(int R) { return R == 128 ? TileOverhead{1, 3} : TileOverhead{2, 2}; }
constexpr int kTailMinBlocks = 4;
constexpr int kTailAverageFactor = 2;
constexpr int kTailAbsorbDivisor = 2;

// Cluster count for tiles of equal cost (every block row the same length, none split; perf_log
// entry 38). T such tiles on c clusters take ceil(T / c) rounds; where the last round is partial,
// its idle clusters leave the busy ones little faster (call 3: a 16th tile ran ~25% faster than
// the others, not 2x), so a few clusters fewer with a full last round finish sooner. The planner
// takes the c in [most - most / kClusterTrimDivisor, most] with the fewest slots ceil(T / c) * c,
// the larger c on a tie. Measured on the H100 (TFLOPS, `most` 66 pairs / 132 CTAs), 8192^3 12.5%
// uniform: 128 x 128 (1024 tiles) on 64 pairs 608 -> 644, 64 x 64 (2048) on 64 pairs 422 -> 432,
// 32 x 32 and 16 x 16 (4096) on 128 CTAs 229 -> 234 and 121 -> 125; M = 7936 at 128 (992 tiles) on
// 62 pairs 590 -> 630; N = 7680 at 128 (960) on 64 pairs 603 -> 635. Trimming 9-12% of the clusters
// lost 4-8% even with a full last round (960 tiles on 60 pairs: 580), hence the bound. Short
// tiles gain nothing: at 3% density (tiles 256 deep in K: 2 blocks of 128, 8 of 32) the trim
// gave -1.6% (H100, 128), +3% (H200, 128) and -1.7% (H200, 32), so it applies from
// kClusterTrimMinDepth on (12.5% and 50%: 1024 and 4096 deep, +1.3-5.6% on both GPUs).
constexpr int kClusterTrimDivisor = 16;
constexpr int kClusterTrimMinDepth = 512;

// Walk direction (perf_log entry 31): on odd swath groups, pieces of at most
// kReverseAverageFactor x the average row length walk their blocks backwards, so that a row's A
// chunks read last on the previous group are read first again while still in L2 (128 uniform
// +2-4%). Longer pieces (power-law heads) keep the forward walk: reversing them too cost 128
// power-law 2-3%, against ~1% with this limit (H100, session 15 call 7).
constexpr int kReverseAverageFactor = 2;

}  // namespace bsrflow::sm90
