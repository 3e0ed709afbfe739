// Iteration over the values of BSR blocks for the element-wise conversion kernels (BSR -> CSR,
// dense -> BSR, BSR transpose): each CTA takes a chunk of whole blocks and its threads walk the
// chunk's R*C values in storage order, so reads (or writes) of the block values are coalesced
// whatever the block shape, and small blocks do not leave threads idle.
//
// NOTES: value indices inside a chunk stay below 2^31 (a chunk holds at most
// max(kChunkValues, R*C) values), so the (block, row, column) decomposition is two 32-bit fast
// divisions; only the global value index is 64-bit.
#pragma once

#include <cstdint>

#include "bsrflow/formats/detail_fastdiv.cuh"

namespace bsrflow::detail {

struct BlockChunks {
  int R = 1;
  int C = 1;
  int block_size = 1;       // R * C
  int blocks_per_cta = 1;   // max(1, kChunkValues / block_size)
  FastDiv div_block_size;
  FastDiv div_C;

  static constexpr int kChunkValues = 4096;
  static constexpr int kThreads = 256;

  BlockChunks() = default;
  BlockChunks(int r, int c)
      : R(r), C(c), block_size(r * c), blocks_per_cta(block_size >= kChunkValues ? 1 : kChunkValues / block_size),
        div_block_size(static_cast<std::uint32_t>(r * c)), div_C(static_cast<std::uint32_t>(c)) {}

  // CTAs needed for `blocks` blocks.
  unsigned grid(std::int64_t blocks) const {
    return static_cast<unsigned>((blocks + blocks_per_cta - 1) / blocks_per_cta);
  }
};

#if defined(__CUDACC__)

// Calls f(k, r, c, v) for every value of the CTA's chunk: block k, row r and column c inside the
// block, v = k * R * C + r * C + c (64-bit).
template <class F>
__device__ __forceinline__ void for_each_chunk_value(const BlockChunks& chunks, std::int64_t blocks, F&& f) {
  const std::int64_t first_block = static_cast<std::int64_t>(blockIdx.x) * chunks.blocks_per_cta;
  const std::int64_t left = blocks - first_block;
  const int chunk_blocks = static_cast<int>(left < chunks.blocks_per_cta ? left : chunks.blocks_per_cta);
  const int chunk_values = chunk_blocks * chunks.block_size;
  const std::int64_t first_value = first_block * chunks.block_size;
  for (int u = threadIdx.x; u < chunk_values; u += blockDim.x) {
    const int local_block = chunks.div_block_size.div(u);
    const int w = chunks.div_block_size.mod(u, local_block);  // (r, c) inside the block
    const int r = chunks.div_C.div(w);
    const int c = chunks.div_C.mod(w, r);
    f(first_block + local_block, r, c, first_value + u);
  }
}

#endif  // __CUDACC__

}  // namespace bsrflow::detail
