// Session 9, third probe (bisection of the library team kernel against the probe kernel):
// Derived from the second probe: the library team kernel (plan_spmv) against the probe kernel on the same matrix, timer and
// process, to tell a kernel-code difference from a benchmark-method one. Built against the build tree (see s9_call4.sh).
// Origin: the first probe: is a team-per-block-row kernel with every load of a
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

#include "bsrflow/core/stream.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/ops/reduce_workspace.hpp"
#include "bsrflow/ops/spmv.hpp"
#include "bsrflow/ops/spmv_team_kernel.cuh"

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


// The probe kernel with the library's occupancy floor (6 CTAs/SM) and an alpha/beta/dot finish.
template <class V, int kT, int kU, int kMin>
__global__ void __launch_bounds__(256, kMin) team_finish(int block_rows, const int* __restrict__ row_ptr,
                                                 const int* __restrict__ col_idx, const V* __restrict__ values,
                                                 const V* __restrict__ x, V* y, V alpha, V beta, const V* w, V* dot_out) {
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
  int col[kU]; V v[kU];
#pragma unroll
  for (int u = 0; u < kU; ++u) {
    const int blk = b[u] + lane;
    col[u] = -1;
    if (blk < e[u]) { col[u] = __ldcs(col_idx + blk); v[u] = __ldcs(values + blk); }
  }
  V acc[kU];
#pragma unroll
  for (int u = 0; u < kU; ++u) { acc[u] = V(0); if (col[u] >= 0) acc[u] = fma(v[u], __ldg(x + col[u]), acc[u]); }
#pragma unroll
  for (int u = 0; u < kU; ++u)
    for (int blk = b[u] + lane + kT; blk < e[u]; blk += kT) acc[u] = fma(__ldcs(values + blk), __ldg(x + __ldcs(col_idx + blk)), acc[u]);
#pragma unroll
  for (int u = 0; u < kU; ++u) {
#pragma unroll
    for (int o = kT / 2; o > 0; o /= 2) acc[u] += __shfl_xor_sync(0xffffffffu, acc[u], o);
    const int row = (warp * kU + u) * kTeamsPerWarp + team_in_warp;
    if (row < block_rows && lane == 0) {
      V out = alpha * acc[u];
      if (beta != V(0)) out = fma(beta, y[row], out);
      y[row] = out;
      if (dot_out != nullptr) dot_out[0] += w[row] * out;  // never taken here
    }
  }
}


namespace sd = bsrflow::spmv_detail;

// x from p.x, finish = plain store.
template <class V>
struct SimpleRows {
  const sd::Params<V>& p;
  __device__ __forceinline__ V x(std::int64_t j) const { return __ldg(p.x + j); }
  __device__ __forceinline__ V finish(std::int64_t row, V sum) const { p.y[row] = sum; return V(0); }
};

// B: the library body (team_block_rows) with SimpleRows, no scalars, no dot branch.
template <class V>
__global__ void __launch_bounds__(256, bsrflow::spmv_tuning::team_min_ctas_per_sm(sizeof(V), 1, 1, 8, false))
    body_simple(const sd::Params<V> p) {
  const int chunk = static_cast<int>((static_cast<std::int64_t>(blockIdx.x) * 256 + threadIdx.x) / 32);
  sd::team_block_rows<V, 1, 1, 8, 4>(p, SimpleRows<V>{p}, chunk);
}
// C: B + PlainRows with constant scalars (its finish: alpha, beta branch, dot branch).
template <class V>
__global__ void __launch_bounds__(256, bsrflow::spmv_tuning::team_min_ctas_per_sm(sizeof(V), 1, 1, 8, false))
    body_plain(const sd::Params<V> p) {
  const int chunk = static_cast<int>((static_cast<std::int64_t>(blockIdx.x) * 256 + threadIdx.x) / 32);
  const V d = sd::team_block_rows<V, 1, 1, 8, 4>(p, sd::PlainRows<V>{p, V(1), V(0)}, chunk);
  if (d == V(12345)) p.y[0] = d;  // keep the dot terms alive
}
// D: B + the scalars read through ScalarArg::get() (as the library kernel does).
template <class V>
__global__ void __launch_bounds__(256, bsrflow::spmv_tuning::team_min_ctas_per_sm(sizeof(V), 1, 1, 8, false))
    body_scalars(const sd::Params<V> p) {
  const int chunk = static_cast<int>((static_cast<std::int64_t>(blockIdx.x) * 256 + threadIdx.x) / 32);
  sd::team_block_rows<V, 1, 1, 8, 4>(p, sd::PlainRows<V>{p, p.alpha.get(), p.beta.get()}, chunk);
}
template <class V>
void run_case(const char* name, const Matrix& m, double copy_gbps, Timer& timer) {
  using namespace bsrflow;
  const long long rows = m.block_rows;
  HostBsr<V> h;
  h.rows = h.cols = static_cast<int>(rows); h.R = h.C = 1;
  h.row_ptr = m.rp; h.col_idx = m.ci; h.values.assign(m.val.begin(), m.val.end());
  Stream stream;
  const Bsr<V> A = Bsr<V>::from_host(h, stream);
  std::vector<V> hx(rows);
  for (long long i = 0; i < rows; ++i) hx[i] = V(1 + (i % 7)) / V(8);
  V *x, *y, *w, *dot;
  CK(cudaMalloc(&x, rows * sizeof(V))); CK(cudaMalloc(&y, rows * sizeof(V))); CK(cudaMalloc(&w, rows * sizeof(V))); CK(cudaMalloc(&dot, sizeof(V)));
  CK(cudaMemcpy(x, hx.data(), rows * sizeof(V), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(w, hx.data(), rows * sizeof(V), cudaMemcpyHostToDevice));
  const double bytes = 4.0 * m.rp.size() + 4.0 * m.ci.size() + double(sizeof(V)) * (m.val.size() + 2 * rows);
  const auto av = A.view();
  auto report = [&](const char* variant, auto f) {
    CK(cudaDeviceSynchronize());
    const double ms = timer.median_ms(f);
    std::printf("| %s | %s | %.4f | %.0f | %.1f%% |\n", name, variant, ms, bytes / ms / 1e6, 100 * bytes / ms / 1e6 / copy_gbps);
  };
  const int grid = static_cast<int>((rows + 127) / 128);
  const int* rp = av.row_ptr; const int* ci = av.col_idx; const V* val = av.values;
  report("probe kernel T8 U4", [&] { team_spmv<V, 1, 1, 8, 4><<<grid, 256>>>(m.block_rows, rp, ci, val, x, y); });
  report("probe + finish, 6 CTAs", [&] { team_finish<V, 8, 4, 6><<<grid, 256>>>(m.block_rows, rp, ci, val, x, y, V(1), V(0), w, nullptr); });
  report("probe + finish, 8 CTAs", [&] { team_finish<V, 8, 4, 8><<<grid, 256>>>(m.block_rows, rp, ci, val, x, y, V(1), V(0), w, nullptr); });
  const SpmvPlan team = plan_spmv(av, stream);
  report(("library " + team.name()).c_str(), [&] { team.run<V>(av, x, y, scalar(V(1)), scalar(V(0)), nullptr); });
  sd::Params<V> p;
  p.rows = p.cols = static_cast<int>(rows); p.R = p.C = 1; p.block_size = 1; p.block_rows = static_cast<int>(rows);
  p.row_ptr = rp; p.col_idx = ci; p.values = val; p.x = x; p.y = y; p.alpha = scalar(V(1)); p.beta = scalar(V(0));
  report("A: library kernel, probe TU", [&] { sd::spmv_team_kernel<V, 256, 1, 1, 8, 4, false><<<grid, 256>>>(p); });
  report("B: library body, simple rows", [&] { body_simple<V><<<grid, 256>>>(p); });
  report("C: B + PlainRows finish", [&] { body_plain<V><<<grid, 256>>>(p); });
  report("D: B + PlainRows, ScalarArg scalars", [&] { body_scalars<V><<<grid, 256>>>(p); });
  CK(cudaFree(x)); CK(cudaFree(y)); CK(cudaFree(w)); CK(cudaFree(dot));
}

int main() {
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  Timer timer;
  const size_t cb = size_t(512) << 20;
  void *s, *d; CK(cudaMalloc(&s, cb)); CK(cudaMalloc(&d, cb)); CK(cudaMemset(s, 1, cb));
  const double copy_ms = timer.median_ms([&] { CK(cudaMemcpyAsync(d, s, cb, cudaMemcpyDeviceToDevice)); });
  const double copy_gbps = 2.0 * cb / copy_ms / 1e6;
  CK(cudaFree(s)); CK(cudaFree(d));
  std::printf("device %s, copy %.0f GB/s\n\n| case | variant | ms | GB/s | %% copy |\n|---|---|---|---|---|\n", prop.name, copy_gbps);
  const Matrix p128 = poisson(128, 1);
  run_case<double>("Poisson 128^3 f64", p128, copy_gbps, timer);
  run_case<float>("Poisson 128^3 f32", p128, copy_gbps, timer);
  return 0;
}
