// Session 38 probe: what paces one CTA's stream of TMA boxes - the number of boxes or their bytes?
// Entry 60 part 7's timers: the skinny kernel's first ring goes out at ~0.1-0.15 us a box whatever
// the box's bytes (1-16 KiB), and at N = 16 the single-lane producer's ten boxes a stage take the
// whole stage period. Here one thread per CTA streams boxes of 128-byte rows (rows x 128 B: 1-16
// KiB) from its own part of a 2 GiB buffer (each line read once: DRAM) into a ring of `slots`
// boxes in flight, waiting on a slot's mbarrier before it reuses the slot; grids of 1, 2 or 3 CTAs
// per SM. Prints, per configuration, the boxes per microsecond per SM, the GB/s of the whole GPU,
// and the median SM cycles one box's issue instruction took (clock64 around it).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a tma_issue_probe.cu \
//          -L/usr/local/cuda/lib64/stubs -lcuda -o tma_issue_probe
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e));    \
      return 1;                                                                \
    }                                                                          \
  } while (0)

constexpr int kMaxSlots = 16;

__device__ __forceinline__ std::uint32_t saddr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// Each CTA streams `boxes` boxes of `rows` x 128 bytes (rows of a (64 halves, total_rows) map),
// its own consecutive rows, through `slots` ring slots of `rows` x 128 bytes each.
__global__ void stream_kernel(const __grid_constant__ CUtensorMap map, int rows, int boxes, int slots,
                              long long* issue_cycles, unsigned long long* elapsed_ns) {
  extern __shared__ unsigned char smem_raw[];
  __shared__ __align__(8) std::uint64_t full[kMaxSlots];
  if (threadIdx.x != 0) return;
  // 128-byte swizzled boxes land on 1024-byte boundaries (dynamic shared memory is 16-aligned).
  const std::uint32_t ring = (saddr(smem_raw) + 1023u) & ~1023u;
  const std::uint32_t box_bytes = static_cast<std::uint32_t>(rows) * 128u;
  for (int s = 0; s < slots; ++s)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(saddr(&full[s])));
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  unsigned long long t0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  const int row0 = blockIdx.x * boxes * rows;
  long long cycles = 0;
  for (int i = 0; i < boxes; ++i) {
    const int s = i % slots;
    const std::uint32_t bar = saddr(&full[s]);
    if (i >= slots) {  // the box that used this slot has landed
      const std::uint32_t parity = ((i / slots) - 1) & 1;
      std::uint32_t done = 0;
      while (!done)
        asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(bar), "r"(parity)
                     : "memory");
    }
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(box_bytes) : "memory");
    const long long c0 = clock64();
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n" ::"r"(
            ring + s * box_bytes),
        "l"(reinterpret_cast<std::uint64_t>(&map)), "r"(bar), "r"(0), "r"(row0 + i * rows)
        : "memory");
    cycles += clock64() - c0;
  }
  for (int i = max(0, boxes - slots); i < boxes; ++i) {  // the last boxes land
    const std::uint32_t bar = saddr(&full[i % slots]);
    const std::uint32_t parity = (i / slots) & 1;
    std::uint32_t done = 0;
    while (!done)
      asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
                   : "=r"(done)
                   : "r"(bar), "r"(parity)
                   : "memory");
  }
  unsigned long long t1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  issue_cycles[blockIdx.x] = cycles / boxes;
  elapsed_ns[blockIdx.x] = t1 - t0;
}

int main() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  const std::size_t bytes = std::size_t{2} << 30;
  const long long total_rows = static_cast<long long>(bytes / 128);
  void* buf = nullptr;
  CK(cudaMalloc(&buf, bytes));
  CK(cudaMemset(buf, 1, bytes));
  long long* d_cycles = nullptr;
  unsigned long long* d_ns = nullptr;
  CK(cudaMalloc(&d_cycles, 3 * sms * sizeof(long long)));
  CK(cudaMalloc(&d_ns, 3 * sms * sizeof(unsigned long long)));
  CK(cudaFuncSetAttribute(stream_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 73 * 1024));
  std::printf("%s, %d SMs. One thread per CTA streams boxes of rows x 128 B from DRAM, `slots` in flight.\n\n",
              prop.name, sms);
  std::printf("| box KiB | slots | CTAs/SM | in flight/SM KiB | boxes/us/SM | GB/s | issue cycles (median) | CTA us (median / max) |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (int rows : {8, 16, 32, 64, 128}) {
    CUtensorMap map;
    const cuuint64_t dims[2] = {64, static_cast<cuuint64_t>(total_rows)};
    const cuuint64_t strides[1] = {128};
    const cuuint32_t box[2] = {64, static_cast<cuuint32_t>(rows)};
    const cuuint32_t estr[2] = {1, 1};
    if (cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, buf, dims, strides, box, estr,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {
      std::printf("tensor map for %d rows failed\n", rows);
      return 1;
    }
    const int box_bytes = rows * 128;
    for (int slots : {4, 8, 16}) {
      const int smem = slots * box_bytes + 1024;
      if (smem > 73 * 1024) continue;  // three CTAs' rings per SM, as the skinny kernel
      for (int per_sm : {1, 2, 3}) {
        const int grid = per_sm * sms;
        // ~1 MiB a CTA (at least 64 boxes), within the buffer.
        const int boxes = static_cast<int>(std::min<long long>(std::max(64, (1 << 20) / box_bytes),
                                                               total_rows / rows / grid));
        std::vector<float> ms;
        std::vector<long long> cyc(grid);
        std::vector<unsigned long long> ns(grid);
        for (int rep = 0; rep < 4; ++rep) {
          cudaEvent_t a, b;
          CK(cudaEventCreate(&a));
          CK(cudaEventCreate(&b));
          CK(cudaEventRecord(a));
          stream_kernel<<<grid, 32, smem>>>(map, rows, boxes, slots, d_cycles, d_ns);
          CK(cudaEventRecord(b));
          CK(cudaEventSynchronize(b));
          CK(cudaGetLastError());
          float t = 0;
          CK(cudaEventElapsedTime(&t, a, b));
          if (rep > 0) ms.push_back(t);
          CK(cudaEventDestroy(a));
          CK(cudaEventDestroy(b));
        }
        CK(cudaMemcpy(cyc.data(), d_cycles, grid * sizeof(long long), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(ns.data(), d_ns, grid * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
        std::sort(ms.begin(), ms.end());
        std::sort(cyc.begin(), cyc.end());
        std::sort(ns.begin(), ns.end());
        const double t_ms = ms[ms.size() / 2];
        const double moved = static_cast<double>(grid) * boxes * box_bytes;
        std::printf("| %d | %d | %d | %d | %.1f | %.0f | %lld | %.1f / %.1f |\n", box_bytes / 1024, slots, per_sm,
                    per_sm * slots * box_bytes / 1024, static_cast<double>(grid) * boxes / (t_ms * 1e3) / sms, moved / (t_ms * 1e6),
                    cyc[grid / 2], ns[grid / 2] / 1e3, ns[grid - 1] / 1e3);
      }
    }
  }
  return 0;
}
