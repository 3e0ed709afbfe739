// fem_solve's GPU run: the verification meshes, the main solve with its load steps, and the
// --compare solvers; fem_markdown prints it all.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "bsrflow/apps/common/run_info.hpp"
#include "bsrflow/apps/fem_solve/fem_cli.hpp"
#include "bsrflow/apps/fem_solve/fem_reference.hpp"
#include "bsrflow/apps/fem_solve/fem_report.hpp"

namespace bsrflow::fem {

struct FemRun {
  bench::RunInfo info;
  std::vector<VerificationRow> verification;
  bool verification_passed = true;
  // Main solve at options.n.
  std::int64_t dofs = 0;
  std::int64_t coo_entries = 0;
  std::string matrix_shape;   // e.g. "BSR 3x3, 98304 block rows, 2515456 blocks"
  std::string solver;         // PcgSolver::describe()
  double system_setup_ms = 0;  // pattern + symbolic phases + first numeric assembly
  double solver_setup_ms = 0;  // PcgSolver construction (plan, preconditioner, graph instantiation)
  std::vector<StepRow> steps;
  FemErrors errors;            // of the last step's solution
  double true_rel_residual = 0;
  // --compare
  std::vector<CompareRow> compare;
  double copy_gbps = 0;
  // --plot
  std::vector<unsigned> history_iterations;
  std::vector<double> history_residuals;
};

// Needs a GPU. Writes progress lines to `log` (when not null), the VTK file and the plot when asked.
FemRun run_fem(const FemOptions& options, std::ostream* log);

std::string fem_markdown(const FemRun& run, const FemOptions& options);

}  // namespace bsrflow::fem
