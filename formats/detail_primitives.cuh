// Device-wide building blocks the symbolic phases share. The CUB algorithms are instantiated once,
// in detail_primitives.cu, behind these plain host functions: a CUB scan costs ~14 s of nvcc time
// per translation unit and a radix sort ~5 s more, so no other file includes CUB.
//
// Every function is stream-ordered on `stream`, allocates its temporary storage there (through
// DeviceBuffer, i.e. cudaMallocAsync) and never touches the legacy default stream. These are
// symbolic-phase tools: they allocate, so they are not for numeric phases.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "bsrflow/core/error.hpp"

namespace bsrflow::detail {

// out[i] = in[0] + ... + in[i-1] for i in [0, n); out[0] = 0. n < 2^31.
void exclusive_sum(const int* in, int* out, std::int64_t n, cudaStream_t stream);

// Stable ascending sort of (key, value) pairs by the low `end_bit` bits of the key (bits above
// must be zero). Stability is what lets the conversions keep input order among equal keys.
void sort_pairs(const std::uint64_t* keys_in, std::uint64_t* keys_out, const int* values_in, int* values_out,
                std::int64_t n, int end_bit, cudaStream_t stream);

// out[i] = i for i in [0, n).
void launch_iota(int* out, std::int64_t n, cudaStream_t stream);

// offsets[r] = first position p in sorted[0, n) with sorted[p] >= r, for r in [0, count]:
// the row_ptr of a pattern whose entries are sorted by row. sorted must be non-decreasing.
void launch_offsets_from_sorted(const int* sorted, std::int64_t n, int* offsets, int count, cudaStream_t stream);

// Smallest end_bit that holds every key in [0, max_key] (at least 1).
inline int bits_for(std::uint64_t max_key) {
  int bits = 1;
  while (bits < 64 && (max_key >> bits) != 0) ++bits;
  return bits;
}

// Stream-ordered copy of `count` elements device -> host (pageable host memory: the copy is
// complete once `stream` is synchronised).
template <class T>
void copy_to_host_async(T* host, const T* device, std::size_t count, cudaStream_t stream) {
  if (count > 0) BSRFLOW_CUDA(cudaMemcpyAsync(host, device, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
}

// Threads per block of the simple element-wise kernels, and a grid covering `n` items with a
// grid-stride loop (capped: the loop covers the rest).
inline constexpr int kElementwiseThreads = 256;
inline unsigned elementwise_grid(std::int64_t n) {
  const std::int64_t blocks = (n + kElementwiseThreads - 1) / kElementwiseThreads;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > 65535 * 16 ? 65535 * 16 : blocks));
}

}  // namespace bsrflow::detail
