#include "bsrflow/ops/gemm_tuning_key.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>

#include "bsrflow/core/error.hpp"

#ifndef BSRFLOW_VERSION_STRING
#error "BSRFLOW_VERSION_STRING must be defined by the build (ops/CMakeLists.txt)"
#endif

namespace bsrflow {

std::string bsrflow_version() { return BSRFLOW_VERSION_STRING; }

TuningEnvironment current_tuning_environment(const DeviceInfo& device) {
  TuningEnvironment e;
  e.gpu = device.name;
  e.sm_count = device.sm_count;
  e.compute_capability = device.compute_capability();
  BSRFLOW_CUDA(cudaRuntimeGetVersion(&e.cuda_runtime));
  BSRFLOW_CUDA(cudaDriverGetVersion(&e.cuda_driver));
  e.library = bsrflow_version();
  return e;
}

PatternStats pattern_stats(const std::vector<int>& row_ptr, int block_cols) {
  PatternStats s;
  s.block_rows = row_ptr.empty() ? 0 : static_cast<int>(row_ptr.size()) - 1;
  s.block_cols = block_cols;
  s.nnzb = row_ptr.empty() ? 0 : static_cast<std::int64_t>(row_ptr.back()) - row_ptr.front();
  for (int i = 0; i < s.block_rows; ++i) s.longest_row = std::max(s.longest_row, row_ptr[i + 1] - row_ptr[i]);
  return s;
}

int n_bucket(std::int64_t n) {
  BSRFLOW_REQUIRE(n >= 1, Errc::invalid_argument, "n_bucket: N must be positive, got " + std::to_string(n));
  int b = 0;
  while ((std::int64_t{1} << b) < n) ++b;
  return b;
}

int density_bucket(const PatternStats& s) {
  const std::int64_t possible = static_cast<std::int64_t>(s.block_rows) * s.block_cols;
  BSRFLOW_REQUIRE(s.nnzb >= 1 && s.nnzb <= possible, Errc::invalid_argument,
                  "density_bucket: " + std::to_string(s.nnzb) + " stored blocks of " + std::to_string(possible) +
                      " possible");
  // density in [2^-d, 2^-(d-1)) <=> nnzb * 2^d >= possible > nnzb * 2^(d-1): the smallest d >= 0
  // with nnzb * 2^d >= possible (both at most 2^62, so the shifts cannot overflow).
  int d = 0;
  while ((s.nnzb << d) < possible) ++d;
  return -d;
}

int skew_bucket(const PatternStats& s) {
  BSRFLOW_REQUIRE(s.nnzb >= 1 && s.block_rows >= 1 && s.longest_row >= 1, Errc::invalid_argument,
                  "skew_bucket: the pattern has no stored blocks");
  // longest / (nnzb / block_rows) = longest * block_rows / nnzb; the largest k with
  // nnzb * 2^k <= longest * block_rows (at most 2^62).
  const auto scaled = static_cast<std::uint64_t>(s.longest_row) * static_cast<std::uint64_t>(s.block_rows);
  const auto nnzb = static_cast<std::uint64_t>(s.nnzb);
  int k = 0;
  while ((nnzb << (k + 1)) <= scaled) ++k;
  return k;
}

std::string environment_text(const TuningEnvironment& e) {
  return e.gpu + " sm" + std::to_string(e.compute_capability) + " x" + std::to_string(e.sm_count) + " cudart" +
         std::to_string(e.cuda_runtime) + " driver" + std::to_string(e.cuda_driver) + " bsrflow" + e.library;
}

std::string problem_text(const TuningProblem& p) {
  const auto layout = [](Layout l) { return l == Layout::row_major ? "row" : "col"; };
  return std::string(dtype_name(p.in)) + "->" + std::string(dtype_name(p.out)) + " " + std::to_string(p.R) + "x" +
         std::to_string(p.C) + " B:" + layout(p.b_layout) + " C:" + layout(p.c_layout) + " N<=2^" +
         std::to_string(p.n_bucket) + " density>=2^" + std::to_string(p.density_bucket) + " skew>=2^" +
         std::to_string(p.skew_bucket);
}

std::string TuningKey::text() const { return environment_text(environment) + " | " + problem_text(problem); }

TuningKey tuning_key(const TuningEnvironment& environment, DType in, DType out, int R, int C, Layout b_layout,
                     Layout c_layout, std::int64_t n, const PatternStats& stats) {
  TuningKey k;
  k.environment = environment;
  k.problem = {in, out, R, C, b_layout, c_layout, n_bucket(n), density_bucket(stats), skew_bucket(stats)};
  return k;
}

}  // namespace bsrflow
