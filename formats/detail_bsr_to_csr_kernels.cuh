// BSR -> CSR kernels. Symbolic: per block row, the CSR row width (stored blocks * C, less the
// padding columns of a partial last block) and entry count; per block, its placement in the
// CSR; the CSR column indices. Numeric: copy each in-range block value to its CSR slot.
//
// Placement of block k (block row b, block column bc) as int4 {base, row_stride, rows, cols}:
// its value (r, c) goes to CSR entry base + r * row_stride + c when r < rows and c < cols, where
// base = (CSR offset of row b*R) + (k - row_ptr[b]) * C and row_stride = width of block row b.
// The partial block of a block row is its last (col_idx is sorted), so every other block of the
// row is C columns wide and the offsets above hold.
//
// NOTES: a CSR row of block row b is the concatenation of row r of each of its blocks, so the
// numeric phase is a copy with runs of C contiguous values on both sides; the placement (16
// bytes per block) replaces a per-entry map (4 bytes per value).
#pragma once

#include <climits>
#include <cstdint>

#include "bsrflow/formats/detail_block_values.cuh"

namespace bsrflow::detail {

#if defined(__CUDACC__)

// Non-template kernels are static: this header belongs to one translation unit, and a second
// includer must not get duplicate symbols.

// One thread per block row (grid covers block_rows exactly, so the warp sum below is uniform).
// Bounds are clamped so a broken pattern reads nothing outside the arrays (it is rejected once
// the status comes back).
static __global__ void bsr_to_csr_widths_kernel(int block_rows, int rows, int cols, int R, int C, std::int64_t nnzb,
                                         const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                         int* __restrict__ width, int* __restrict__ entries,
                                         unsigned long long* total_entries) {
  const std::int64_t b = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  long long row_entries = 0;
  if (b < block_rows) {
    const std::int64_t lo = min(max(static_cast<std::int64_t>(row_ptr[b]), std::int64_t{0}), nnzb);
    const std::int64_t hi = min(max(static_cast<std::int64_t>(row_ptr[b + 1]), lo), nnzb);
    std::int64_t w = 0;
    if (hi > lo) {
      const std::int64_t last_first_col = static_cast<std::int64_t>(col_idx[hi - 1]) * C;
      const std::int64_t last_width = min(static_cast<std::int64_t>(C), max(cols - last_first_col, std::int64_t{0}));
      w = (hi - lo - 1) * C + last_width;
    }
    const std::int64_t rows_in = min(static_cast<std::int64_t>(R), rows - b * R);
    row_entries = rows_in * w;
    width[b] = static_cast<int>(min(w, static_cast<std::int64_t>(INT_MAX)));
    entries[b] = static_cast<int>(min(static_cast<std::int64_t>(row_entries), static_cast<std::int64_t>(INT_MAX)));
  }
  for (int offset = 16; offset > 0; offset >>= 1) row_entries += __shfl_down_sync(0xffffffffu, row_entries, offset);
  if ((threadIdx.x & 31) == 0 && row_entries > 0)
    atomicAdd(total_entries, static_cast<unsigned long long>(row_entries));  // integer: order-free
}

// row_ptr of the CSR rows of each block row; block row 0 also closes row_ptr[rows].
static __global__ void bsr_to_csr_rows_kernel(int block_rows, int rows, int R, const int* __restrict__ entry_offset,
                                       const int* __restrict__ width, int* __restrict__ csr_row_ptr, int total) {
  const std::int64_t b = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (b >= block_rows) return;
  if (b == 0) csr_row_ptr[rows] = total;
  const int rows_in = static_cast<int>(min(static_cast<std::int64_t>(R), rows - b * R));
  const int first = entry_offset[b];
  for (int r = 0; r < rows_in; ++r) csr_row_ptr[b * R + r] = first + r * width[b];
}

// One thread per stored block; its block row by binary search over row_ptr.
static __global__ void bsr_to_csr_placement_kernel(std::int64_t nnzb, int block_rows, int rows, int cols, int R, int C,
                                            const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                            const int* __restrict__ entry_offset, const int* __restrict__ width,
                                            int4* __restrict__ placement) {
  for (std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; k < nnzb;
       k += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    int lo = 0, hi = block_rows;  // last b with row_ptr[b] <= k
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      if (row_ptr[mid] <= k) lo = mid;
      else hi = mid;
    }
    const int b = lo;
    const int bc = col_idx[k];
    placement[k] = make_int4(entry_offset[b] + static_cast<int>(k - row_ptr[b]) * C, width[b],
                             static_cast<int>(min(static_cast<std::int64_t>(R), rows - static_cast<std::int64_t>(b) * R)),
                             static_cast<int>(min(static_cast<std::int64_t>(C), cols - static_cast<std::int64_t>(bc) * C)));
  }
}

static __global__ void __launch_bounds__(BlockChunks::kThreads)
    bsr_to_csr_columns_kernel(BlockChunks chunks, std::int64_t nnzb, const int4* __restrict__ placement,
                              const int* __restrict__ bsr_col_idx, int* __restrict__ csr_col_idx) {
  for_each_chunk_value(chunks, nnzb, [&](std::int64_t k, int r, int c, std::int64_t) {
    const int4 p = placement[k];  // {base, row_stride, rows, cols}
    if (r < p.z && c < p.w) csr_col_idx[p.x + r * p.y + c] = bsr_col_idx[k] * chunks.C + c;
  });
}

template <class T>
__global__ void __launch_bounds__(BlockChunks::kThreads)
    bsr_to_csr_numeric_kernel(BlockChunks chunks, std::int64_t nnzb, const int4* __restrict__ placement,
                              const T* __restrict__ bsr_values, T* __restrict__ csr_values) {
  for_each_chunk_value(chunks, nnzb, [&](std::int64_t k, int r, int c, std::int64_t v) {
    const int4 p = placement[k];
    if (r < p.z && c < p.w) csr_values[p.x + r * p.y + c] = bsr_values[v];
  });
}

#endif  // __CUDACC__

}  // namespace bsrflow::detail
