// Session 9, third probe: the library's team SpMV kernel (plan_spmv) against the probe kernel
// (spmv_probe_common.cuh) on the same matrix, timer and process, with the library kernel's body
// (team_block_rows) under simpler wrappers, to find what separates them (perf_log_spmv.md entry 3).
// It replaced the second probe (results in call4_probe2.md / call6_probe2.md: the probe kernel
// with an alpha / beta finish at 1, 6 and 8 CTAs/SM, the library's fused-dot and stream plans).
// Build against the build tree:
//   B=build; nvcc -O3 -std=c++20 --expt-relaxed-constexpr -gencode=arch=compute_90a,code=sm_90a \
//     -I$B/include spmv_probe3.cu -o spmv_probe3 $B/ops/libbsrflow_ops.a \
//     $B/formats/libbsrflow_formats.a $B/core/libbsrflow_core.a -lcublas -lcusparse
#include "spmv_probe_common.cuh"

#include "bsrflow/core/stream.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/ops/reduce_workspace.hpp"
#include "bsrflow/ops/spmv.hpp"
#include "bsrflow/ops/spmv_team_kernel.cuh"

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
  const double copy_gbps = copy_bandwidth_gbps(timer);
  std::printf("device %s, copy %.0f GB/s\n\n| case | variant | ms | GB/s | %% copy |\n|---|---|---|---|---|\n", prop.name, copy_gbps);
  const Matrix p128 = poisson(128, 1);
  run_case<double>("Poisson 128^3 f64", p128, copy_gbps, timer);
  run_case<float>("Poisson 128^3 f32", p128, copy_gbps, timer);
  return 0;
}
