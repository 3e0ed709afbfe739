// Session 37 probe: how fast does a plain read of X MB run, timed as bsr_bench times a product
// (CUDA events around one launch, L2 flushed before it), under three flushes:
//   write    - memset of 2 x L2 (bsr_bench's flush until session 37: leaves ~1 x L2 of dirty lines)
//   discard  - the same memset, then discard.global.L2 on the scratch (no dirty line left)
//   read     - the same memset, then a read of another 2 x L2 buffer (clean lines left)
// Prints GB/s on the bytes read and the fraction of the device-to-device copy bandwidth (2 x bytes
// per copy). Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a flush_probe.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#define CK(x)                                                                         \
  do {                                                                                \
    cudaError_t e = (x);                                                              \
    if (e != cudaSuccess) {                                                           \
      std::printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e));           \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

__global__ void read_kernel(const int4* p, long n, int* sink) {
  int acc = 0;
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    const int4 v = __ldcs(p + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x7fffffff) *sink = acc;
}

__global__ void discard_kernel(char* p, long lines) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < lines; i += (long)gridDim.x * blockDim.x)
    asm volatile("discard.global.L2 [%0], 128;\n" ::"l"(p + i * 128) : "memory");
}

int main() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  const size_t l2 = prop.l2CacheSize, scratch_bytes = 2 * l2;
  char *scratch, *clean, *buf, *dst;
  int* sink;
  const size_t max_bytes = size_t{96} << 20, copy_bytes = size_t{1} << 30;
  CK(cudaMalloc(&scratch, scratch_bytes));
  CK(cudaMalloc(&clean, scratch_bytes));
  CK(cudaMalloc(&buf, copy_bytes));
  CK(cudaMalloc(&dst, copy_bytes));
  CK(cudaMalloc(&sink, 4));
  CK(cudaMemset(buf, 1, copy_bytes));
  CK(cudaMemset(clean, 2, scratch_bytes));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  const int grid = prop.multiProcessorCount * 8;
  auto median = [](std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  // Copy bandwidth as bsr_bench counts it.
  std::vector<float> t;
  for (int r = 0; r < 12; ++r) {
    cudaEventRecord(a);
    cudaMemcpyAsync(dst, buf, copy_bytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    if (r >= 2) t.push_back(ms);
  }
  const double copy_gbps = 2.0 * copy_bytes / (median(t) * 1e-3) / 1e9;
  std::printf("device %s, L2 %zu MB, SMs %d, copy %.0f GB/s\n", prop.name, l2 >> 20, prop.multiProcessorCount,
              copy_gbps);
  const char* names[3] = {"write", "discard", "read"};
  std::printf("| MB read | flush | median us | GB/s | of copy | flush us |\n|---|---|---|---|---|---|\n");
  for (size_t mb : {23, 46, 92}) {
    const size_t bytes = mb << 20;
    if (bytes > max_bytes) continue;
    for (int round = 0; round < 2; ++round)
      for (int mode = 0; mode < 3; ++mode) {
        std::vector<float> tr, tf;
        for (int r = 0; r < 20; ++r) {
          cudaEvent_t f0, f1;
          cudaEventCreate(&f0);
          cudaEventCreate(&f1);
          cudaEventRecord(f0);
          cudaMemsetAsync(scratch, r & 0xff, scratch_bytes);
          if (mode == 1) discard_kernel<<<4096, 256>>>(scratch, (long)(scratch_bytes / 128));
          if (mode == 2) read_kernel<<<grid, 256>>>((const int4*)clean, (long)(scratch_bytes / 16), sink);
          cudaEventRecord(f1);
          cudaEventRecord(a);
          read_kernel<<<grid, 256>>>((const int4*)buf, (long)(bytes / 16), sink);
          cudaEventRecord(b);
          CK(cudaEventSynchronize(b));
          float ms, fms;
          cudaEventElapsedTime(&ms, a, b);
          cudaEventElapsedTime(&fms, f0, f1);
          if (r >= 3) {
            tr.push_back(ms);
            tf.push_back(fms);
          }
          cudaEventDestroy(f0);
          cudaEventDestroy(f1);
        }
        const double ms = median(tr), gbps = bytes / (ms * 1e-3) / 1e9;
        std::printf("| %zu | %s | %.2f | %.0f | %.3f | %.0f |\n", mb, names[mode], ms * 1e3, gbps, gbps / copy_gbps,
                    median(tf) * 1e3);
      }
  }
  CK(cudaGetLastError());
  return 0;
}
