// fem_solve's results and their tables - host code only, so the CPU tests check the rates, the
// pass/fail rules, the byte model and the tables without a GPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bsrflow/apps/common/plot.hpp"
#include "bsrflow/apps/fem_solve/fem_cli.hpp"

namespace bsrflow::fem {

// One mesh of the verification table (GPU solve, errors and residual measured on the host).
struct VerificationRow {
  int n = 0;
  std::int64_t dofs = 0;
  unsigned iterations = 0;
  bool converged = false;
  double l2 = 0;
  double h1 = 0;
  double recurrence_rel_residual = 0;  // what the PCG recurrence reported
  double true_rel_residual = 0;        // ||b - A x|| / ||b||, recomputed in double on the host
  double solve_ms = 0;
  // Filled by add_rates (NaN on the first row): against the row before.
  double l2_rate = 0;
  double h1_rate = 0;
  double iteration_ratio = 0;
};

// The acceptance bands.
constexpr double kL2Rate = 2.0;
constexpr double kH1Rate = 1.0;
constexpr double kRateTolerance = 0.15;
// Jacobi-PCG iterations should about double per refinement (sqrt of the condition number,
// which grows 4x); checked from the second pair on (the coarsest meshes are mostly boundary).
constexpr double kIterationRatioMin = 1.6;
constexpr double kIterationRatioMax = 2.4;

void add_rates(std::vector<VerificationRow>& rows);

// The checks of the verification table, one line each ("PASS ..." / "FAIL ..."); `passed` is set
// to false when any fails. true_residual_limit: the largest acceptable ||b - Ax|| / ||b||.
std::vector<std::string> verification_checks(const std::vector<VerificationRow>& rows, double true_residual_limit,
                                             bool& passed);

std::string verification_markdown(const std::vector<VerificationRow>& rows, const FemOptions& options,
                                  double true_residual_limit);

// The largest true relative residual accepted after a solve to `tol` in dtype: tol times a margin
// for the recurrence drifting from the true residual, but never below what the precision allows.
double true_residual_limit(double tol, DType dtype);

// One load step of the main solve.
struct StepRow {
  int step = 0;
  double coefficient = 1;
  double assemble_ms = 0;  // numeric phases + load + Dirichlet (enqueue to completion)
  double refresh_ms = 0;   // refresh_preconditioner
  double solve_ms = 0;     // one graph-launched PCG solve, until its result is on the host
  unsigned iterations = 0;
  bool converged = false;
  double recurrence_rel_residual = 0;
};
std::string steps_markdown(const std::vector<StepRow>& rows);

// Bytes one PCG iteration moves (the model of docs/benchmarks/cg_bench.md, for R x R blocks):
// the matrix once, (block_rows + 1) * 4 + nnzb * (4 + R*R*value_size), plus the vector passes:
// 11 without a preconditioner, +2 for Jacobi (its inverse diagonal and z), + R + 1 for block
// Jacobi (R inverse values per row, and z).
std::int64_t pcg_iteration_bytes(std::int64_t rows, int R, std::int64_t nnzb, int value_size, Preconditioner p);
// Bytes of a stored matrix: row_ptr + col_idx + values.
std::int64_t matrix_bytes(std::int64_t rows, int R, std::int64_t nnzb, int value_size);

// One solver of the --compare table.
struct CompareRow {
  std::string solver;        // "bsrflow PCG, BSR 3x3 (graph)", "bsrflow PCG, CSR (graph)", "cuSPARSE + cuBLAS CG (eager)"
  std::string status = "ok";  // or what went wrong
  std::int64_t matrix_bytes = 0;
  std::int64_t bytes_per_iteration = 0;
  unsigned iterations = 0;
  double total_ms = 0;       // median per solve
  double us_per_iteration = 0;
  double gbps = 0;
  double pct_copy = 0;
  double speedup = 0;        // the peer's us/iteration over this one's (NaN for the peer itself)
  double true_rel_residual = 0;
};
std::string compare_markdown(const std::vector<CompareRow>& rows, int n, double copy_gbps);
// The target for the speedup over the peer at n cells per side: >= 3 up to 64^3, >= 1.5
// at 128^3 and beyond (NaN below 32^3: no target).
double speedup_target(int n);

// Iteration counts at which the residual history is sampled (see fem_runner.cpp): 1, 2, 3, 4, 6,
// 8, 12, 16, 24, ... below `final_iterations`, then final_iterations itself.
std::vector<unsigned> history_points(unsigned final_iterations);
// The residual-history chart: one panel, x = iteration, y = ||r|| / ||b|| (log).
bench::PanelChart residual_chart(const std::vector<unsigned>& iterations, const std::vector<double>& residuals,
                                 const std::string& title);

}  // namespace bsrflow::fem
