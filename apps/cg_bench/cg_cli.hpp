// cg_bench's command line: --grids (32,64,128), --dtype (f64 | f32), --precond (none,jacobi),
// --cg-iterations (50), --iters, --warmup, --no-cold-l2, --json, --csv, --no-peer, --help.
#pragma once

#include <string>
#include <vector>

#include "bsrflow/apps/common/timing.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/ops/jacobi.hpp"

namespace bsrflow::bench {

struct CgBenchOptions {
  bool help = false;
  std::vector<int> grids = {32, 64, 128};  // 7-point Poisson on grid^3 rows
  DType dtype = DType::f64;                // f64 or f32
  std::vector<Preconditioner> preconds = {Preconditioner::none, Preconditioner::jacobi};
  int cg_iterations = 50;                  // K: CG iterations per timed solve
  bool peer = true;                        // cuSPARSE + cuBLAS textbook CG
  TimingConfig timing;
  std::string json_path;
  std::string csv_path;
};

// Throws Error(invalid_argument) naming the offending option.
CgBenchOptions parse_cg_bench_options(int argc, const char* const* argv);

std::string cg_bench_help();

}  // namespace bsrflow::bench
