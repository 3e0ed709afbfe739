// CSR -> BSR symbolic kernel: per block row, the sorted union of the block columns of its R CSR
// rows, found by merging the R sorted column lists (no global sort).
//
// A group of G lanes (G = the power of two >= R, at most 32) owns one block row; lane l owns the
// CSR rows l, l + G, l + 2G, ... of it (kRowsPerLane of them) and keeps a cursor per row. One
// merge step: every lane offers the smallest block column under its cursors, the group takes
// the minimum (xor shuffles), and every cursor sitting on that block column advances past it.
// So a block row costs (number of distinct block columns) steps, and every CSR entry is read
// once per pass. Two passes run the same merge:
//   count: distinct block columns per block row (-> row_ptr by a scan); also validates the CSR
//          pattern (row_ptr bounds, column range, strictly increasing columns) and records the
//          largest block row and the CSR entry offset of each block row;
//   fill:  writes col_idx and, for every CSR entry, its value offset inside its numeric tile
//          (the scatter map; see detail_csr_to_bsr_numeric.cuh for tiles).
//
// NOTES:
// - The merge loop runs until every group of the warp is done (__any_sync), so the shuffles are
//   always executed by the full warp; finished groups offer kDone.
// - On an invalid pattern the count pass still terminates and reads nothing out of bounds:
//   row bounds are clamped to [0, nnz], columns clamped to [0, cols), and every merge step
//   consumes at least one entry. The host throws before the fill pass runs.
// - kRowsPerLane == 0 selects the variant for R > 256: cursors live in shared memory (one warp
//   per CTA, 12 bytes per row of the block row) instead of registers.
#pragma once

#include <climits>
#include <cstdint>

#include "bsrflow/formats/detail_fastdiv.cuh"
#include "bsrflow/formats/detail_pattern_status.cuh"

namespace bsrflow::detail {

struct CsrMergeParams {
  int rows = 0;  // CSR rows
  int cols = 0;  // CSR columns
  int R = 1;
  int C = 1;
  int block_rows = 0;
  int group = 1;          // lanes per block row: power of two, min(32, >= R)
  int rows_per_lane = 1;  // ceil(R / group)
  std::int64_t nnz = 0;
  FastDiv div_C;  // block column of a column
  const int* row_ptr = nullptr;  // CSR, rows + 1
  const int* col_idx = nullptr;  // CSR, nnz
  // count pass
  int* block_counts = nullptr;  // block_rows: distinct block columns per block row
  int* entry_ptr = nullptr;     // block_rows + 1: CSR entry offset of each block row
  PatternStatus* status = nullptr;
  // fill pass
  const int* bsr_row_ptr = nullptr;  // block_rows + 1
  int* bsr_col_idx = nullptr;        // nnzb
  int* map = nullptr;                // nnz: value offset of each CSR entry inside its tile
  const int* tile_block = nullptr;   // tiles + 1: first block of each tile
  int tiles = 0;
  std::int64_t tile_work = 1;        // work units per tile (see tile_of_block_row)
  int block_size = 1;                // R * C
};

inline constexpr int kMergeThreads = 256;   // register-cursor variant
inline constexpr int kMergeMaxRegisterRows = 8;  // rows per lane held in registers (R <= 256)
inline constexpr int kMergeMaxR = 4096;     // shared-cursor variant: 3 * 4 * 4096 bytes = 48 KiB
inline constexpr int kMergeDone = INT_MAX;  // cursor past its row's end

// Work of the block rows before block row b, the measure tiles are cut by: one unit per BSR value
// written (zero fill included) plus one per CSR entry scattered.
__host__ __device__ inline std::int64_t tile_work_before(int bsr_blocks_before, int entries_before, int block_size) {
  return static_cast<std::int64_t>(bsr_blocks_before) * block_size + entries_before;
}

#if defined(__CUDACC__)

// Cursor storage: registers for a compile-time number of rows per lane, shared memory otherwise.
template <int kRowsPerLane>
struct MergeCursors {
  int pos[kRowsPerLane];
  int end[kRowsPerLane];
  int col[kRowsPerLane];  // column under the cursor (clamped into [0, cols))
  __device__ __forceinline__ int& p(int m) { return pos[m]; }
  __device__ __forceinline__ int& e(int m) { return end[m]; }
  __device__ __forceinline__ int& c(int m) { return col[m]; }
};
template <>
struct MergeCursors<0> {
  int* base;  // shared: pos[rows_per_lane][32], end[...][32], col[...][32]
  int lane;
  int stride;  // rows_per_lane * 32
  __device__ __forceinline__ int& p(int m) { return base[m * 32 + lane]; }
  __device__ __forceinline__ int& e(int m) { return base[stride + m * 32 + lane]; }
  __device__ __forceinline__ int& c(int m) { return base[2 * stride + m * 32 + lane]; }
};

template <bool kFill, int kRowsPerLane>
__global__ void __launch_bounds__(kMergeThreads) csr_to_bsr_merge_kernel(CsrMergeParams p) {
  constexpr unsigned kFull = 0xffffffffu;
  extern __shared__ int shared_cursors[];
  __shared__ int cta_max_count;

  const int lane = static_cast<int>(threadIdx.x & 31);
  const int G = p.group;
  const int lane_in_group = lane & (G - 1);
  // A compile-time trip count in the register variant, so the cursor arrays stay in registers.
  const int rows_per_lane = kRowsPerLane > 0 ? kRowsPerLane : p.rows_per_lane;
  const std::int64_t warp = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32;
  const std::int64_t block_row_64 = warp * (32 / G) + lane / G;
  const bool active = block_row_64 < p.block_rows;
  const int b = active ? static_cast<int>(block_row_64) : 0;
  const int first_row = b * p.R;

  if constexpr (!kFill) {
    if (threadIdx.x == 0) cta_max_count = -1;
    __syncthreads();
  }

  MergeCursors<kRowsPerLane> cur;
  if constexpr (kRowsPerLane == 0) {
    cur.base = shared_cursors + (threadIdx.x / 32) * 3 * rows_per_lane * 32;
    cur.lane = lane;
    cur.stride = rows_per_lane * 32;
  }

  // ---- open one cursor per owned row (rr = lane_in_group + m * G inside the block row) ----
  int first_entry = 0;  // CSR offset of the block row's first row (lane_in_group 0, m 0)
#pragma unroll
  for (int m = 0; m < rows_per_lane; ++m) {
    const int rr = lane_in_group + m * G;
    const int r = first_row + rr;
    int lo = 0, hi = 0;
    if (active && rr < p.R && r < p.rows) {
      lo = p.row_ptr[r];
      hi = p.row_ptr[r + 1];
      if constexpr (!kFill) {
        if ((r == 0 && lo != 0) || (r == p.rows - 1 && hi != p.nnz) || lo < 0 || hi < lo || hi > p.nnz)
          note_bad_row(&p.status->bad_row_ptr, r);
        lo = min(max(lo, 0), static_cast<int>(p.nnz));
        hi = min(max(hi, lo), static_cast<int>(p.nnz));
      }
    }
    if (m == 0) first_entry = lo;
    int c = 0;
    if (lo < hi) {
      c = p.col_idx[lo];
      if constexpr (!kFill) {
        if (c < 0 || c >= p.cols) note_bad_row(&p.status->bad_col_range, r);
        c = min(max(c, 0), max(p.cols - 1, 0));
      }
    }
    cur.p(m) = lo;
    cur.e(m) = hi;
    cur.c(m) = c;
  }

  // ---- fill pass: where this block row's blocks go, relative to its numeric tile ----
  int out_first = 0;        // first block of this block row in col_idx
  int tile_local_base = 0;  // (out_first - first block of the tile) * R * C
  if constexpr (kFill) {
    if (active) {
      out_first = p.bsr_row_ptr[b];
      const std::int64_t work = tile_work_before(out_first, p.entry_ptr[b], p.block_size);
      const std::int64_t tile = min(work / p.tile_work, static_cast<std::int64_t>(p.tiles - 1));
      tile_local_base = (out_first - p.tile_block[tile]) * p.block_size;
    }
  }

  // ---- merge: one step per distinct block column ----
  int count = 0;
  while (true) {
    int offer = kMergeDone;
#pragma unroll
    for (int m = 0; m < rows_per_lane; ++m)
      if (cur.p(m) < cur.e(m)) offer = min(offer, p.div_C.div(cur.c(m)));
    for (int offset = G >> 1; offset > 0; offset >>= 1) offer = min(offer, __shfl_xor_sync(kFull, offer, offset));
    const bool group_done = offer == kMergeDone;
    if (!__any_sync(kFull, !group_done)) break;
    if (group_done) continue;

    const int block_col = offer;
    if constexpr (kFill) {
      if (lane_in_group == 0) p.bsr_col_idx[out_first + count] = block_col;
    }
#pragma unroll
    for (int m = 0; m < rows_per_lane; ++m) {
      int pos = cur.p(m);
      const int end = cur.e(m);
      int c = cur.c(m);
      if (pos >= end || p.div_C.div(c) != block_col) continue;
      const int rr = lane_in_group + m * G;
      do {  // consume every entry of this row inside block column `block_col`
        if constexpr (kFill) p.map[pos] = tile_local_base + count * p.block_size + rr * p.C + (c - block_col * p.C);
        ++pos;
        if (pos < end) {
          const int next = p.col_idx[pos];
          if constexpr (!kFill) {
            if (next < 0 || next >= p.cols) note_bad_row(&p.status->bad_col_range, first_row + rr);
            else if (next <= c) note_bad_row(&p.status->bad_col_order, first_row + rr);
            c = min(max(next, 0), max(p.cols - 1, 0));
          } else {
            c = next;
          }
        }
      } while (pos < end && p.div_C.div(c) == block_col);
      cur.p(m) = pos;
      cur.c(m) = c;
    }
    ++count;
  }

  // ---- count pass: per-block-row results and the CTA's largest block row ----
  if constexpr (!kFill) {
    if (active && lane_in_group == 0) {
      p.block_counts[b] = count;
      p.entry_ptr[b] = first_entry;
      if (b == p.block_rows - 1) p.entry_ptr[p.block_rows] = static_cast<int>(p.nnz);
      atomicMax(&cta_max_count, count);
    }
    __syncthreads();
    if (threadIdx.x == 0) atomicMax(&p.status->max_row_count, cta_max_count);
  }
}

#endif  // __CUDACC__

}  // namespace bsrflow::detail
