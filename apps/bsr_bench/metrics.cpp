#include "bsrflow/apps/bsr_bench/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bsrflow::bench {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

double tflops(double flops, double ms) {
  if (!std::isfinite(ms) || ms <= 0) return kNaN;
  return flops / (ms * 1e-3) / 1e12;
}

double effective_flops(std::int64_t nnzb, int R, int C, int N) {
  return 2.0 * static_cast<double>(nnzb) * R * C * N;
}

double dense_flops(int M, int N, int K) { return 2.0 * M * static_cast<double>(N) * K; }

double min_finite(double a, double b) {
  if (!std::isfinite(a)) return b;
  if (!std::isfinite(b)) return a;
  return std::min(a, b);
}

double l2_intensity(int R, int C, int tile_n, int element_bytes) {
  const double flops = 2.0 * R * C * static_cast<double>(tile_n);
  const double bytes = (static_cast<double>(R) * C + static_cast<double>(C) * tile_n) * element_bytes;
  return flops / bytes;
}

double sol_tflops(double dense_tflops, double l2_bytes_per_s, int R, int C, int tile_n, int element_bytes) {
  return min_finite(dense_tflops, l2_bytes_per_s * l2_intensity(R, C, tile_n, element_bytes) / 1e12);
}

double copy_bound_tflops(double flops, double bytes, double copy_bytes_per_s) {
  return tflops(flops, bytes / copy_bytes_per_s * 1e3);
}

double minimum_bytes_moved(const BenchCase& c, std::int64_t nnzb, int touched_block_cols) {
  const double s = static_cast<double>(dtype_size(c.dtype));
  const double a = static_cast<double>(nnzb) * c.R * c.C * s + static_cast<double>(nnzb) * 4.0 +
                   (static_cast<double>(c.block_rows()) + 1.0) * 4.0;
  const double b = static_cast<double>(touched_block_cols) * c.C * c.n * s;
  const double out = static_cast<double>(c.m) * c.n * s;
  return a + b + out;
}

double gigabytes_per_second(double bytes, double ms) {
  if (!std::isfinite(ms) || ms <= 0) return kNaN;
  return bytes / (ms * 1e-3) / 1e9;
}

double correctness_tolerance(DType out) { return out == DType::bf16 ? 1e-2 : 5e-3; }

}  // namespace bsrflow::bench
