// Plan-time construction of the Hopper BSR GEMM's persistent schedule (sm90_schedule.cuh walks it),
// in two steps:
// 1. Pieces (build_pieces): the block rows sorted longest first, rows longer than a limit cut
//    into even pieces whose f32 partial tiles a fix-up kernel reduces in a fixed order.
// 2. Tiles (assign_tiles): every (piece, swath group) in swath-major order, each handed to the
//    cluster with the least work so far (longest-processing-time). Every cluster ends up with
//    the same work, and since a tile is handed out when its cluster reaches that point in time,
//    the clusters running together work on the same one or two swaths of B (they stay in L2).
//    The last `tail_groups` swath groups take a finer piece list, so that the final tiles are
//    short enough for the clusters to finish together. On odd groups, pieces of at most
//    `reverse_max` blocks are marked to walk their blocks backwards (Tile::reverse).
//
// Both steps run on the device (CUB sort and scans; the assignment is one warp's greedy pass)
// and allocate; build_pieces synchronises `stream` once to learn its sizes, assign_tiles does not
// synchronise (its sizes follow from the piece lists). Host twins with the same results serve as
// the test oracle and document the rule.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/host_device.hpp"
#include "bsrflow/ops/sm90_gemm_params.hpp"
#include "bsrflow/ops/tuning_sm90.hpp"

namespace bsrflow::sm90 {

struct PieceList {
  DeviceBuffer<Piece> pieces;
  DeviceBuffer<SplitRow> split_rows;
  int num_pieces = 0;
  int num_split_rows = 0;
  int num_slots = 0;  // pieces of split rows
  int longest = 0;    // no piece is longer: min(longest row, limit)
};

struct HostPieceList {
  std::vector<Piece> pieces;
  std::vector<SplitRow> split_rows;
  int num_slots = 0;
};

// Longest piece allowed: max(kSplitMinBlocks, kSplitAverageFactor * average row length,
// nnzb * num_swaths / (fraction * ctas)) blocks, fraction = split_per_cta_fraction(R)
// (tuning_sm90.hpp). A tile longer than that would leave one CTA working long after the others.
int split_limit(std::int64_t nnzb, int block_rows, int num_swaths, int ctas, int fraction);

// Longest piece that walks backwards on odd swath groups: kReverseAverageFactor x the average
// row length (tuning_sm90.hpp); 0 for an empty matrix.
int reverse_limit(std::int64_t nnzb, int block_rows);

// The finer pieces of the last swath groups (tuning_sm90.hpp, kTail*): groups == 0 when the
// longest ordinary piece is already within the tail limit.
struct TailSplit {
  int groups = 0;
  int limit = 0;
};
TailSplit tail_split(std::int64_t nnzb, int block_rows, int groups, int clusters, int longest_piece);

// Clusters for `tiles` tiles of equal cost, each `depth` deep in K (blocks x C), on at most
// `most` clusters: the count in [most - most / kClusterTrimDivisor, most] whose rounds leave the
// fewest idle slots (ceil(tiles / c) * c), the larger on a tie (tuning_sm90.hpp). `most` when
// tiles <= most or depth < kClusterTrimMinDepth.
int balanced_clusters(std::int64_t tiles, std::int64_t depth, int most);

// Number of pieces a row of `length` blocks is cut into under `limit` (0: never split).
BSRFLOW_HD inline int pieces_for(int length, int limit) {
  return (limit > 0 && length > limit) ? (length + limit - 1) / limit : 1;
}

// The rows of a launch's last, partial wave of CTAs: from position `first` of the longest-first
// order on, each row is cut into `pieces` pieces, none shorter than `min_blocks` blocks (a shorter
// row gets fewer), so that they fill the wave (the skinny plan, tuning_skinny.hpp). The default
// cuts nothing.
struct LastWave {
  int first = 0x7fffffff;
  int pieces = 1;
  int min_blocks = 1;
};

// Pieces of the row at position `s` of the longest-first order, `length` blocks long.
BSRFLOW_HD inline int pieces_at(int s, int length, int limit, LastWave last) {
  if (s < last.first) return pieces_for(length, limit);
  const int fit = length / (last.min_blocks > 1 ? last.min_blocks : 1);
  return last.pieces < fit ? last.pieces : (fit > 1 ? fit : 1);
}

// Stored blocks of the longest block row (`row_ptr` on the device, block_rows >= 1); synchronises.
int longest_row(const int* row_ptr, int block_rows, cudaStream_t stream);

// `row_ptr` is a device pointer with block_rows + 1 entries. block_rows >= 1.
PieceList build_pieces(const int* row_ptr, int block_rows, int limit, cudaStream_t stream, LastWave last = {});

// split_of_slot[s] = j for every partial-tile slot s of split j: the slots_per_piece slots of each
// of its `count` pieces, from first_slot on (the skinny kernel's split rows: one per piece; the
// Hopper kernel's split tiles: one per CTA of a cluster). Enqueued on `stream`.
void fill_split_of_slot(const SplitRow* splits, int num_splits, int slots_per_piece, int* split_of_slot,
                        cudaStream_t stream);
void fill_split_of_slot(const SplitTile* splits, int num_splits, int slots_per_piece, int* split_of_slot,
                        cudaStream_t stream);

// Same result on the host from a host row_ptr.
HostPieceList build_pieces_host(const std::vector<int>& row_ptr, int limit, LastWave last = {});

struct ScheduleShape {
  int groups = 0;        // swath groups: ceil(num_swaths / cluster_size)
  int tail_groups = 0;   // the last ones, which take the tail piece list
  int clusters = 0;      // persistent clusters (<= kMaxClusters)
  int cluster_size = 1;  // CTAs per cluster
  int reverse_max = 0;   // odd groups walk pieces of at most this many blocks backwards (0: none)
  TileOverhead overhead{2, 2};  // a tile's cost beyond its blocks (tile_overhead(R))
};
constexpr int kMaxClusters = 256;  // the assignment warp keeps 8 cluster loads per lane

// What a tile costs the assignment: its blocks plus the per-tile overhead.
BSRFLOW_HD inline long long tile_cost(const Piece& p, const ScheduleShape& s) {
  return p.kb_end - p.kb_begin + (p.slot >= 0 ? s.overhead.split : s.overhead.whole);
}

// Which (swath group, list entry) the i-th item of the swath-major order is: groups before
// `tail_first` hold `per_main` entries of the main list each, later ones `per_tail` of the tail.
struct ItemRef {
  int group;
  int entry;
  bool tail;
};
BSRFLOW_HD inline ItemRef item_ref(std::int64_t i, int per_main, int per_tail, int tail_first) {
  const std::int64_t main_items = static_cast<std::int64_t>(tail_first) * per_main;
  if (i < main_items) return {static_cast<int>(i / per_main), static_cast<int>(i % per_main), false};
  const std::int64_t t = i - main_items;
  return {tail_first + static_cast<int>(t / per_tail), static_cast<int>(t % per_tail), true};
}

// First partial tile of swath group g: the main list's slots for each group before the tail,
// then the tail list's, each slot cluster_size tiles (one per rank).
BSRFLOW_HD inline std::int64_t partial_base(int g, const ScheduleShape& s, int main_slots, int tail_slots) {
  const int tail_first = s.groups - s.tail_groups;
  const std::int64_t slots = g < tail_first ? static_cast<std::int64_t>(g) * main_slots
                                            : static_cast<std::int64_t>(tail_first) * main_slots +
                                                  static_cast<std::int64_t>(g - tail_first) * tail_slots;
  return slots * s.cluster_size;
}

struct Schedule {
  DeviceBuffer<Tile> tiles;          // per cluster, in execution order
  DeviceBuffer<int> cluster_begin;   // clusters + 1
  DeviceBuffer<SplitTile> splits;    // what the fix-up reduces
  int num_tiles = 0;
  int num_splits = 0;
  int num_split_rows = 0;            // block rows cut in at least one swath group
  std::int64_t num_partials = 0;     // f32 (R x swath) workspace tiles
};

struct HostSchedule {
  std::vector<Tile> tiles;
  std::vector<int> cluster_begin;
  std::vector<SplitTile> splits;
  std::int64_t num_partials = 0;
};

// `tail` is used only when shape.tail_groups > 0. Errors (unsupported) when the tiles, split
// tiles or partial tiles pass the kernel's 32-bit indices or clusters > kMaxClusters.
Schedule assign_tiles(const PieceList& main, const PieceList& tail, const ScheduleShape& shape, cudaStream_t stream);

HostSchedule assign_tiles_host(const HostPieceList& main, const HostPieceList& tail, const ScheduleShape& shape);

}  // namespace bsrflow::sm90
