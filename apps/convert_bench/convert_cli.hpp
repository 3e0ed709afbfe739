// convert_bench's command line: --dtype (f64 default), --grid (128), --blocks (3,16,32),
// --numeric (scatter,staged,staged-wide), --no-pool-kept, --iters, --warmup, --no-cold-l2, --json, --csv, --help.
#pragma once

#include <iterator>
#include <string>
#include <vector>

#include "bsrflow/apps/common/timing.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/formats/csr_to_bsr.hpp"

namespace bsrflow::bench {

struct ConvertOptions {
  bool help = false;
  DType dtype = DType::f64;
  int grid = 128;
  std::vector<int> blocks = {3, 16, 32};
  // Numeric kernels to time, each as its own system (convert_runner.hpp).
  std::vector<CsrToBsrNumeric> numeric_variants{std::begin(kCsrToBsrNumericVariants),
                                                std::end(kCsrToBsrNumericVariants)};
  bool pool_kept = true;  // also time symbolic+numeric with the memory pool keeping freed memory
  TimingConfig timing;
  std::string json_path;
  std::string csv_path;
};

// Throws Error(invalid_argument) naming the offending option.
ConvertOptions parse_convert_options(int argc, const char* const* argv);

std::string convert_help();

}  // namespace bsrflow::bench
