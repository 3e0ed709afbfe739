// Shared by the session-9 SpMV probes (spmv_probe.cu, spmv_probe3.cu): the probe's team kernel,
// the 7-point Poisson matrix (each entry optionally a dense R x R block), and the timer (L2
// flushed by a 256 MiB memset before each run, one launch between two events, median of 20).
#pragma once

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

// GB/s of a 512 MiB device-to-device copy (read + write counted), timed like the kernels.
inline double copy_bandwidth_gbps(Timer& timer) {
  const size_t cb = size_t(512) << 20;
  void *s, *d;
  CK(cudaMalloc(&s, cb)); CK(cudaMalloc(&d, cb)); CK(cudaMemset(s, 1, cb));
  const double ms = timer.median_ms([&] { CK(cudaMemcpyAsync(d, s, cb, cudaMemcpyDeviceToDevice)); });
  CK(cudaFree(s)); CK(cudaFree(d));
  return 2.0 * cb / ms / 1e6;
}
