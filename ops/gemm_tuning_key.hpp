// The key under which a tuned GEMM configuration is cached: what the best configuration depends
// on (GPU, software versions, dtypes, block shape, layouts) plus coarse buckets of the problem
// (N, block density, row skew), so that one tuning run serves every similar pattern.
//
// Pure host code: derivation from the device facts and a host row_ptr, no CUDA calls (except
// current_tuning_environment, which asks the runtime for its versions).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/formats/dense.hpp"

namespace bsrflow {

// Where a tuning result was measured. An entry whose environment differs from the current one is
// never used: a different GPU (name, SM count, compute capability) is "foreign", the same GPU
// with another CUDA runtime, driver or bsrflow version is "stale".
struct TuningEnvironment {
  std::string gpu;
  int sm_count = 0;
  int compute_capability = 0;  // e.g. 90
  int cuda_runtime = 0;        // cudaRuntimeGetVersion, e.g. 13000
  int cuda_driver = 0;         // cudaDriverGetVersion
  std::string library;         // bsrflow version, e.g. "0.1.0"
  bool same_gpu(const TuningEnvironment& o) const {
    return gpu == o.gpu && sm_count == o.sm_count && compute_capability == o.compute_capability;
  }
  friend bool operator==(const TuningEnvironment&, const TuningEnvironment&) = default;
};

// The version of this bsrflow build (the project VERSION of the top CMakeLists.txt).
std::string bsrflow_version();

// `device` plus the runtime's and driver's versions and bsrflow_version(). Throws Error(cuda).
TuningEnvironment current_tuning_environment(const DeviceInfo& device);

// A pattern's shape facts that the buckets are made from.
struct PatternStats {
  int block_rows = 0;
  int block_cols = 0;
  std::int64_t nnzb = 0;
  int longest_row = 0;  // blocks in the longest block row
};

// From a host row_ptr (block_rows + 1 entries).
PatternStats pattern_stats(const std::vector<int>& row_ptr, int block_cols);

// Buckets (each a small integer; the bucket edges are powers of two, exact in integer math):
//  n_bucket(n)       = ceil(log2 n): N in (2^(b-1), 2^b]; n_bucket(1) = 0. n >= 1.
//  density_bucket(s) = floor(log2(nnzb / (block_rows * block_cols))) <= 0: density in
//                      [2^b, 2^(b+1)); 12.5% is -3, 100% is 0. nnzb >= 1.
//  skew_bucket(s)    = floor(log2(longest row / mean row length)) >= 0: uniform rows are 0.
int n_bucket(std::int64_t n);
int density_bucket(const PatternStats& s);
int skew_bucket(const PatternStats& s);

// The problem part of a key: what the tuned configuration is chosen for.
struct TuningProblem {
  DType in = DType::f16;
  DType out = DType::f16;
  int R = 0;
  int C = 0;
  Layout b_layout = Layout::row_major;
  Layout c_layout = Layout::row_major;
  int n_bucket = 0;
  int density_bucket = 0;
  int skew_bucket = 0;
  friend bool operator==(const TuningProblem&, const TuningProblem&) = default;
};

struct TuningKey {
  TuningEnvironment environment;
  TuningProblem problem;
  friend bool operator==(const TuningKey&, const TuningKey&) = default;
  // Canonical one-line text of every field, e.g. "NVIDIA H100 80GB HBM3 sm90 x132 cudart13000
  // driver13000 bsrflow0.1.0 | f16->f16 64x64 B:row C:row N<=2^13 density>=2^-3 skew>=2^0".
  std::string text() const;
};

// "f16->f16 64x64 B:row C:row N<=2^13 density>=2^-3 skew>=2^0".
std::string problem_text(const TuningProblem& p);
// "NVIDIA H100 80GB HBM3 sm90 x132 cudart13000 driver13000 bsrflow0.1.0".
std::string environment_text(const TuningEnvironment& e);

// The key of a GEMM with `n` output columns on a pattern with `stats`.
TuningKey tuning_key(const TuningEnvironment& environment, DType in, DType out, int R, int C, Layout b_layout,
                     Layout c_layout, std::int64_t n, const PatternStats& stats);

}  // namespace bsrflow
