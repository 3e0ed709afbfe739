// The plain-data parameter block that crosses from the host into the Hopper BSR GEMM kernel
// (one __grid_constant__ argument), and the schedule records it points to.
//
// Host and device both include this; it holds no owning types.
#pragma once

#include <cuda.h>  // CUtensorMap (types only: libcuda is reached through the runtime's entry points)

#include <cstdint>

#include "bsrflow/core/dtype.hpp"

namespace bsrflow::sm90 {

// One piece of work along K: block row `row`, its stored blocks [kb_begin, kb_end) (indices into
// col_idx / values). A row far longer than average is cut into several pieces; each such piece
// writes raw f32 partial sums to workspace slot `slot` and a fix-up kernel reduces them in slot
// order (deterministic). slot < 0: the piece is the whole row and writes C directly.
struct Piece {
  int row;
  int kb_begin;
  int kb_end;
  int slot;
};

// A block row that was split: its pieces carry slots [first_slot, first_slot + count) of their
// piece list (one list serves every swath group that uses it).
struct SplitRow {
  int row;
  int first_slot;
  int count;
};

// One item of a row group (row-group kernels, Sm90Config::row_group > 1): a block column `col`
// stored in one or more of the group's block rows (bit r of `mask`: row r of the group), whose
// blocks lie at [first, first + popcount(mask)) of the per-run gathered copy of A's values, in
// row order. A group's items are in ascending column order (sm90_row_groups.hpp).
struct RowGroupItem {
  int col;
  int first;
  int mask;
  int unused;  // 16 bytes: one vector load per item
};

// Consumer warpgroups per CTA (KernelTraits::kConsumers): each stores its part of a tile.
constexpr int kConsumerWarpgroups = 2;

// One unit of a cluster's work: a piece of block row `row` on swath group `group` (swaths
// group * cluster + rank). slot >= 0: the piece's CTAs write raw f32 partial tiles number
// slot + rank of the workspace instead of C. reverse = 1: the producer walks the piece's blocks
// from the last to the first (ScheduleShape::reverse_max).
struct Tile {
  int row;
  int kb_begin;
  int kb_end;
  int slot;
  int group;
  int reverse;
};

// A (split block row, swath group) whose pieces left partial tiles: piece q of CTA rank r wrote
// tile first_slot + q * cluster + r; the fix-up kernel sums them in q order (deterministic).
struct SplitTile {
  int row;
  int group;
  int first_slot;
  int count;
};

struct GemmParams {
  // Loads.
  CUtensorMap tmap_a;  // A values as (C, R, nnzb), box (k_chunk, R, 1)
  // Row-major B: b_one_box == 0: (N, K), box (64, k_chunk), one box per 64-column panel of a stage;
  // b_one_box == 1: (64, K, N / 64) - the 64-column panels as a third dimension (stride 128 bytes),
  // box (64, k_chunk, swath / 64), the whole stage slice in one box. Column-major B: (K, N), box
  // (k_chunk, <=256).
  CUtensorMap tmap_b;
  CUtensorMap tmap_c;  // C for TMA stores: row-major (N, M) / column-major (M, N), box = one epilogue chunk
  const int* col_idx;  // nnzb block-column indices
  // Row-group kernels only: tiles are (group, swath) with Tile::row the group and kb_begin / kb_end
  // a range of `items`; A's blocks come from `a_gathered` (swizzled per block, in item order) by
  // one bulk copy per item. Group row r of group g is block row group_rows[g * row_group + r] (-1:
  // none; RowGroups::rows). Split pieces write partial tile (slot * row_group + r) for group row r.
  const RowGroupItem* items;
  const void* a_gathered;
  const int* group_rows;

  // Schedule (sm90_schedule_build.hpp): cluster c works through tiles[cluster_begin[c] ..
  // cluster_begin[c + 1]) in order. Both CTAs of a cluster (1 or 2 CTAs) take the same tiles - the
  // same A blocks, so rank 0 loads each A chunk once and multicasts it to both - on swaths
  // group * cluster + rank. A swath >= num_swaths (odd num_swaths) is a phantom: loaded
  // (zero-filled B) and computed, never stored.
  const Tile* tiles;
  const int* cluster_begin;  // clusters + 1 offsets into tiles
  int num_swaths;
  int cluster;  // CTAs per cluster: 1 or 2
  int stages;
  int block_c;           // C: the K extent of a block
  int chunks_per_block;  // C / k_chunk
  int b_one_box;         // see tmap_b
  int l2_evict_last;     // A's and B's TMA loads mark their L2 lines evict-last (else evict-normal)

  // Epilogue: C = alpha * acc + beta * C (C not read when beta == 0).
  void* c;
  std::int64_t ldc;
  int m;  // rows of C
  int n;  // columns of C
  int c_col_major;
  DType out;
  float alpha;
  float beta;
  float* partials;  // [partial tile][R][swath width] f32, for split rows
  int tma_store;    // beta == 0: stage chunks in the output dtype and TMA-store them asynchronously
  // Split pieces' partial tiles stored by TMA like C's chunks (direct orientation): `partials` as
  // (swath width, partial tiles x R) f32, box = one epilogue chunk.
  CUtensorMap tmap_partials;
  int tma_partials;
  // Readiness of split tiles for the fix-up kernel, which may run beside this kernel's last tiles
  // (programmatic dependent launch): once a warpgroup's part of a piece's partial tile is in
  // global memory, it adds 1 to split_ready[split_of_slot[slot]] (release). Null without splits.
  const int* split_of_slot;  // partial tile slot -> split tile index (SplitTile list)
  int* split_ready;          // per split tile; the fix-up kernel resets it
};

}  // namespace bsrflow::sm90
