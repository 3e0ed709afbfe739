// fem_solve's command line:
//   --problem poisson|elasticity   --n N (cells per side, 32)   --tol (1e-8 f64, 1e-6 f32)   --max-iter (10000)
//   --precond jacobi|block-jacobi   --dtype f64|f32   --steps K (1)   --refinements 4,8,16,32
//   --no-verify   --vtk FILE   --plot FILE.png   --compare   --iters / --warmup / --no-cold-l2
//   --help
#pragma once

#include <string>
#include <vector>

#include "bsrflow/apps/common/timing.hpp"
#include "bsrflow/apps/fem_solve/fem_problem.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/ops/jacobi.hpp"

namespace bsrflow::fem {

// f32 PCG stalls near its precision long before 1e-8 (recurrence or not): its own default.
constexpr double kDefaultTolF64 = 1e-8;
constexpr double kDefaultTolF32 = 1e-6;

struct FemOptions {
  bool help = false;
  FemProblem problem = FemProblem::poisson;
  int n = 32;                     // cells per side of the unit cube for the main solve
  double tol = kDefaultTolF64;    // PCG: ||r|| <= tol ||b|| (recurrence residual)
  int max_iterations = 10000;
  Preconditioner precond = Preconditioner::jacobi;
  DType dtype = DType::f64;
  int steps = 1;                  // load steps replaying the captured solve
  std::vector<int> refinements = {4, 8, 16, 32};  // the verification table's meshes, each 2x the last
  bool verify = true;
  std::string vtk_path;
  std::string plot_path;
  bool compare = false;           // cuSPARSE + cuBLAS CG peer and the CSR-vs-BSR comparison
  bench::TimingConfig timing;
};

// Throws Error(invalid_argument) naming the offending option.
FemOptions parse_fem_options(int argc, const char* const* argv);

std::string fem_help();

}  // namespace bsrflow::fem
