#include "bsrflow/core/l2_flusher.hpp"

#include <cstdint>
#include <algorithm>

#include "bsrflow/core/error.hpp"

namespace bsrflow {

namespace {

constexpr std::size_t kLineBytes = 128;  // the only size discard.global.L2 takes

// Drops lines [0, lines) of `base` (128-byte aligned) from L2 without writing them back: their
// contents become undefined, which scratch may.
__global__ void discard_l2_lines_kernel(unsigned char* base, std::int64_t lines) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < lines; i += stride) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("discard.global.L2 [%0], 128;\n" ::"l"(base + i * kLineBytes) : "memory");
#endif
  }
}

}  // namespace

L2Flusher::L2Flusher(std::size_t l2_bytes, cudaStream_t stream) : scratch_(2 * l2_bytes, stream) {
  BSRFLOW_REQUIRE(reinterpret_cast<std::uintptr_t>(scratch_.data()) % kLineBytes == 0, Errc::cuda,
                  "L2Flusher: the scratch buffer is not 128-byte aligned");
}

void L2Flusher::flush(cudaStream_t stream) {
  scratch_.fill_bytes(next_value_, stream);
  next_value_ = (next_value_ + 1) & 0xFF;
  // Whole lines only: a partial last line is left in L2 (cudaMalloc allocations never share one).
  const auto lines = static_cast<std::int64_t>(scratch_.bytes() / kLineBytes);
  if (lines == 0) return;
  constexpr int kThreads = 256;
  const int blocks = static_cast<int>(std::min<std::int64_t>((lines + kThreads - 1) / kThreads, 4096));
  discard_l2_lines_kernel<<<blocks, kThreads, 0, stream>>>(scratch_.data(), lines);
  BSRFLOW_CUDA(cudaGetLastError());
}

}  // namespace bsrflow
