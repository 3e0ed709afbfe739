// CSR -> BSR numeric kernel: one CTA per tile (a run of whole block rows cut by the symbolic
// phase to roughly kCsrToBsrTileBytes of traffic). The CTA zero-fills the tile's BSR values with
// 16-byte stores, waits for its own stores (__syncthreads), then scatters the tile's CSR values
// through the int32 map, whose offsets are relative to the tile's first value.
//
//   reads:  nnz * (sizeof(T) + 4)      CSR values + map, each once, coalesced
//           2 * (tiles + 1) * 4        tile bounds (negligible)
//   writes: nnzb * R * C * sizeof(T)   every BSR value once to DRAM *if* the zero fill and the
//                                      scatter meet in L2 (a tile is written and patched by one
//                                      CTA within microseconds). Measured on the H100: 33% / 45% /
//                                      55% of the copy bandwidth at blocks 3 / 16 / 32, which
//                                      suggests they often do not (~69 MB of tiles in flight vs a
//                                      50 MB L2: evicted zero lines then take a partial-sector
//                                      read-modify-write). CsrToBsrNumeric::staged avoids the
//                                      question (detail_csr_to_bsr_staged.cuh,
//                                      docs/perf_log_convert.md).
//
// NOTES: a tile's values are contiguous (whole block rows) and its CSR entries are contiguous
// (the same rows), so no CTA touches another's values and no atomics are needed: the result is
// bitwise deterministic. Tile-relative offsets keep the map int32 however large nnzb * R * C is;
// the symbolic phase checks that a tile spans fewer than 2^31 values.
#pragma once

#include <cstdint>

namespace bsrflow::detail {

// Work per tile (in units of BSR values written + CSR entries scattered) is this many bytes
// divided by sizeof(T). 64 KiB: 16 16-byte stores per thread of a 256-thread CTA, enough to hide
// the CTA's start and barrier, small enough for thousands of CTAs on the benchmark matrices.
// NOTES: a first guess, not yet measured (the CPU machine has no GPU); tune on the H100/H200.
inline constexpr std::int64_t kCsrToBsrTileBytes = 64 * 1024;
inline constexpr int kCsrToBsrNumericThreads = 256;

template <class T>
struct CsrToBsrNumericParams {
  const T* csr_values = nullptr;   // nnz
  const int* map = nullptr;        // nnz: offset of each CSR value inside its tile's values
  const int* tile_block = nullptr;  // tiles + 1: first block of each tile
  const int* tile_entry = nullptr;  // tiles + 1: first CSR entry of each tile
  T* bsr_values = nullptr;         // nnzb * block_size
  int block_size = 1;              // R * C
};

#if defined(__CUDACC__)

// Zeroes out[0, count) with the CTA: scalar head up to 16-byte alignment, 16-byte body, tail.
template <class T>
__device__ __forceinline__ void cta_zero_fill(T* out, std::int64_t count) {
  static_assert(16 % sizeof(T) == 0, "value types divide a 16-byte vector");
  constexpr int kPerVector = 16 / sizeof(T);
  const auto address = reinterpret_cast<std::uintptr_t>(out);
  const std::int64_t head = min(count, static_cast<std::int64_t>(((16 - (address & 15)) & 15) / sizeof(T)));
  const std::int64_t vectors = (count - head) / kPerVector;
  const std::int64_t tail_start = head + vectors * kPerVector;
  const T zero = T(0.0f);
  for (std::int64_t i = threadIdx.x; i < head; i += blockDim.x) out[i] = zero;
  uint4* body = reinterpret_cast<uint4*>(out + head);  // (vectors) 16-byte stores
  for (std::int64_t i = threadIdx.x; i < vectors; i += blockDim.x) body[i] = make_uint4(0, 0, 0, 0);
  for (std::int64_t i = tail_start + threadIdx.x; i < count; i += blockDim.x) out[i] = zero;
}

template <class T>
__global__ void __launch_bounds__(kCsrToBsrNumericThreads) csr_to_bsr_numeric_kernel(CsrToBsrNumericParams<T> p) {
  const int tile = blockIdx.x;
  const int first_block = p.tile_block[tile];
  const int end_block = p.tile_block[tile + 1];
  const int first_entry = p.tile_entry[tile];
  const int end_entry = p.tile_entry[tile + 1];
  T* __restrict__ out = p.bsr_values + static_cast<std::int64_t>(first_block) * p.block_size;  // tile's values

  cta_zero_fill(out, static_cast<std::int64_t>(end_block - first_block) * p.block_size);
  __syncthreads();  // the scatter below overwrites zeros other threads stored

  const T* __restrict__ in = p.csr_values;
  const int* __restrict__ map = p.map;
  // 64-bit counter: with nnz near INT_MAX, an int e + blockDim.x would overflow before the test.
#pragma unroll 4
  for (std::int64_t e = first_entry + static_cast<std::int64_t>(threadIdx.x); e < end_entry; e += blockDim.x)
    out[map[e]] = in[e];
}

#endif  // __CUDACC__

}  // namespace bsrflow::detail
