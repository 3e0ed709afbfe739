// Standalone SpMV variant probe (session 9): is a team-per-block-row kernel with every load of a
// team issued up front (no shared memory, no CTA barrier) faster than the CSR-stream kernel?
// Build: nvcc -O3 -std=c++20 -gencode=arch=compute_90a,code=sm_90a spmv_probe.cu -o spmv_probe
// Timing as spmv_bench: L2 flushed by a 256 MiB memset before every run, one launch between two
// events, median of 20; GB/s on the bytes that must move (row_ptr, col_idx, values, x, y once);
// % of a 2 x 512 MiB device-to-device copy timed the same way.
#include "spmv_probe_common.cuh"

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
  const double copy_gbps = copy_bandwidth_gbps(timer);
  std::printf("device %s, copy %.0f GB/s\n\n| case | variant | ms | GB/s | %% copy | max rel err |\n|---|---|---|---|---|---|\n", prop.name, copy_gbps);
  const Matrix p128 = poisson(128, 1);
  run_case<double>("Poisson 128^3 f64", p128, copy_gbps, timer);
  run_case<float>("Poisson 128^3 f32", p128, copy_gbps, timer);
  const Matrix p96 = poisson(96, 3);
  run_case<double>("3x3 96^3 f64", p96, copy_gbps, timer);
  run_case<float>("3x3 96^3 f32", p96, copy_gbps, timer);
  return 0;
}
