// Dense <-> BSR kernels. Symbolic (dense -> BSR): one flag per cell of the block grid, set by
// every non-zero entry inside it; a scan of the flags numbers the stored blocks in row-major
// block order, which is BSR order, so each flagged cell knows its block index and no sort is
// needed. Numeric: each BSR value gathers its dense entry (dense -> BSR) or scatters to it
// (BSR -> dense, after a 2D memset of the output).
//
// NOTES: many threads store 1 into the same flag; identical plain stores to one address are
// benign (whichever lands, the flag is 1) and cheaper than atomics.
#pragma once

#include <cstdint>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/formats/detail_block_values.cuh"
#include "bsrflow/formats/detail_fastdiv.cuh"

namespace bsrflow::detail {

// A dense operand as the kernels see it (element (i, j) at i * ld + j or j * ld + i).
struct DenseShape {
  int rows = 0;
  int cols = 0;
  std::int64_t ld = 0;
  bool row_major = true;
  // Extents along the leading (contiguous) and the strided dimension.
  int inner() const { return row_major ? cols : rows; }
  int outer() const { return row_major ? rows : cols; }
};

#if defined(__CUDACC__)

// Non-template kernels are static: this header belongs to one translation unit, and a second
// includer must not get duplicate symbols.

__device__ __forceinline__ std::int64_t dense_offset(const DenseShape& d, std::int64_t i, std::int64_t j) {
  return d.row_major ? i * d.ld + j : j * d.ld + i;
}

// Threads (x, y) of a CTA cover (contiguous, strided) dense positions: blockDim.x ~ the
// contiguous extent (up to the CTA), so reads are coalesced for wide and for skinny matrices.
template <class T>
__global__ void dense_block_flags_kernel(const T* __restrict__ data, DenseShape d, FastDiv div_R, FastDiv div_C,
                                         int block_cols, int* __restrict__ flags) {
  const int outer = d.row_major ? d.rows : d.cols;
  const int inner = d.row_major ? d.cols : d.rows;
  for (std::int64_t o = blockIdx.y * static_cast<std::int64_t>(blockDim.y) + threadIdx.y; o < outer;
       o += static_cast<std::int64_t>(gridDim.y) * blockDim.y) {
    for (std::int64_t x = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; x < inner;
         x += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
      // NaN != 0 is true (stored), -0.0 != 0 is false (not stored), as in the CPU oracle.
      if (to_double(data[o * d.ld + x]) != 0.0) {
        const int i = static_cast<int>(d.row_major ? o : x);
        const int j = static_cast<int>(d.row_major ? x : o);
        flags[static_cast<std::int64_t>(div_R.div(i)) * block_cols + div_C.div(j)] = 1;
      }
    }
  }
}

// Flagged cell g (of cells = block_rows * block_cols) becomes block pos[g]; the first cell of
// each block row (and the closing g == cells) gives row_ptr.
static __global__ void dense_bsr_blocks_kernel(std::int64_t cells, int block_cols, const int* __restrict__ flags,
                                        const int* __restrict__ pos, int* __restrict__ col_idx,
                                        int2* __restrict__ coord, int* __restrict__ row_ptr) {
  for (std::int64_t g = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; g <= cells;
       g += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const int br = static_cast<int>(g / block_cols);
    const int bc = static_cast<int>(g - static_cast<std::int64_t>(br) * block_cols);
    if (bc == 0) row_ptr[br] = pos[g];
    if (g < cells && flags[g] != 0) {
      const int k = pos[g];
      col_idx[k] = bc;
      coord[k] = make_int2(br, bc);
    }
  }
}

template <class T>
__global__ void __launch_bounds__(BlockChunks::kThreads)
    dense_to_bsr_numeric_kernel(BlockChunks chunks, std::int64_t nnzb, const int2* __restrict__ coord,
                                const T* __restrict__ data, DenseShape d, T* __restrict__ out) {
  for_each_chunk_value(chunks, nnzb, [&](std::int64_t k, int r, int c, std::int64_t v) {
    const int2 block = coord[k];  // (block row, block column)
    const std::int64_t i = static_cast<std::int64_t>(block.x) * chunks.R + r;
    const std::int64_t j = static_cast<std::int64_t>(block.y) * chunks.C + c;
    out[v] = i < d.rows && j < d.cols ? data[dense_offset(d, i, j)] : T(0.0f);  // padding: zero
  });
}

// After the output is zeroed: every stored in-range value to its dense slot. The block row of
// block k comes from a binary search over row_ptr (kept inside [0, block_rows) so a broken
// row_ptr cannot send reads astray); a block column outside the grid is skipped.
template <class T>
__global__ void __launch_bounds__(BlockChunks::kThreads)
    bsr_to_dense_kernel(BlockChunks chunks, std::int64_t nnzb, int block_rows, int block_cols,
                        const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                        const T* __restrict__ values, T* __restrict__ data, DenseShape d) {
  for_each_chunk_value(chunks, nnzb, [&](std::int64_t k, int r, int c, std::int64_t v) {
    int lo = 0, hi = block_rows;  // last b with row_ptr[b] <= k
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      if (row_ptr[mid] <= k) lo = mid;
      else hi = mid;
    }
    const int bc = col_idx[k];
    if (bc < 0 || bc >= block_cols) return;
    const std::int64_t i = static_cast<std::int64_t>(lo) * chunks.R + r;
    const std::int64_t j = static_cast<std::int64_t>(bc) * chunks.C + c;
    if (i < d.rows && j < d.cols) data[dense_offset(d, i, j)] = values[v];
  });
}

#endif  // __CUDACC__

}  // namespace bsrflow::detail
