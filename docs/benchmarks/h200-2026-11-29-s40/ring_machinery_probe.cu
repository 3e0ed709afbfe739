// Session 40 probe (perf_log entry 62 part 5): which part of the skinny kernel's machinery costs
// what, built up from call 2's bulk ring (stream_pattern_probe.cu): 384 CTAs each stream their
// chunk of A (the 4096 x 16 x 11008 cases' 23 / 46 MB) as 2 KiB bulk copies, five a stage, four
// stages (the 32 x 32, N = 16 ring), L2 flushed, events around one launch, median of 15:
//   ring:       one thread issues and itself waits for each stage to land before reusing its slot;
//   +consumers: eight consumer warps wait for each stage and release it (one arrival each), the
//               producer waits for the release - the kernel's hand-off, without math;
//   +B:         each block's 1 KiB B slice too (a bulk copy from a 352 KiB B, column j * 97 mod
//               344: L2 hits after the first touch);
//   +2 prod:    two producer warps taking alternate stages (the kernel's producer);
//   +cols:      each block's column read from a col_idx array in DRAM before its B copy is issued.
// Build next to a bsrflow build tree:
//   nvcc -O3 -std=c++20 -gencode=arch=compute_90a,code=sm_90a -I build/include ring_machinery_probe.cu
//        build/core/libbsrflow_core.a -o ring_machinery_probe
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

constexpr int kStages = 4, kBlocks = 5, kABytes = 2048, kBBytes = 1024, kConsumerWarps = 8;
constexpr int kStageBytes = kBlocks * (kABytes + kBBytes);

__device__ __forceinline__ std::uint32_t saddr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void wait_parity(std::uint32_t bar, std::uint32_t parity) {
  std::uint32_t ok = 0;
  while (!ok)
    asm volatile("{\n.reg .pred q;\nmbarrier.try_wait.parity.shared::cta.b64 q, [%1], %2;\nselp.u32 %0, 1, 0, q;\n}\n"
                 : "=r"(ok)
                 : "r"(bar), "r"(parity)
                 : "memory");
}
__device__ __forceinline__ void bulk(std::uint32_t dst, const void* src, std::uint32_t bytes, std::uint32_t bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(dst),
               "l"(src), "r"(bytes), "r"(bar)
               : "memory");
}

struct Config {
  bool consumers, b_slices, cols;
  int producers;
};

// CTA j streams A's blocks [j n / G, (j + 1) n / G).
__global__ void ring_kernel(const unsigned char* a, std::int64_t blocks_total, const unsigned char* b, const int* cols,
                            Config cfg, unsigned* sink) {
  extern __shared__ __align__(128) unsigned char ring[];
  __shared__ __align__(8) std::uint64_t full[kStages], empty[kStages];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const std::int64_t G = gridDim.x, j = blockIdx.x;
  const std::int64_t begin = j * blocks_total / G, len = (j + 1) * blocks_total / G - begin;
  const int stages = static_cast<int>((len + kBlocks - 1) / kBlocks);
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(saddr(&full[s])));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(saddr(&empty[s])), "r"(kConsumerWarps));
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  if (warp >= kConsumerWarps) {  // producer warps
    const int pw = warp - kConsumerWarps;
    if (pw >= cfg.producers || lane != 0) return;
    for (int st = pw; st < stages; st += cfg.producers) {
      const int slot = st % kStages;
      const std::uint32_t parity = static_cast<std::uint32_t>((st / kStages) & 1);
      if (cfg.consumers) wait_parity(saddr(&empty[slot]), parity ^ 1);
      else if (st >= kStages) wait_parity(saddr(&full[slot]), parity ^ 1);  // the slot's last stage landed
      const std::int64_t first = st * static_cast<std::int64_t>(kBlocks);
      const int count = len - first < kBlocks ? static_cast<int>(len - first) : kBlocks;
      const std::uint32_t bar = saddr(&full[slot]);
      const std::uint32_t bytes = count * (kABytes + (cfg.b_slices ? kBBytes : 0));
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
      const std::uint32_t stage = saddr(ring) + slot * kStageBytes;
      for (int c = 0; c < count; ++c) {
        const std::int64_t blk = begin + first + c;
        bulk(stage + c * kABytes, a + blk * kABytes, kABytes, bar);
        if (cfg.b_slices) {
          const int col = cfg.cols ? __ldg(cols + blk) : static_cast<int>((blk * 97) % 344);
          bulk(stage + kBlocks * kABytes + c * kBBytes, b + static_cast<std::int64_t>(col) * kBBytes, kBBytes, bar);
        }
      }
    }
    if (!cfg.consumers)  // the last stages land before the CTA may leave
      for (int st = stages > kStages ? stages - kStages : 0; st < stages; ++st)
        wait_parity(saddr(&full[st % kStages]), static_cast<std::uint32_t>((st / kStages) & 1));
    return;
  }
  if (!cfg.consumers) return;
  for (int st = 0; st < stages; ++st) {  // consumers: wait for the stage, release it
    const int slot = st % kStages;
    wait_parity(saddr(&full[slot]), static_cast<std::uint32_t>((st / kStages) & 1));
    __syncwarp();
    if (lane == 0) asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(saddr(&empty[slot])) : "memory");
  }
  if (ring[0] == 0x5a && ring[1] == 0xa5 && threadIdx.x == 0) sink[0] = 1;
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
  unsigned char* b;
  CK(cudaMalloc(&b, 344 * kBBytes));
  CK(cudaMemset(b, 5, 344 * kBBytes));
  CK(cudaFuncSetAttribute(ring_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kStages * kStageBytes));
  std::printf("device %s (%d SMs); 384 CTAs, 4 stages of 5 x 2 KiB (+ 5 x 1 KiB of B)\n", dev.name.c_str(),
              dev.sm_count);
  std::printf("| MB of A | variant | us | GB/s of A |\n|---|---|---|---|\n");
  const Config configs[] = {{false, false, false, 1}, {true, false, false, 1}, {true, true, false, 1},
                            {true, true, false, 2}, {true, true, true, 2}};
  const char* names[] = {"ring", "+consumers", "+consumers +B", "+consumers +B +2 prod", "+consumers +B +2 prod +cols"};
  for (const std::size_t bytes : {std::size_t{22544384}, std::size_t{45088768}}) {  // 11008 / 22016 blocks
    const std::int64_t blocks = static_cast<std::int64_t>(bytes / kABytes);
    unsigned char* a;
    int* cols;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMemset(a, 3, bytes));
    std::vector<int> host_cols(static_cast<std::size_t>(blocks));
    for (std::int64_t i = 0; i < blocks; ++i) host_cols[i] = static_cast<int>((i * 97) % 344);
    CK(cudaMalloc(&cols, blocks * sizeof(int)));
    CK(cudaMemcpy(cols, host_cols.data(), blocks * sizeof(int), cudaMemcpyHostToDevice));
    for (int v = 0; v < 5; ++v) {
      const Config cfg = configs[v];
      const double ms = median_ms([&] {
        ring_kernel<<<384, 32 * (kConsumerWarps + 2), kStages * kStageBytes, s>>>(a, blocks, b, cols, cfg, sink);
      }, flusher, s);
      std::printf("| %.1f | %s | %.2f | %.0f |\n", bytes / 1e6, names[v], ms * 1e3, bytes / ms / 1e6);
    }
    CK(cudaFree(a));
    CK(cudaFree(cols));
  }
  return 0;
}
