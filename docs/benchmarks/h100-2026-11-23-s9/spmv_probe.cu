// Standalone SpMV variant probe (session 9): is a team-per-block-row kernel with every load of a
// team issued up front (no shared memory, no CTA barrier) faster than the CSR-stream kernel?
// Build: nvcc -O3 -std=c++20 -gencode=arch=compute_90a,code=sm_90a spmv_probe.cu -o spmv_probe
// Timing as spmv_bench: L2 flushed by a 256 MiB memset before every run, one launch between two
// events, median of 20; GB/s on the bytes that must move (row_ptr, col_idx, values, x, y once);
// % of a 2 x 512 MiB device-to-device copy timed the same way.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); std::exit(1); } } while (0)

// Team of kT lanes per block row, one lane per block, kU block rows per team in flight.
template <class V, int R, int C, int kT, int kU>
__global__ void __launch_bounds__(256) team_spmv(int block_rows, const int* __restrict__ row_ptr,
                                                 const int* __restrict__ col_idx, const V* __restrict__ values,
                                                 const V* __restrict__ x, V* __restrict__ y) {
  constexpr int kTeamsPerWarp = 32 / kT;
  const int lane = threadIdx.x & (kT - 1);
  const int warp = (blockIdx.x * 256 + threadIdx.x) >> 5;
  const int team_in_warp = (threadIdx.x & 31) / kT;
  int b[kU], e[kU];
#pragma unroll
  for (int u = 0; u < kU; ++u) {
    const int row = (warp * kU + u) * kTeamsPerWarp + team_in_warp;
    b[u] = 0; e[u] = 0;
    if (row < block_rows) { b[u] = __ldg(row_ptr + row); e[u] = __ldg(row_ptr + row + 1); }
  }
  int col[kU];
  V v[kU][R * C];
#pragma unroll
  for (int u = 0; u < kU; ++u) {
    const int blk = b[u] + lane;
    col[u] = -1;
    if (blk < e[u]) {
      col[u] = __ldcs(col_idx + blk);
#pragma unroll
      for (int k = 0; k < R * C; ++k) v[u][k] = __ldcs(values + static_cast<long long>(blk) * R * C + k);
    }
  }
  V acc[kU][R];
#pragma unroll
  for (int u = 0; u < kU; ++u) {
#pragma unroll
    for (int r = 0; r < R; ++r) acc[u][r] = V(0);
    if (col[u] >= 0) {
#pragma unroll
      for (int c = 0; c < C; ++c) {
        const V xv = __ldg(x + static_cast<long long>(col[u]) * C + c);
#pragma unroll
        for (int r = 0; r < R; ++r) acc[u][r] = fma(v[u][r * C + c], xv, acc[u][r]);
      }
    }
  }
#pragma unroll
  for (int u = 0; u < kU; ++u) {  // rows longer than the team
    for (int blk = b[u] + lane + kT; blk < e[u]; blk += kT) {
      const int cc = __ldcs(col_idx + blk);
#pragma unroll
      for (int c = 0; c < C; ++c) {
        const V xv = __ldg(x + static_cast<long long>(cc) * C + c);
#pragma unroll
        for (int r = 0; r < R; ++r)
          acc[u][r] = fma(__ldcs(values + static_cast<long long>(blk) * R * C + r * C + c), xv, acc[u][r]);
      }
    }
  }
#pragma unroll
  for (int u = 0; u < kU; ++u) {
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
      for (int o = kT / 2; o > 0; o /= 2) acc[u][r] += __shfl_xor_sync(0xffffffffu, acc[u][r], o);
    const int row = (warp * kU + u) * kTeamsPerWarp + team_in_warp;
    if (row < block_rows) {
#pragma unroll
      for (int r = 0; r < R; ++r)
        if (lane == r) y[static_cast<long long>(row) * R + r] = acc[u][r];
    }
  }
}

struct Matrix {
  int n = 0, block_rows = 0, R = 1;
  std::vector<int> rp, ci;
  std::vector<double> val;
};

// 7-point Poisson on n^3 (diag 6, off -1), each entry a dense R x R block (entry * (1 + (r+c)/16)).
Matrix poisson(int n, int R) {
  Matrix m;
  m.n = n; m.R = R; m.block_rows = n * n * n;
  m.rp.reserve(m.block_rows + 1);
  m.rp.push_back(0);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const int row = (k * n + j) * n + i;
        auto add = [&](int c, double a) {
          m.ci.push_back(c);
          for (int r = 0; r < R; ++r)
            for (int q = 0; q < R; ++q) m.val.push_back(a * (1.0 + (r + q) / 16.0));
        };
        if (k > 0) add(row - n * n, -1);
        if (j > 0) add(row - n, -1);
        if (i > 0) add(row - 1, -1);
        add(row, 6);
        if (i < n - 1) add(row + 1, -1);
        if (j < n - 1) add(row + n, -1);
        if (k < n - 1) add(row + n * n, -1);
        m.rp.push_back(static_cast<int>(m.ci.size()));
      }
  return m;
}

struct Timer {
  void* flush = nullptr;
  size_t flush_bytes = size_t(256) << 20;
  cudaEvent_t a, b;
  Timer() { CK(cudaMalloc(&flush, flush_bytes)); CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b)); }
  template <class F> double median_ms(F f, int reps = 20) {
    f(); CK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int i = 0; i < reps; ++i) {
      CK(cudaMemsetAsync(flush, i, flush_bytes));
      CK(cudaEventRecord(a)); f(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
      float ms; CK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  }
};

template <class V>
void run_case(const char* name, const Matrix& m, double copy_gbps, Timer& timer) {
  const int R = m.R;
  const long long rows = static_cast<long long>(m.block_rows) * R;
  std::vector<V> hv(m.val.begin(), m.val.end()), hx(rows);
  for (long long i = 0; i < rows; ++i) hx[i] = V(1 + (i % 7)) / V(8);
  int *rp, *ci; V *val, *x, *y;
  CK(cudaMalloc(&rp, m.rp.size() * 4)); CK(cudaMalloc(&ci, m.ci.size() * 4));
  CK(cudaMalloc(&val, hv.size() * sizeof(V))); CK(cudaMalloc(&x, rows * sizeof(V))); CK(cudaMalloc(&y, rows * sizeof(V)));
  CK(cudaMemcpy(rp, m.rp.data(), m.rp.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(ci, m.ci.data(), m.ci.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(val, hv.data(), hv.size() * sizeof(V), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(x, hx.data(), rows * sizeof(V), cudaMemcpyHostToDevice));
  // fp64 reference
  std::vector<double> ref(rows, 0.0);
  for (int br = 0; br < m.block_rows; ++br)
    for (int k = m.rp[br]; k < m.rp[br + 1]; ++k)
      for (int r = 0; r < R; ++r)
        for (int c = 0; c < R; ++c) ref[(long long)br * R + r] += double(hv[(size_t)k * R * R + r * R + c]) * double(hx[(long long)m.ci[k] * R + c]);
  const double bytes = 4.0 * m.rp.size() + 4.0 * m.ci.size() + double(sizeof(V)) * (hv.size() + 2 * rows);
  std::vector<V> hy(rows);
  auto report = [&](const char* variant, auto kernel, int rows_per_cta) {
    const int grid = (m.block_rows + rows_per_cta - 1) / rows_per_cta;
    auto f = [&] { kernel<<<grid, 256>>>(m.block_rows, rp, ci, val, x, y); };
    CK(cudaMemset(y, 0xff, rows * sizeof(V)));
    f(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hy.data(), y, rows * sizeof(V), cudaMemcpyDeviceToHost));
    double err = 0;
    for (long long i = 0; i < rows; ++i) err = std::max(err, std::abs(double(hy[i]) - ref[i]) / (1 + std::abs(ref[i])));
    const double ms = timer.median_ms(f);
    const double gbps = bytes / ms / 1e6;
    std::printf("| %s | %s | %.4f | %.0f | %.1f%% | %.1e |\n", name, variant, ms, gbps, 100 * gbps / copy_gbps, err);
  };
  if (R == 1) {
    report("team T8 U1", team_spmv<V, 1, 1, 8, 1>, 32);
    report("team T8 U2", team_spmv<V, 1, 1, 8, 2>, 64);
    report("team T8 U4", team_spmv<V, 1, 1, 8, 4>, 128);
    report("team T8 U8", team_spmv<V, 1, 1, 8, 8>, 256);
    report("team T16 U2", team_spmv<V, 1, 1, 16, 2>, 32);
    report("team T16 U4", team_spmv<V, 1, 1, 16, 4>, 64);
  } else {
    report("team T8 U1", team_spmv<V, 3, 3, 8, 1>, 32);
    report("team T8 U2", team_spmv<V, 3, 3, 8, 2>, 64);
    report("team T8 U4", team_spmv<V, 3, 3, 8, 4>, 128);
    report("team T16 U1", team_spmv<V, 3, 3, 16, 1>, 16);
    report("team T16 U2", team_spmv<V, 3, 3, 16, 2>, 32);
  }
  CK(cudaFree(rp)); CK(cudaFree(ci)); CK(cudaFree(val)); CK(cudaFree(x)); CK(cudaFree(y));
}

int main() {
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  Timer timer;
  const size_t cb = size_t(512) << 20;
  void *s, *d; CK(cudaMalloc(&s, cb)); CK(cudaMalloc(&d, cb)); CK(cudaMemset(s, 1, cb));
  const double copy_ms = timer.median_ms([&] { CK(cudaMemcpyAsync(d, s, cb, cudaMemcpyDeviceToDevice)); });
  const double copy_gbps = 2.0 * cb / copy_ms / 1e6;
  CK(cudaFree(s)); CK(cudaFree(d));
  std::printf("device %s, copy %.0f GB/s\n\n| case | variant | ms | GB/s | %% copy | max rel err |\n|---|---|---|---|---|---|\n", prop.name, copy_gbps);
  const Matrix p128 = poisson(128, 1);
  run_case<double>("Poisson 128^3 f64", p128, copy_gbps, timer);
  run_case<float>("Poisson 128^3 f32", p128, copy_gbps, timer);
  const Matrix p96 = poisson(96, 3);
  run_case<double>("3x3 96^3 f64", p96, copy_gbps, timer);
  run_case<float>("3x3 96^3 f32", p96, copy_gbps, timer);
  return 0;
}
