#include "bsrflow/core/random_fill.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow {

namespace {

constexpr int kThreads = 256;

// splitmix64: a good 64-bit mix of a counter, so value i does not depend on thread layout.
__device__ inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

template <class T>
__global__ void fill_random_nonzero_kernel(T* data, std::int64_t count, std::uint64_t seed) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const std::uint64_t h = mix(seed ^ mix(static_cast<std::uint64_t>(i)));
    const double unit = static_cast<double>(h >> 11) * (1.0 / 9007199254740992.0);  // [0, 1), 53 bits
    const double magnitude = 0.25 + 0.75 * unit;
    data[i] = from_double<T>((h & 1u) ? magnitude : -magnitude);
  }
}

}  // namespace

template <class T>
void fill_random_nonzero(T* data, std::int64_t count, std::uint64_t seed, cudaStream_t stream) {
  BSRFLOW_REQUIRE(count >= 0, Errc::invalid_argument, "fill count must not be negative");
  if (count == 0) return;
  const auto blocks = static_cast<int>(std::min<std::int64_t>((count + kThreads - 1) / kThreads, 65536));
  fill_random_nonzero_kernel<T><<<blocks, kThreads, 0, stream>>>(data, count, seed);
  BSRFLOW_CHECK_LAUNCH("fill_random_nonzero_kernel");
}

template void fill_random_nonzero<__half>(__half*, std::int64_t, std::uint64_t, cudaStream_t);
template void fill_random_nonzero<__nv_bfloat16>(__nv_bfloat16*, std::int64_t, std::uint64_t, cudaStream_t);
template void fill_random_nonzero<float>(float*, std::int64_t, std::uint64_t, cudaStream_t);
template void fill_random_nonzero<double>(double*, std::int64_t, std::uint64_t, cudaStream_t);

}  // namespace bsrflow
