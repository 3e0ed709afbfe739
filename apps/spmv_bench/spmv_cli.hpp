// spmv_bench's command line: --cases (poisson_f64,poisson_f32,block_f64), --poisson-grid (128),
// --block-grid (96), --block (3), --variants (default,team,team16,8x256,16x512,4x128), --iters, --warmup,
// --no-cold-l2, --json, --csv, --help.
#pragma once

#include <string>
#include <vector>

#include "bsrflow/apps/common/timing.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/ops/spmv.hpp"

namespace bsrflow::bench {

// One benchmark matrix in one dtype: the scalar 7-point Poisson CSR ("poisson") or its
// dense-block variant ("block", blocks of --block).
struct SpmvCase {
  std::string name;  // "poisson_f64", "block_f32", ...
  bool blocked = false;
  DType dtype = DType::f64;
  bool operator==(const SpmvCase&) const = default;
};

struct SpmvBenchOptions {
  bool help = false;
  std::vector<SpmvCase> cases;   // default: poisson_f64, poisson_f32, block_f64
  int poisson_grid = 128;        // poisson: grid^3 rows
  int block_grid = 96;           // block: grid^3 nodes
  int block = 3;                 // block: R = C
  std::vector<SpmvOptions> variants;  // bsrflow configurations measured; the first is the default
  TimingConfig timing;
  std::string json_path;
  std::string csv_path;
};

// The case names --cases accepts: poisson_f64, poisson_f32, block_f64, block_f32.
std::vector<std::string> spmv_case_names();

// "8x256" -> the stream kernel, {items_per_thread 8, max_rows_per_cta 256}; "stream" -> the
// stream kernel's defaults; "team" / "team16" -> the team kernel (its default width / 16 lanes);
// "default" -> {} (the plan's choice).
SpmvOptions parse_spmv_variant(const std::string& text);
// The inverse.
std::string spmv_variant_name(const SpmvOptions& variant);

// Throws Error(invalid_argument) naming the offending option.
SpmvBenchOptions parse_spmv_bench_options(int argc, const char* const* argv);

std::string spmv_bench_help();

}  // namespace bsrflow::bench
