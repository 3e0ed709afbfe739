// Standalone SpMV probe (session 11): does a CSR SpMV whose matrix bytes arrive by bulk async
// copies (cp.async.bulk, one producer warp, a ring of stages on mbarriers) beat the team kernel
// on the 1x1 Poisson matrix? The team kernel (session 9) reaches 77-79% of copy (f64), 71-75%
// (f32); the issue's target is 80%.
//
// A tile is a run of whole rows whose nonzeros fit one stage (cut on the host, as a plan would);
// the producer lane copies the tile's row_ptr, col_idx and values ranges (rounded out to 16 bytes)
// into a stage and the consumer warps compute one row per thread from shared memory, gathering x
// through the read-only path. Persistent CTAs take tiles round-robin.
// Build: nvcc -O3 -std=c++20 -gencode=arch=compute_90a,code=sm_90a spmv_bulk_probe.cu -o spmv_bulk_probe
// Timing as spmv_bench (spmv_probe_common.cuh: L2 flushed before each launch, median of 20).
#include <cstdint>

#include "../h100-2026-11-23-s9/spmv_probe_common.cuh"

__device__ __forceinline__ unsigned saddr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }
__device__ __forceinline__ void bar_init(std::uint64_t* b, unsigned n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(saddr(b)), "r"(n) : "memory");
}
__device__ __forceinline__ void bar_expect(std::uint64_t* b, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(saddr(b)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bar_arrive(std::uint64_t* b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(saddr(b)) : "memory");
}
__device__ __forceinline__ void bar_wait(std::uint64_t* b, unsigned parity) {
  unsigned done = 0;
  while (!done)
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done) : "r"(saddr(b)), "r"(parity) : "memory");
}
__device__ __forceinline__ void bulk_load(void* dst, const void* src, unsigned bytes, std::uint64_t* b, std::uint64_t pol) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;\n"
               ::"r"(saddr(dst)), "l"(src), "r"(bytes), "r"(saddr(b)), "l"(pol) : "memory");
}
__device__ __forceinline__ std::uint64_t evict_first() {
  std::uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;\n" : "=l"(p));
  return p;
}

struct Tile { int row0, row1, nz0, nz1; };

#ifdef BULK_PROBE_SPAN  // spmv_gap_probe.cu: the kernel's own span, first CTA start to last consumer end
__device__ unsigned long long g_span[2];
__device__ __forceinline__ unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
#endif

// kCap nonzeros (plus 8 of alignment slack) and kMaxRows rows (+8) per stage.
template <class V, int kCap, int kMaxRows>
struct Stage {
  V val[kCap + 8];
  int col[kCap + 8];
  int rp[kMaxRows + 8];
  Tile tile;
};

template <class V, int kCap, int kMaxRows, int kStages, int kWarps, int kMinCtas>
__global__ void __launch_bounds__((kWarps + 1) * 32, kMinCtas)
    bulk_spmv(int tiles, const Tile* __restrict__ tile_list, const int* __restrict__ rp, const int* __restrict__ ci,
              const V* __restrict__ val, const V* __restrict__ x, V* __restrict__ y) {
  using S = Stage<V, kCap, kMaxRows>;
  extern __shared__ __align__(128) unsigned char smem[];
  S* stages = reinterpret_cast<S*>(smem);
  __shared__ std::uint64_t full[kStages], empty[kStages];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) { bar_init(&full[s], 1); bar_init(&empty[s], kWarps); }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
#ifdef BULK_PROBE_SPAN
  if (threadIdx.x == 0) atomicMin(&g_span[0], globaltimer());
#endif
  if (warp == kWarps) {  // producer
    if (lane == 0) {
      const std::uint64_t pol = evict_first();
      int i = 0;
      for (int t = blockIdx.x; t < tiles; t += gridDim.x, ++i) {
        const int s = i % kStages;
        if (i >= kStages) bar_wait(&empty[s], ((i / kStages) - 1) & 1);
        const Tile tl = tile_list[t];
        S& st = stages[s];
        st.tile = tl;
        const int r0 = tl.row0 & ~3, r1 = (tl.row1 + 1 + 3) & ~3;  // arrays padded to multiples of 4 (+4)
        const int a0 = tl.nz0 & ~3, a1 = (tl.nz1 + 3) & ~3;
        const unsigned b_rp = (r1 - r0) * 4, b_col = (a1 - a0) * 4, b_val = (a1 - a0) * sizeof(V);
        bar_expect(&full[s], b_rp + b_col + b_val);
        bulk_load(st.rp, rp + r0, b_rp, &full[s], pol);
        bulk_load(st.col, ci + a0, b_col, &full[s], pol);
        bulk_load(st.val, val + a0, b_val, &full[s], pol);
      }
    }
    return;
  }
  int i = 0;
  for (int t = blockIdx.x; t < tiles; t += gridDim.x, ++i) {
    const int s = i % kStages;
    bar_wait(&full[s], (i / kStages) & 1);
    const S& st = stages[s];
    const Tile tl = st.tile;
    const int r0 = tl.row0 & ~3, a0 = tl.nz0 & ~3;
    for (int row = tl.row0 + threadIdx.x; row < tl.row1; row += kWarps * 32) {
      const int b = st.rp[row - r0] - a0, e = st.rp[row + 1 - r0] - a0;
      V acc = V(0);
      for (int k0 = b; k0 < e; k0 += 8) {
        V v[8], xv[8];
#pragma unroll
        for (int j = 0; j < 8; ++j) {
          v[j] = V(0);
          xv[j] = V(0);
          if (k0 + j < e) { v[j] = st.val[k0 + j]; xv[j] = __ldg(x + st.col[k0 + j]); }
        }
#pragma unroll
        for (int j = 0; j < 8; ++j) acc = fma(v[j], xv[j], acc);
      }
      y[row] = acc;
    }
    __syncwarp();
    if (lane == 0) bar_arrive(&empty[s]);
  }
#ifdef BULK_PROBE_SPAN
  if (lane == 0) atomicMax(&g_span[1], globaltimer());
#endif
}

std::vector<Tile> make_tiles(const Matrix& m, int cap, int max_rows) {
  std::vector<Tile> t;
  int r = 0;
  while (r < m.block_rows) {
    int r1 = r;
    // slack: a0 rounds down by up to 3, a1 up by up to 3
    while (r1 < m.block_rows && r1 - r < max_rows && m.rp[r1 + 1] - m.rp[r] + 6 <= cap) ++r1;
    if (r1 == r) { std::printf("row too long\n"); std::exit(1); }
    t.push_back({r, r1, m.rp[r], m.rp[r1]});
    r = r1;
  }
  return t;
}

// A 1x1 matrix, x and y on the device; arrays padded by 8 entries (the copies round out to 16 bytes).
template <class V>
struct DeviceCsr {
  int *rp, *ci;
  V *val, *x, *y;
  DeviceCsr(const Matrix& m, const std::vector<V>& hv, const std::vector<V>& hx) {
    const size_t nnz = m.ci.size(), rows = hx.size();
    CK(cudaMalloc(&rp, (m.rp.size() + 8) * 4)); CK(cudaMalloc(&ci, (nnz + 8) * 4));
    CK(cudaMalloc(&val, (nnz + 8) * sizeof(V))); CK(cudaMalloc(&x, rows * sizeof(V))); CK(cudaMalloc(&y, rows * sizeof(V)));
    CK(cudaMemcpy(rp, m.rp.data(), m.rp.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(ci, m.ci.data(), nnz * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(val, hv.data(), nnz * sizeof(V), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(x, hx.data(), rows * sizeof(V), cudaMemcpyHostToDevice));
  }
  ~DeviceCsr() { CK(cudaFree(rp)); CK(cudaFree(ci)); CK(cudaFree(val)); CK(cudaFree(x)); CK(cudaFree(y)); }
};

template <class V>
void run_case(const char* name, const Matrix& m, double copy_gbps, Timer& timer) {
  const long long rows = m.block_rows;
  const size_t nnz = m.ci.size();
  std::vector<V> hv(m.val.begin(), m.val.end()), hx(rows);
  for (long long i = 0; i < rows; ++i) hx[i] = V(1 + (i % 7)) / V(8);
  const DeviceCsr<V> d(m, hv, hx);
  int *rp = d.rp, *ci = d.ci;
  V *val = d.val, *x = d.x, *y = d.y;
  std::vector<double> ref(rows, 0.0);
  for (long long r = 0; r < rows; ++r)
    for (int k = m.rp[r]; k < m.rp[r + 1]; ++k) ref[r] += double(hv[k]) * double(hx[m.ci[k]]);
  const double bytes = 4.0 * m.rp.size() + 4.0 * nnz + double(sizeof(V)) * (nnz + 2 * rows);
  std::vector<V> hy(rows);
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  auto check_and_time = [&](const char* variant, auto launch) {
    CK(cudaMemset(y, 0xff, rows * sizeof(V)));
    launch(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hy.data(), y, rows * sizeof(V), cudaMemcpyDeviceToHost));
    double err = 0;
    for (long long i = 0; i < rows; ++i) err = std::max(err, std::abs(double(hy[i]) - ref[i]) / (1 + std::abs(ref[i])));
    const double ms = timer.median_ms(launch);
    const double gbps = bytes / ms / 1e6;
    std::printf("| %s | %s | %.4f | %.0f | %.1f%% | %.1e |\n", name, variant, ms, gbps, 100 * gbps / copy_gbps, err);
  };
  check_and_time("team T8 U4 (session 9 probe)", [&] {
    team_spmv<V, 1, 1, 8, 4><<<(m.block_rows + 127) / 128, 256>>>(m.block_rows, rp, ci, val, x, y);
  });
  auto bulk = [&](const char* variant, auto kernel, size_t stage_bytes, int cap, int max_rows, int stages, int warps) {
    const std::vector<Tile> tiles = make_tiles(m, cap, max_rows);
    Tile* dt;
    CK(cudaMalloc(&dt, tiles.size() * sizeof(Tile)));
    CK(cudaMemcpy(dt, tiles.data(), tiles.size() * sizeof(Tile), cudaMemcpyHostToDevice));
    const size_t smem = stage_bytes * stages;
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (warps + 1) * 32, smem));
    const int grid = std::min<int>(static_cast<int>(tiles.size()), per_sm * sms);
    char label[160];
    std::snprintf(label, sizeof label, "%s (%zu tiles, %d CTAs/SM, %zu B smem)", variant, tiles.size(), per_sm, smem);
    check_and_time(label, [&] { kernel<<<grid, (warps + 1) * 32, smem>>>(static_cast<int>(tiles.size()), dt, rp, ci, val, x, y); });
    CK(cudaFree(dt));
  };
  bulk("bulk cap2048 r256 s4 w8", bulk_spmv<V, 2048, 256, 4, 8, 2>, sizeof(Stage<V, 2048, 256>), 2048, 256, 4, 8);
  bulk("bulk cap2048 r256 s3 w8", bulk_spmv<V, 2048, 256, 3, 8, 2>, sizeof(Stage<V, 2048, 256>), 2048, 256, 3, 8);
  bulk("bulk cap1024 r128 s4 w4", bulk_spmv<V, 1024, 128, 4, 4, 4>, sizeof(Stage<V, 1024, 128>), 1024, 128, 4, 4);
  bulk("bulk cap1024 r128 s6 w4", bulk_spmv<V, 1024, 128, 6, 4, 3>, sizeof(Stage<V, 1024, 128>), 1024, 128, 6, 4);
  bulk("bulk cap4096 r512 s3 w16", bulk_spmv<V, 4096, 512, 3, 16, 1>, sizeof(Stage<V, 4096, 512>), 4096, 512, 3, 16);
  bulk("bulk cap2048 r256 s4 w4", bulk_spmv<V, 2048, 256, 4, 4, 2>, sizeof(Stage<V, 2048, 256>), 2048, 256, 4, 4);
}

int main() {
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  Timer timer;
  const double copy_gbps = copy_bandwidth_gbps(timer);
  std::printf("device %s, copy %.0f GB/s\n\n| case | variant | ms | GB/s | %% copy | max rel err |\n|---|---|---|---|---|---|\n", prop.name, copy_gbps);
  const Matrix p128 = poisson(128, 1);
  run_case<double>("Poisson 128^3 f64", p128, copy_gbps, timer);
  run_case<float>("Poisson 128^3 f32", p128, copy_gbps, timer);
  run_case<double>("Poisson 128^3 f64 (again)", p128, copy_gbps, timer);
  return 0;
}
