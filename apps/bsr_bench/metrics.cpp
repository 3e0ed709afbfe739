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

double l2_intensity(int R, int C, int N, int element_bytes) {
  const double flops = 2.0 * R * C * static_cast<double>(N);
  const double bytes = (static_cast<double>(R) * C + static_cast<double>(C) * N) * element_bytes;
  return flops / bytes;
}

double sol_tflops(double dense_tflops, double l2_bytes_per_s, int R, int C, int N, int element_bytes) {
  const double l2_bound = l2_bytes_per_s * l2_intensity(R, C, N, element_bytes) / 1e12;
  if (!std::isfinite(dense_tflops)) return l2_bound;
  if (!std::isfinite(l2_bound)) return dense_tflops;
  return std::min(dense_tflops, l2_bound);
}

double minimum_bytes_moved(const BenchCase& c, std::int64_t nnzb) {
  const double s = static_cast<double>(dtype_size(c.dtype));
  const double a = static_cast<double>(nnzb) * c.R * c.C * s + static_cast<double>(nnzb) * 4.0 +
                   (static_cast<double>(c.block_rows()) + 1.0) * 4.0;
  const double b = static_cast<double>(c.k) * c.n * s;
  const double out = static_cast<double>(c.m) * c.n * s;
  return a + b + out;
}

double gigabytes_per_second(double bytes, double ms) {
  if (!std::isfinite(ms) || ms <= 0) return kNaN;
  return bytes / (ms * 1e-3) / 1e9;
}

double correctness_tolerance(DType out) { return out == DType::bf16 ? 1e-2 : 5e-3; }

}  // namespace bsrflow::bench
