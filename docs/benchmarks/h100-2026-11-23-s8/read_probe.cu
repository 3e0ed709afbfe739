// Stand-alone read-bandwidth probe (session 8, perf_log entry 17): how fast can anything stream
// X MB from DRAM when timed as bsr_bench times a GEMM (L2 flushed, CUDA events around one launch)?
// Compares plain 16-byte loads, 1-D bulk copies (cp.async.bulk) and 2-D TMA boxes of 32 x 64-byte
// rows (the skinny kernel's 32 x 32 f16 A blocks) into shared memory. Build and run:
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a read_probe.cu -o read_probe && ./read_probe
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__global__ void empty_kernel() {}

__global__ void ldg_kernel(const uint4* p, std::size_t n, unsigned* sink) {
  unsigned x = 0;
  for (std::size_t i = blockIdx.x * (std::size_t)blockDim.x + threadIdx.x; i < n; i += (std::size_t)gridDim.x * blockDim.x) {
    uint4 v = __ldcs(p + i);
    x ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (x == 0x12345678u) sink[0] = x;
}

__device__ __forceinline__ unsigned sa(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void bar_init(uint64_t* b, unsigned n) { asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(sa(b)), "r"(n)); }
__device__ __forceinline__ void bar_expect(uint64_t* b, unsigned bytes) { asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(b)), "r"(bytes) : "memory"); }
__device__ __forceinline__ void bar_wait(uint64_t* b, unsigned par) {
  unsigned done = 0;
  while (!done) asm volatile("{.reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0,1,0,p;}" : "=r"(done) : "r"(sa(b)), "r"(par) : "memory");
}

// One CTA streams chunks [c0, c1) of `chunk` bytes through a ring of `stages` slots; mode 0: one
// 1-D bulk copy per chunk; mode 1: 2-D boxes of 32 rows x 64 bytes (tensor map) per 2 KiB.
template <int kStages>
__global__ void __launch_bounds__(32) bulk_kernel(const char* src, std::size_t chunks, int chunk, int mode,
                                                  const __grid_constant__ CUtensorMap map, unsigned* sink) {
  extern __shared__ __align__(1024) unsigned char ring[];
  __shared__ uint64_t full[kStages];
  if (threadIdx.x == 0) { for (int s = 0; s < kStages; ++s) bar_init(&full[s], 1); asm volatile("fence.mbarrier_init.release.cluster;"); }
  __syncwarp();
  const std::size_t per = (chunks + gridDim.x - 1) / gridDim.x;
  const std::size_t c0 = blockIdx.x * per, c1 = chunks < c0 + per ? chunks : c0 + per;
  const long n = c1 > c0 ? (long)(c1 - c0) : 0;
  unsigned x = 0;
  auto issue = [&](long i) {
    const int s = i % kStages;
    unsigned char* dst = ring + (std::size_t)s * chunk;
    bar_expect(&full[s], chunk);
    if (mode == 0) {
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(sa(dst)),
                   "l"(src + (c0 + i) * (std::size_t)chunk), "r"(chunk), "r"(sa(&full[s])) : "memory");
    } else {
      const long row0 = (long)(c0 + i) * (chunk / 64);
      for (int b = 0; b < chunk / 2048; ++b)
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::
                     "r"(sa(dst + b * 2048)), "l"((uint64_t)&map), "r"(sa(&full[s])), "r"(0), "r"((int)(row0 + b * 32)) : "memory");
    }
  };
  if (threadIdx.x == 0)
    for (long i = 0; i < (n < kStages - 1 ? n : kStages - 1); ++i) issue(i);
  for (long i = 0; i < n; ++i) {
    bar_wait(&full[i % kStages], (i / kStages) & 1);
    x ^= ring[(i % kStages) * (std::size_t)chunk + threadIdx.x];
    __syncwarp();
    if (threadIdx.x == 0 && i + kStages - 1 < n) issue(i + kStages - 1);
  }
  if (x == 0x12345678u) sink[0] = x;
}

int main() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  const std::size_t max_bytes = std::size_t{512} << 20, flush_bytes = std::size_t{256} << 20;
  char *buf, *flush;
  unsigned* sink;
  CK(cudaMalloc(&buf, max_bytes));
  CK(cudaMalloc(&flush, flush_bytes));
  CK(cudaMalloc(&sink, 4));
  CK(cudaMemset(buf, 1, max_bytes));
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
  auto encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;
  CUtensorMap map;
  cuuint64_t dims[2] = {32, max_bytes / 64};  // 32 f16 = 64-byte rows
  cuuint64_t strides[1] = {64};
  cuuint32_t box[2] = {32, 32}, es[2] = {1, 1};
  if (encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, buf, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
             CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {
    printf("encode failed\n");
    return 1;
  }
  const int smem = 4 * 16384;
  CK(cudaFuncSetAttribute(bulk_kernel<4>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  auto time = [&](auto launch) {
    std::vector<float> t;
    for (int r = 0; r < 12; ++r) {
      cudaMemsetAsync(flush, r, flush_bytes);  // evict L2
      cudaEventRecord(e0);
      launch();
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      if (r >= 2) t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  };
  const float empty_ms = time([&] { empty_kernel<<<1, 32>>>(); });
  printf("empty kernel, event-timed: %.2f us\n", empty_ms * 1e3);
  printf("%8s | %10s | %10s | %12s | %12s | %12s\n", "MB", "ldg GB/s", "ldg us", "bulk16K GB/s", "tma2d 3/SM", "tma2d 1/SM");
  for (double mb : {11.0, 23.0, 45.0, 90.0, 180.0, 500.0}) {
    const std::size_t bytes = (std::size_t)(mb * 1e6) / 16384 * 16384;
    const float t_ldg = time([&] { ldg_kernel<<<prop.multiProcessorCount * 8, 256>>>((const uint4*)buf, bytes / 16, sink); });
    const std::size_t chunks = bytes / 16384;
    const int ctas = prop.multiProcessorCount * 3;
    const float t_bulk = time([&] { bulk_kernel<4><<<ctas, 32, smem>>>(buf, chunks, 16384, 0, map, sink); });
    const float t_tma = time([&] { bulk_kernel<4><<<ctas, 32, smem>>>(buf, chunks, 16384, 1, map, sink); });
    const float t_tma1 = time([&] { bulk_kernel<4><<<prop.multiProcessorCount, 32, smem>>>(buf, chunks, 16384, 1, map, sink); });
    printf("%8.0f | %10.0f | %10.1f | %12.0f | %12.0f | %12.0f\n", mb, bytes / (t_ldg * 1e6), t_ldg * 1e3,
           bytes / (t_bulk * 1e6), bytes / (t_tma * 1e6), bytes / (t_tma1 * 1e6));
  }
  CK(cudaGetLastError());
  return 0;
}
