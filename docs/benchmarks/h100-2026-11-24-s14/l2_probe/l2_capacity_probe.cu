// How much data can every SM of the GPU re-read from L2 at L2 speed? (session 14, perf_log entry 31)
//
// A grid of 4 CTAs per SM reads a buffer of S bytes `passes` times with 16-byte loads; pass p
// shifts which CTA reads which part (by a third of the buffer plus p blocks), so every line is
// re-read by other SMs each pass, as A and B are in the GEMM. Reported: bytes read per second
// over passes 2.. (pass 1 warms L2), for S from 4 to 96 MiB. Above the L2 capacity that the
// SMs share, the rate falls to the DRAM rate.
//
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a l2_capacity_probe.cu -o l2_capacity_probe
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#define CHECK(x)                                                                   \
  do {                                                                             \
    cudaError_t e = (x);                                                           \
    if (e != cudaSuccess) {                                                        \
      std::printf("%s failed: %s\n", #x, cudaGetErrorString(e));                   \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

__global__ void reread(const uint4* __restrict__ buf, std::size_t n, int passes, unsigned long long* sink) {
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  uint4 acc = make_uint4(0, 0, 0, 0);
  for (int p = 0; p < passes; ++p) {
    // Shift the mapping each pass so that a line is read by a different SM than last time.
    const std::size_t shift = (n / 3 + static_cast<std::size_t>(p) * 4096 * blockDim.x) % n;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n; i += threads) {
      std::size_t j = i + shift;
      if (j >= n) j -= n;
      const uint4 v = __ldcg(buf + j);  // L2 only (no L1 reuse)
      acc.x ^= v.x, acc.y ^= v.y, acc.z ^= v.z, acc.w ^= v.w;
    }
  }
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x12345678u) atomicAdd(sink, 1ull);  // keeps the loads
}

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s: %d SMs, L2 %.1f MiB\n", prop.name, sms, prop.l2CacheSize / 1048576.0);
  const std::size_t max_bytes = std::size_t(96) << 20;
  uint4* buf = nullptr;
  unsigned long long* sink = nullptr;
  CHECK(cudaMalloc(&buf, max_bytes));
  CHECK(cudaMalloc(&sink, sizeof(unsigned long long)));
  CHECK(cudaMemset(buf, 1, max_bytes));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::printf("%10s %12s %12s\n", "MiB", "GB/s", "ms/pass");
  for (int mib : {4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 48, 56, 64, 96}) {
    const std::size_t n = (std::size_t(mib) << 20) / sizeof(uint4);
    const int passes = 20;
    reread<<<4 * sms, 256>>>(buf, n, 1, sink);  // warm
    CHECK(cudaEventRecord(a));
    reread<<<4 * sms, 256>>>(buf, n, passes, sink);
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    const double bytes = double(n) * sizeof(uint4) * passes;
    std::printf("%10d %12.0f %12.4f\n", mib, bytes / (ms * 1e-3) / 1e9, ms / passes);
  }
  return 0;
}
