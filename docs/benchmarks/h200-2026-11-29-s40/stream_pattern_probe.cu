// Session 40 probe (perf_log entry 62): does the skinny kernel's access pattern - each CTA streams
// its own contiguous piece of A, a few hundred streams at once - read DRAM slower than the plain
// grid-stride read that issue 4's skinny bound was compared with?
// The same bytes (23 / 46 MB: the skinny suite's A at 25 / 50%) are read once per launch, L2
// flushed before each launch (bsrflow::L2Flusher, as bsr_bench), events around one launch, median
// of 15; GB/s on the bytes read and their fraction of a 1 GiB device copy (read + written):
//   grid:      grid-stride 16-byte loads, 4 x SMs CTAs of 512 threads (entry 45's plain read);
//   chunks:    G CTAs of 256 threads, CTA j reads bytes [j S / G, (j + 1) S / G) with 16-byte
//              loads, four in flight per thread;
//   bulk:      G CTAs, one thread each streams its chunk as 2 KiB cp.async.bulk copies into a ring
//              of 4 stages x 5 copies (the skinny kernel's 32 x 32 ring at N = 16, without B);
//   *_rot:     the same, CTA j starting 1/8 x (j mod 8) into its chunk and wrapping, so that the
//              streams' addresses at one moment are not one chunk stride apart.
// G = 384 (the 4096-row cases' pieces) and 344 (the 11008-row cases' whole rows).
// Build next to a bsrflow build tree (see call2.sh):
//   nvcc -O3 -std=c++20 -gencode=arch=compute_90a,code=sm_90a -I build/include stream_pattern_probe.cu
//        build/core/libbsrflow_core.a -o stream_pattern_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/l2_flusher.hpp"

using namespace bsrflow;

#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e = (x);                                                                   \
    if (e != cudaSuccess) {                                                                \
      std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e));        \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

__global__ void grid_read(const uint4* p, std::size_t n, unsigned* sink) {
  unsigned x = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const uint4 v = __ldcs(p + i);
    x ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (x == 0x12345678u) sink[0] = x;
}

// CTA j: uint4 elements [j n / G, (j + 1) n / G), from `rot` eighths in, wrapping.
__global__ void chunk_read(const uint4* p, std::size_t n, int rot, unsigned* sink) {
  const std::size_t G = gridDim.x, j = blockIdx.x;
  const std::size_t begin = j * n / G, len = (j + 1) * n / G - begin;
  const std::size_t start = rot ? (j % 8) * len / 8 : 0;
  unsigned x = 0;
  for (std::size_t i = threadIdx.x; i < len; i += 4 * static_cast<std::size_t>(blockDim.x)) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const std::size_t k = i + u * static_cast<std::size_t>(blockDim.x);
      v[u] = k < len ? __ldcs(p + begin + (start + k) % len) : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int u = 0; u < 4; ++u) x ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  if (x == 0x12345678u) sink[0] = x;
}

constexpr int kStages = 4, kCopies = 5, kCopyBytes = 2048;

// CTA j streams its chunk (whole 2 KiB copies) through a ring of kStages x kCopies copies: one
// thread waits for a stage's slot, then issues its copies; the stage's barrier completes on bytes.
__global__ void bulk_read(const unsigned char* p, std::size_t copies_total, int rot, unsigned* sink) {
  extern __shared__ __align__(128) unsigned char ring[];
  __shared__ __align__(8) std::uint64_t full[kStages];
  if (threadIdx.x != 0) return;
  const std::size_t G = gridDim.x, j = blockIdx.x;
  const std::size_t begin = j * copies_total / G, len = (j + 1) * copies_total / G - begin;
  const std::size_t start = rot ? (j % 8) * len / 8 : 0;
  for (int s = 0; s < kStages; ++s)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(&full[s]))));
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  const std::size_t stages = (len + kCopies - 1) / kCopies;
  for (std::size_t st = 0; st < stages + kStages; ++st) {
    if (st >= kStages) {  // stage st - kStages has landed: its slot is free
      const std::size_t done_stage = st - kStages;
      const std::uint32_t bar = static_cast<std::uint32_t>(__cvta_generic_to_shared(&full[done_stage % kStages]));
      const std::uint32_t parity = static_cast<std::uint32_t>((done_stage / kStages) & 1);
      std::uint32_t ok = 0;
      while (!ok)
        asm volatile("{\n.reg .pred q;\nmbarrier.try_wait.parity.shared::cta.b64 q, [%1], %2;\nselp.u32 %0, 1, 0, q;\n}\n"
                     : "=r"(ok)
                     : "r"(bar), "r"(parity)
                     : "memory");
    }
    if (st >= stages) continue;
    const int slot = static_cast<int>(st % kStages);
    const std::uint32_t bar = static_cast<std::uint32_t>(__cvta_generic_to_shared(&full[slot]));
    const std::size_t first = st * kCopies;
    const int count = len - first < kCopies ? static_cast<int>(len - first) : kCopies;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar),
                 "r"(static_cast<std::uint32_t>(count * kCopyBytes))
                 : "memory");
    for (int c = 0; c < count; ++c) {
      const std::size_t copy = begin + (start + first + c) % len;
      const std::uint32_t dst =
          static_cast<std::uint32_t>(__cvta_generic_to_shared(ring)) + (slot * kCopies + c) * kCopyBytes;
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(dst),
                   "l"(p + copy * kCopyBytes), "r"(kCopyBytes), "r"(bar)
                   : "memory");
    }
  }
  if (ring[0] == 0x5a && ring[1] == 0xa5) sink[0] = 1;
}

template <class F>
double median_ms(F&& launch, L2Flusher& flusher, cudaStream_t s, int iters = 15) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<float> t;
  for (int i = 0; i < iters + 3; ++i) {
    flusher.flush(s);
    CK(cudaEventRecord(a, s));
    launch();
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    CK(cudaGetLastError());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (i >= 3) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  return t[t.size() / 2];
}

int main() {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const DeviceInfo dev = device_info();
  L2Flusher flusher(dev.l2_bytes, s);
  unsigned* sink;
  CK(cudaMalloc(&sink, 4));
  double copy_gbps = 0;
  {
    const std::size_t bytes = std::size_t{1} << 30;
    void *x, *y;
    CK(cudaMalloc(&x, bytes));
    CK(cudaMalloc(&y, bytes));
    CK(cudaMemset(x, 1, bytes));
    const double ms = median_ms([&] { CK(cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, s)); }, flusher, s, 5);
    copy_gbps = 2.0 * bytes / ms / 1e6;
    CK(cudaFree(x));
    CK(cudaFree(y));
  }
  std::printf("device %s (%d SMs), copy 1 GiB %.0f GB/s (read + written)\n", dev.name.c_str(), dev.sm_count, copy_gbps);
  CK(cudaFuncSetAttribute(bulk_read, cudaFuncAttributeMaxDynamicSharedMemorySize, kStages * kCopies * kCopyBytes));
  std::printf("| MB | pattern | CTAs | us | GB/s | of copy |\n|---|---|---|---|---|---|\n");
  for (const std::size_t bytes : {std::size_t{23068672}, std::size_t{46137344}}) {  // 22 / 44 MiB
    unsigned char* a;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMemset(a, 3, bytes));
    const std::size_t n16 = bytes / 16, copies = bytes / kCopyBytes;
    auto report = [&](const char* name, int ctas, double ms) {
      const double gbps = bytes / ms / 1e6;
      std::printf("| %.1f | %s | %d | %.2f | %.0f | %.3f |\n", bytes / 1e6, name, ctas, ms * 1e3, gbps, gbps / copy_gbps);
    };
    const int grid = dev.sm_count * 4;
    report("grid", grid, median_ms([&] { grid_read<<<grid, 512, 0, s>>>(reinterpret_cast<const uint4*>(a), n16, sink); }, flusher, s));
    for (const int G : {384, 344}) {
      for (const int rot : {0, 1}) {
        report(rot ? "chunks_rot" : "chunks", G,
               median_ms([&] { chunk_read<<<G, 256, 0, s>>>(reinterpret_cast<const uint4*>(a), n16, rot, sink); }, flusher, s));
        report(rot ? "bulk_rot" : "bulk", G, median_ms([&] {
                 bulk_read<<<G, 32, kStages * kCopies * kCopyBytes, s>>>(a, copies, rot, sink);
               }, flusher, s));
      }
    }
    CK(cudaFree(a));
  }
  return 0;
}
