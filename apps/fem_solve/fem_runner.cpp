#include "bsrflow/apps/fem_solve/fem_runner.hpp"

#include <chrono>
#include <functional>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>

#include "bsrflow/apps/common/cusparse_cublas_cg.hpp"
#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/apps/common/markdown.hpp"
#include "bsrflow/apps/common/probes.hpp"
#include "bsrflow/apps/common/timing.hpp"
#include "bsrflow/apps/fem_solve/fem_system.hpp"
#include "bsrflow/apps/fem_solve/vtk_writer.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/graph/pcg.hpp"

namespace bsrflow::fem {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The coefficient of load step k: the conductivity (Poisson) or E (elasticity) is scaled, and the
// load with it, so every step has the same exact solution and can be checked the same way.
double step_coefficient(int k) { return 1.0 + 0.5 * k; }

double elapsed_ms(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

PcgOptions pcg_options(const FemOptions& o) {
  PcgOptions p;
  p.rtol = o.tol;
  p.atol = 0;
  p.max_iterations = static_cast<unsigned>(o.max_iterations);
  p.preconditioner = o.precond;
  return p;
}

template <class T>
std::vector<double> to_double(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

// The solution on the host with its true residual and errors against the exact solution.
template <class T>
struct Checked {
  std::vector<double> x;
  double true_rel_residual = kNaN;
  FemErrors errors;
};
template <class T>
Checked<T> check_solution(const FemSystem<T>& sys, const DeviceBuffer<T>& x, cudaStream_t stream) {
  Checked<T> c;
  c.x = to_double(x.to_host(stream));
  c.true_rel_residual = true_relative_residual(sys.host_matrix(stream), sys.host_rhs(stream), c.x);
  c.errors = fem_errors(sys.mesh(), sys.problem(), c.x);
  return c;
}

template <class T>
VerificationRow verify_mesh(const FemOptions& o, int n, cudaStream_t stream, std::ostream* log) {
  FemSystem<T> sys(o.problem, n, Material{}, stream);
  sys.assemble(1.0, stream);
  PcgSolver<T> cg(sys.matrix(), pcg_options(o), stream);
  DeviceBuffer<T> x(static_cast<std::size_t>(sys.dofs()), stream);
  x.fill_bytes(0, stream);
  const auto t0 = std::chrono::steady_clock::now();
  const PcgResult r = cg.solve(sys.rhs(), x.data(), stream);
  VerificationRow row;
  row.solve_ms = elapsed_ms(t0);
  row.n = n;
  row.dofs = sys.dofs();
  row.iterations = r.iterations;
  row.converged = r.converged;
  row.recurrence_rel_residual = r.relative_residual();
  const Checked<T> c = check_solution(sys, x, stream);
  row.true_rel_residual = c.true_rel_residual;
  row.l2 = c.errors.l2;
  row.h1 = c.errors.h1;
  if (log != nullptr)
    *log << "fem_solve: verify " << problem_name(o.problem) << " " << n << "^3: " << r.iterations << " iterations, L2 "
         << c.errors.l2 << ", H1 " << c.errors.h1 << '\n';
  return row;
}

template <class T>
std::string shape_text(BsrView<const T> A) {
  return "BSR " + std::to_string(A.R) + "x" + std::to_string(A.C) + ", " + std::to_string(A.block_rows()) +
         " block rows, " + std::to_string(A.nnzb) + " blocks";
}

// The residual history for --plot. PcgSolver keeps no history (its loop runs on the device and
// only the last residual comes back), and adding a per-iteration record to the graph module's
// kernels is a change to the library for one chart. Instead: the solve is deterministic (fixed
// reduction order, x = 0 start), so a solve stopped after k iterations has exactly the residual
// the full solve had at iteration k. history_points() samples k on a log-like grid, so the extra
// work is a few times one solve, not iterations^2.
template <class T>
void residual_history(const FemOptions& o, FemSystem<T>& sys, unsigned final_iterations, FemRun& run,
                      cudaStream_t stream) {
  DeviceBuffer<T> x(static_cast<std::size_t>(sys.dofs()), stream);
  run.history_iterations = {0};
  run.history_residuals = {1.0};
  for (const unsigned k : history_points(final_iterations)) {
    PcgOptions p = pcg_options(o);
    p.max_iterations = k;
    PcgSolver<T> cg(sys.matrix(), p, stream);
    x.fill_bytes(0, stream);
    const PcgResult r = cg.solve(sys.rhs(), x.data(), stream);
    run.history_iterations.push_back(r.iterations);
    run.history_residuals.push_back(r.relative_residual());
  }
}

// --compare: the main solve's system through (1) bsrflow's graph PCG on the BSR matrix (for
// elasticity 3x3 blocks), (2) the same PCG on the same matrix stored as CSR (a 1x1-block BSR over
// the CSR arrays), (3) the textbook cuSPARSE SpMV + cuBLAS CG, eager, for bsrflow's iteration count.
template <class T>
void run_compare(const FemOptions& o, FemSystem<T>& sys, PcgSolver<T>& cg, FemRun& run, cudaStream_t stream,
                 std::ostream* log) {
  const bench::BandwidthResult copy =
      bench::measure_run_copy_bandwidth("fem_solve", run.info.device, o.timing, stream, log);
  run.copy_gbps = copy.bytes_per_second() / 1e9;
  L2Flusher flusher(device_info().l2_bytes, stream);
  const HostCsr<T> host_A = sys.host_matrix(stream);
  const std::vector<T> host_b = sys.host_rhs(stream);
  DeviceBuffer<T> x(static_cast<std::size_t>(sys.dofs()), stream);
  const auto value_size = static_cast<int>(sizeof(T));

  auto timed = [&](CompareRow row, const std::function<unsigned(cudaStream_t)>& solve) {
    try {
      x.fill_bytes(0, stream);
      row.iterations = solve(stream);
      row.true_rel_residual = true_relative_residual(host_A, host_b, to_double(x.to_host(stream)));
      const bench::Summary s = bench::time_and_summarize(
          [&](cudaStream_t st) {
            x.fill_bytes(0, st);
            solve(st);
          },
          o.timing, o.timing.cold_l2 ? &flusher : nullptr, stream);
      row.total_ms = s.median;
      row.us_per_iteration = row.iterations > 0 ? s.median * 1e3 / row.iterations : kNaN;
      row.gbps = static_cast<double>(row.bytes_per_iteration) / (row.us_per_iteration * 1e-6) / 1e9;
      row.pct_copy = row.gbps / run.copy_gbps;
    } catch (const Error& e) {
      if (e.code() != Errc::unsupported && e.code() != Errc::cusparse && e.code() != Errc::cublas) throw;
      row.status = std::string(e.code() == Errc::unsupported ? "unsupported: " : "error: ") + e.message();
      row.total_ms = row.us_per_iteration = row.gbps = row.pct_copy = kNaN;
    }
    if (log != nullptr)
      *log << "fem_solve: compare " << row.solver << ": " << row.status << ", " << row.us_per_iteration
           << " us/iteration\n";
    run.compare.push_back(row);
  };

  const BsrView<const T> A = sys.matrix();
  CompareRow ours;
  ours.solver = "bsrflow PCG, " + std::string(A.R > 1 ? "BSR " + std::to_string(A.R) + "x" + std::to_string(A.C) : "CSR (BSR 1x1)") +
                " (one graph launch)";
  ours.matrix_bytes = matrix_bytes(A.rows, A.R, A.nnzb, value_size);
  ours.bytes_per_iteration = pcg_iteration_bytes(A.rows, A.R, A.nnzb, value_size, o.precond);
  unsigned iterations = 0;
  timed(ours, [&](cudaStream_t st) { return iterations = cg.solve(sys.rhs(), x.data(), st).iterations; });

  if (A.R > 1) {  // the same system stored as CSR, same solver (block Jacobi on 1x1 blocks is Jacobi)
    const BsrView<const T> C = sys.csr_as_bsr();
    PcgOptions p = pcg_options(o);
    if (p.preconditioner == Preconditioner::block_jacobi) p.preconditioner = Preconditioner::jacobi;
    PcgSolver<T> csr_cg(C, p, stream);
    CompareRow csr;
    csr.solver = std::string("bsrflow PCG, CSR (BSR 1x1, ") + preconditioner_name(p.preconditioner) + ", one graph launch)";
    csr.matrix_bytes = matrix_bytes(C.rows, 1, C.nnzb, value_size);
    csr.bytes_per_iteration = pcg_iteration_bytes(C.rows, 1, C.nnzb, value_size, p.preconditioner);
    timed(csr, [&](cudaStream_t st) { return csr_cg.solve(sys.rhs(), x.data(), st).iterations; });
  }

  // The peer: Jacobi from the CSR diagonal, exactly bsrflow's iteration count.
  std::vector<T> inverse(static_cast<std::size_t>(host_A.rows), T(0));
  for (int i = 0; i < host_A.rows; ++i)
    for (int e = host_A.row_ptr[i]; e < host_A.row_ptr[i + 1]; ++e)
      if (host_A.col_idx[e] == i) inverse[i] = static_cast<T>(1.0 / static_cast<double>(host_A.values[e]));
  const DeviceBuffer<T> d_inverse = DeviceBuffer<T>::from_host(inverse, stream);
  bench::CusparseHandle cusparse;
  bench::CublasHandle cublas(stream);
  CompareRow peer;
  peer.solver = "cuSPARSE SpMV (CSR) + cuBLAS CG, Jacobi (eager)";
  peer.matrix_bytes = matrix_bytes(host_A.rows, 1, host_A.nnz(), value_size);
  peer.bytes_per_iteration = pcg_iteration_bytes(host_A.rows, 1, host_A.nnz(), value_size, Preconditioner::jacobi);
  std::optional<bench::CusparseCublasCg<T>> peer_cg;
  try {
    peer_cg.emplace(cusparse.get(), cublas, sys.csr(), d_inverse.data(), sys.rhs(), x.data(), stream);
  } catch (const Error& e) {
    if (e.code() != Errc::unsupported && e.code() != Errc::cusparse && e.code() != Errc::cublas) throw;
    peer.status = "error: " + e.message();
  }
  if (peer_cg) {
    timed(peer, [&](cudaStream_t st) { return static_cast<unsigned>(peer_cg->solve(static_cast<int>(iterations), st)); });
  } else {
    peer.total_ms = peer.us_per_iteration = peer.gbps = peer.pct_copy = kNaN;
    run.compare.push_back(peer);
  }
  const double peer_us = run.compare.back().status == "ok" ? run.compare.back().us_per_iteration : kNaN;
  for (auto& r : run.compare) r.speedup = &r == &run.compare.back() ? kNaN : peer_us / r.us_per_iteration;
}

template <class T>
FemRun run_typed(const FemOptions& o, std::ostream* log) {
  FemRun run;
  run.info = bench::collect_run_info();
  Stream stream;
  if (o.verify) {
    for (const int n : o.refinements) run.verification.push_back(verify_mesh<T>(o, n, stream, log));
    add_rates(run.verification);
    verification_checks(run.verification, true_residual_limit(o.tol, o.dtype), run.verification_passed);
  }

  // The main solve: pattern and symbolic phases once, then per load step the numeric phases and
  // one graph launch of the captured PCG (x restarts from 0 each step, so every step shows the
  // full solve; the exact solution is the same in all of them).
  auto t0 = std::chrono::steady_clock::now();
  FemSystem<T> sys(o.problem, o.n, Material{}, stream);
  sys.assemble(step_coefficient(0), stream);
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));
  run.system_setup_ms = elapsed_ms(t0);
  run.dofs = sys.dofs();
  run.coo_entries = sys.coo_entries();
  run.matrix_shape = shape_text(sys.matrix());
  t0 = std::chrono::steady_clock::now();
  PcgSolver<T> cg(sys.matrix(), pcg_options(o), stream);
  run.solver_setup_ms = elapsed_ms(t0);
  run.solver = cg.describe();
  DeviceBuffer<T> x(static_cast<std::size_t>(sys.dofs()), stream);
  for (int k = 0; k < o.steps; ++k) {
    StepRow row;
    row.step = k;
    row.coefficient = step_coefficient(k);
    if (k > 0) {
      t0 = std::chrono::steady_clock::now();
      sys.assemble(row.coefficient, stream);
      BSRFLOW_CUDA(cudaStreamSynchronize(stream));
      row.assemble_ms = elapsed_ms(t0);
      t0 = std::chrono::steady_clock::now();
      cg.refresh_preconditioner(sys.matrix(), stream);
      row.refresh_ms = elapsed_ms(t0);
    } else {
      row.assemble_ms = row.refresh_ms = kNaN;  // in the setup times
    }
    x.fill_bytes(0, stream);
    BSRFLOW_CUDA(cudaStreamSynchronize(stream));
    t0 = std::chrono::steady_clock::now();
    const PcgResult r = cg.solve(sys.rhs(), x.data(), stream);
    row.solve_ms = elapsed_ms(t0);
    row.iterations = r.iterations;
    row.converged = r.converged;
    row.recurrence_rel_residual = r.relative_residual();
    if (log != nullptr)
      *log << "fem_solve: step " << k << ": " << r.iterations << " iterations, " << row.solve_ms << " ms\n";
    run.steps.push_back(row);
  }
  const Checked<T> c = check_solution(sys, x, stream);
  run.errors = c.errors;
  run.true_rel_residual = c.true_rel_residual;
  if (!o.vtk_path.empty()) write_vtk(o.vtk_path, sys.mesh(), o.problem, c.x);
  if (!o.plot_path.empty()) {
    residual_history(o, sys, run.steps.back().iterations, run, stream);
    bench::render_png(residual_chart(run.history_iterations, run.history_residuals,
                                     std::string("fem_solve ") + problem_name(o.problem) + " " + std::to_string(o.n) +
                                         "^3, " + std::string(dtype_name(o.dtype)) + ", " + preconditioner_name(o.precond)),
                      o.plot_path, "fem_solve");
  }
  if (o.compare) run_compare(o, sys, cg, run, stream, log);
  return run;
}

}  // namespace

FemRun run_fem(const FemOptions& options, std::ostream* log) {
  return options.dtype == DType::f64 ? run_typed<double>(options, log) : run_typed<float>(options, log);
}

std::string fem_markdown(const FemRun& run, const FemOptions& o) {
  std::ostringstream md;
  md << "# fem_solve: " << problem_name(o.problem) << ", Q1 hexahedra on the unit cube\n\n";
  md << "Device: " << run.info.device << "; date: " << run.info.date << "; commit: " << run.info.commit << ".\n\n";
  if (o.verify) md << verification_markdown(run.verification, o, true_residual_limit(o.tol, o.dtype));
  md << "## Main solve: " << o.n << "^3 cells, " << run.dofs << " DOFs, " << dtype_name(o.dtype) << "\n\n"
     << "- Matrix: " << run.matrix_shape << " (from " << run.coo_entries << " element-matrix COO entries).\n"
     << "- Solver: " << run.solver << ".\n"
     << "- Setup: system (COO pattern, symbolic COO->CSR" << (o.problem == FemProblem::elasticity ? ", CSR->BSR" : "")
     << ", first assembly) " << bench::format_significant(run.system_setup_ms) << " ms; PCG solver (plan, preconditioner, "
     << "graph instantiation) " << bench::format_significant(run.solver_setup_ms) << " ms.\n"
     << "- Last step's solution: L2 error " << run.errors.l2 << ", H1 error " << run.errors.h1
     << ", true residual ||b - Ax||/||b|| " << run.true_rel_residual << ".\n\n";
  md << steps_markdown(run.steps) << '\n'
     << "- Each step scales the coefficient (and the load with it: same exact solution), runs the numeric phases "
        "(COO values, load, COO->CSR, Dirichlet" << (o.problem == FemProblem::elasticity ? ", CSR->BSR" : "")
     << "), refresh_preconditioner and one graph-launched solve from x = 0. Host wall-clock times.\n\n";
  if (o.compare) {
    md << "## Compare\n\n" << compare_markdown(run.compare, o.n, run.copy_gbps);
  }
  return md.str();
}

}  // namespace bsrflow::fem
