// BSR transpose kernels. Symbolic: block columns as sort keys (the radix sort itself is in
// detail_primitives.cu), then per output block its column (the input block row, by binary
// search) and its row (for row_ptr). Numeric: each output value gathers its transposed input.
//
// NOTES: the sort is stable and the input blocks are numbered in (block row, block column)
// order, so within one block column the sorted blocks keep increasing block rows: the new
// col_idx comes out sorted with no second sort.
#pragma once

#include <cstdint>

#include "bsrflow/formats/detail_block_values.cuh"

namespace bsrflow::detail {

#if defined(__CUDACC__)

// Non-template kernels are static: this header belongs to one translation unit, and a second
// includer must not get duplicate symbols.

// Keys clamped into [0, block_cols) so that a broken pattern cannot break the sort's bit range
// (the pattern check rejects it before the result is used).
static __global__ void transpose_keys_kernel(std::int64_t nnzb, int block_cols, const int* __restrict__ col_idx,
                                      std::uint64_t* __restrict__ keys) {
  for (std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; k < nnzb;
       k += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    keys[k] = static_cast<std::uint64_t>(min(max(col_idx[k], 0), block_cols - 1));
}

// Output block k' = sorted position: its block row is the sorted key, its block column the block
// row of its source block.
static __global__ void transpose_blocks_kernel(std::int64_t nnzb, int in_block_rows, const int* __restrict__ in_row_ptr,
                                        const std::uint64_t* __restrict__ sorted_keys,
                                        const int* __restrict__ source, int* __restrict__ out_col_idx,
                                        int* __restrict__ out_block_row) {
  for (std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; k < nnzb;
       k += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const int src = source[k];
    int lo = 0, hi = in_block_rows;  // last b with in_row_ptr[b] <= src
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      if (in_row_ptr[mid] <= src) lo = mid;
      else hi = mid;
    }
    out_col_idx[k] = lo;
    out_block_row[k] = static_cast<int>(sorted_keys[k]);
  }
}

// Output blocks are C x R (chunks describe the output shape): output value (r, c) of block k is
// input value (c, r) of block source[k].
template <class T>
__global__ void __launch_bounds__(BlockChunks::kThreads)
    bsr_transpose_numeric_kernel(BlockChunks out_chunks, std::int64_t nnzb, const int* __restrict__ source,
                                 const T* __restrict__ in, T* __restrict__ out) {
  for_each_chunk_value(out_chunks, nnzb, [&](std::int64_t k, int r, int c, std::int64_t v) {
    // input block is out_chunks.C x out_chunks.R, row-major: (c, r) at c * out_chunks.R + r
    out[v] = in[static_cast<std::int64_t>(source[k]) * out_chunks.block_size + c * out_chunks.R + r];
  });
}

#endif  // __CUDACC__

}  // namespace bsrflow::detail
