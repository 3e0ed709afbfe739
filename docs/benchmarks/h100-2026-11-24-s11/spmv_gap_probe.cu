// Session 11 probe: where do the 3-7 us between spmv_bench's event-timed SpMV and the kernel's own
// duration go? Times the session's bulk probe kernel (spmv_bulk_probe.cu, 2048 x 256, 3 stages,
// 8 warps) three ways after the same 256 MiB L2-flush memset:
//   A: event, kernel, event (spmv_bench's method);
//   B: the kernel's own span, from %globaltimer (first CTA past its barrier setup to the last
//      consumer warp done; spmv_bulk_probe.cu built with BULK_PROBE_SPAN);
//   C: as A, but a tiny kernel asking for the same shared-memory carveout runs between the
//      memset and the first event (if the SM's shared-memory reconfiguration after the memset is
//      the gap, C shrinks it).
// Build: nvcc -O3 -std=c++20 -gencode=arch=compute_90a,code=sm_90a spmv_gap_probe.cu -o spmv_gap_probe
#define BULK_PROBE_SPAN
#define main bulk_probe_main
#include "spmv_bulk_probe.cu"
#undef main

__global__ void carveout_kernel() {
  extern __shared__ unsigned char s[];
  if (threadIdx.x == 0) s[0] = 0;
}

__global__ void span_begin() { g_span[0] = ~0ull; g_span[1] = 0; }

int main() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  const Matrix m = poisson(128, 1);
  using V = double;
  const long long rows = m.block_rows;
  const size_t nnz = m.ci.size();
  std::vector<V> hv(m.val.begin(), m.val.end()), hx(rows, V(0.5));
  const DeviceCsr<V> d(m, hv, hx);
  int *rp = d.rp, *ci = d.ci;
  V *val = d.val, *x = d.x, *y = d.y;
  const std::vector<Tile> tiles = make_tiles(m, 2048, 256);
  Tile* dt;
  CK(cudaMalloc(&dt, tiles.size() * sizeof(Tile)));
  CK(cudaMemcpy(dt, tiles.data(), tiles.size() * sizeof(Tile), cudaMemcpyHostToDevice));
  auto kernel = bulk_spmv<V, 2048, 256, 3, 8, 2>;
  const size_t smem = sizeof(Stage<V, 2048, 256>) * 3;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  CK(cudaFuncSetAttribute(carveout_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int grid = std::min<int>(static_cast<int>(tiles.size()), 2 * sms);
  const double bytes = 4.0 * m.rp.size() + 4.0 * nnz + double(sizeof(V)) * (nnz + 2 * rows);
  Timer timer;
  const double copy_gbps = copy_bandwidth_gbps(timer);
  void* flush = nullptr;
  const size_t flush_bytes = size_t(256) << 20;
  CK(cudaMalloc(&flush, flush_bytes));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  std::printf("device %s, copy %.0f GB/s, Poisson 128^3 f64, bulk probe kernel (2048 x 256, 3 stages), median of 20\n\n",
              prop.name, copy_gbps);
  std::printf("| method | us | %% copy |\n|---|---:|---:|\n");
  for (int variant = 0; variant < 3; ++variant) {
    std::vector<double> t;
    for (int i = 0; i < 21; ++i) {
      CK(cudaMemsetAsync(flush, i, flush_bytes));
      if (variant == 2) carveout_kernel<<<sms, 32, smem>>>();
      if (variant == 1) {
        span_begin<<<1, 1>>>();
        kernel<<<grid, 288, smem>>>(static_cast<int>(tiles.size()), dt, rp, ci, val, x, y);
        CK(cudaDeviceSynchronize());
        unsigned long long span[2];
        CK(cudaMemcpyFromSymbol(span, g_span, sizeof span));
        if (i > 0) t.push_back((span[1] - span[0]) / 1000.0);
        continue;
      }
      CK(cudaEventRecord(a));
      kernel<<<grid, 288, smem>>>(static_cast<int>(tiles.size()), dt, rp, ci, val, x, y);
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float ms;
      CK(cudaEventElapsedTime(&ms, a, b));
      if (i > 0) t.push_back(ms * 1000.0);
    }
    std::sort(t.begin(), t.end());
    const double us = t[t.size() / 2];
    const char* names[] = {"A: event, kernel, event (spmv_bench)", "B: the kernel's own span (globaltimer)",
                           "C: as A after a kernel with the same carveout"};
    std::printf("| %s | %.1f | %.1f%% |\n", names[variant], us, 100.0 * bytes / (us * 1e3) / copy_gbps);
  }
  return 0;
}
