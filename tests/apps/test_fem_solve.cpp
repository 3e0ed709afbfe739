// fem_solve: command line and its errors, the verification rules, byte model, history sampling
// and tables (CPU); the GPU pipeline against the CPU reference, load steps and a small end-to-end
// run ([gpu]).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/fem_solve/fem_cli.hpp"
#include "bsrflow/apps/fem_solve/fem_reference.hpp"
#include "bsrflow/apps/fem_solve/fem_report.hpp"
#include "bsrflow/apps/fem_solve/fem_runner.hpp"
#include "bsrflow/apps/fem_solve/fem_system.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/formats/host_convert.hpp"
#include "bsrflow/graph/pcg.hpp"
#include "support/gpu.hpp"

using namespace bsrflow;
using namespace bsrflow::fem;

namespace {
FemOptions parse(std::vector<std::string> args) {
  const test::Args a(std::move(args));
  return parse_fem_options(a.argc(), a.argv());
}
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

TEST_CASE("fem_solve command line", "[apps][fem]") {
  const FemOptions d = parse({});
  CHECK(d.problem == FemProblem::poisson);
  CHECK(d.n == 32);
  CHECK(d.tol == 1e-8);
  CHECK(d.max_iterations == 10000);
  CHECK(d.precond == Preconditioner::jacobi);
  CHECK(d.dtype == DType::f64);
  CHECK(d.steps == 1);
  CHECK(d.refinements == std::vector<int>{4, 8, 16, 32});
  CHECK(d.verify);
  CHECK(!d.compare);
  CHECK(d.vtk_path.empty());
  CHECK(d.plot_path.empty());

  const FemOptions o = parse({"--problem", "elasticity", "--n", "24", "--tol", "1e-6", "--max-iter", "500", "--precond",
                              "block-jacobi", "--dtype", "f32", "--steps", "5", "--refinements", "3,6,12",
                              "--no-verify", "--vtk", "u.vtk", "--plot", "r.png", "--compare", "--iters", "4",
                              "--warmup", "1", "--no-cold-l2"});
  CHECK(o.problem == FemProblem::elasticity);
  CHECK(o.n == 24);
  CHECK(o.tol == 1e-6);
  CHECK(o.max_iterations == 500);
  CHECK(o.precond == Preconditioner::block_jacobi);
  CHECK(o.dtype == DType::f32);
  CHECK(o.steps == 5);
  CHECK(o.refinements == std::vector<int>{3, 6, 12});
  CHECK(!o.verify);
  CHECK(o.vtk_path == "u.vtk");
  CHECK(o.plot_path == "r.png");
  CHECK(o.compare);
  CHECK(o.timing.iters == 4);
  CHECK(o.timing.warmup == 1);
  CHECK(!o.timing.cold_l2);
  CHECK(parse({"--dtype", "f32"}).tol == 1e-6);
  CHECK(parse({"--dtype", "f32", "--tol", "1e-4"}).tol == 1e-4);
  CHECK(parse({"--help"}).help);
  CHECK(fem_help().find("--precond") != std::string::npos);
}

TEST_CASE("fem_solve command line errors", "[apps][fem]") {
  CHECK_APP_ERROR(parse({"--problem", "heat"}), Errc::invalid_argument,
                  "--problem: unknown problem 'heat' (expected poisson or elasticity)");
  CHECK_APP_ERROR(parse({"--precond", "ilu"}), Errc::invalid_argument,
                  "--precond: unknown preconditioner 'ilu' (expected jacobi or block-jacobi)");
  CHECK_APP_ERROR(parse({"--dtype", "f16"}), Errc::invalid_argument, "--dtype: unsupported dtype 'f16' (expected f64 or f32)");
  CHECK_APP_ERROR(parse({"--n", "0"}), Errc::invalid_argument, "--n must be at least 1 (got 0)");
  CHECK_APP_ERROR(parse({"--tol", "0"}), Errc::invalid_argument, "--tol must be in (0, 1)");
  CHECK_APP_ERROR(parse({"--tol", "2"}), Errc::invalid_argument, "--tol must be in (0, 1)");
  CHECK_APP_ERROR(parse({"--max-iter", "0"}), Errc::invalid_argument, "--max-iter must be at least 1 (got 0)");
  CHECK_APP_ERROR(parse({"--steps", "0"}), Errc::invalid_argument, "--steps must be at least 1 (got 0)");
  CHECK_APP_ERROR(parse({"--refinements", "8"}), Errc::invalid_argument,
                  "--refinements needs at least 2 meshes to give a rate (got 8)");
  CHECK_APP_ERROR(parse({"--refinements", "4,8,12"}), Errc::invalid_argument,
                  "--refinements: each mesh must have twice the cells per side of the one before (8 is followed by 12)");
  CHECK_APP_ERROR(parse({"--problem", "elasticity", "--n", "200"}), Errc::invalid_argument,
                  "fem mesh: elasticity at n = 200 has");
  CHECK_APP_ERROR(parse({"--n"}), Errc::invalid_argument, "--n");
  CHECK_APP_ERROR(parse({"--bogus"}), Errc::invalid_argument, "bogus");
}

TEST_CASE("fem_solve verification rules: rates, iteration growth, residual, convergence", "[apps][fem]") {
  auto row = [](int n, double l2, double h1, unsigned iterations) {
    VerificationRow r;
    r.n = n;
    r.l2 = l2;
    r.h1 = h1;
    r.iterations = iterations;
    r.converged = true;
    r.true_rel_residual = 1e-9;
    return r;
  };
  std::vector<VerificationRow> rows = {row(4, 16, 8, 10), row(8, 4, 4, 30), row(16, 1, 2, 60), row(32, 0.25, 1, 120)};
  add_rates(rows);
  CHECK(std::isnan(rows[0].l2_rate));
  CHECK(rows[1].l2_rate == 2.0);
  CHECK(rows[2].h1_rate == 1.0);
  CHECK(rows[1].iteration_ratio == 3.0);
  CHECK(rows[3].iteration_ratio == 2.0);
  bool passed = false;
  std::vector<std::string> lines = verification_checks(rows, 1e-7, passed);
  CHECK(passed);  // the 3x growth of the coarsest pair is not checked
  CHECK(lines.front() == "PASS L2 rate 4 -> 8: 2.000 (expected 2 +- 0.15)");

  rows[3].l2 = 0.3;     // rate 1.74
  rows[3].iterations = 200;  // 3.3x
  rows[2].converged = false;
  rows[0].true_rel_residual = 1e-5;
  add_rates(rows);
  lines = verification_checks(rows, 1e-7, passed);
  CHECK(!passed);
  auto has = [&](const std::string& text) {
    for (const auto& l : lines)
      if (l.find(text) != std::string::npos) return true;
    return false;
  };
  CHECK(has("FAIL L2 rate 16 -> 32: 1.737"));
  CHECK(has("FAIL PCG iterations 16 -> 32 grew 3.33x"));
  CHECK(has("FAIL n = 16: PCG converged"));
  CHECK(has("FAIL n = 4: true residual"));
  CHECK(has("PASS H1 rate 16 -> 32"));
  verification_checks({row(8, 1, 1, 1)}, 1e-7, passed);
  CHECK(!passed);

  CHECK(true_residual_limit(1e-8, DType::f64) == 1e-7);
  CHECK(true_residual_limit(1e-15, DType::f64) == 1e-13);
  CHECK(true_residual_limit(1e-8, DType::f32) == 1e-4);
  const std::string md = verification_markdown(rows, FemOptions{}, 1e-7);
  CHECK(md.find("| mesh |") != std::string::npos);
  CHECK(md.find("Verification FAILED") != std::string::npos);
}

TEST_CASE("fem_solve byte model, speedup targets, residual-history sampling, tables", "[apps][fem]") {
  // Elasticity 2^3 cells: 27 nodes, 81 DOFs; a BSR 3x3 with 343 blocks.
  CHECK(matrix_bytes(81, 3, 343, 8) == 28 * 4 + 343 * (4 + 72));
  CHECK(pcg_iteration_bytes(81, 3, 343, 8, Preconditioner::jacobi) == matrix_bytes(81, 3, 343, 8) + 13 * 81 * 8);
  CHECK(pcg_iteration_bytes(81, 3, 343, 8, Preconditioner::block_jacobi) == matrix_bytes(81, 3, 343, 8) + 15 * 81 * 8);
  CHECK(pcg_iteration_bytes(81, 1, 3087, 4, Preconditioner::none) == 82 * 4 + 3087 * 8 + 11 * 81 * 4);
  CHECK(std::isnan(speedup_target(16)));
  CHECK(speedup_target(32) == 3.0);
  CHECK(speedup_target(64) == 3.0);
  CHECK(speedup_target(128) == 1.5);
  CHECK(history_points(0).empty());
  CHECK(history_points(1) == std::vector<unsigned>{1});
  CHECK(history_points(40) == std::vector<unsigned>{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 40});
  CHECK(history_points(32) == std::vector<unsigned>{1, 2, 3, 4, 6, 8, 12, 16, 24, 32});
  const bench::PanelChart chart = residual_chart({0, 1, 2}, {1.0, 0.5, 0.1}, "t");
  REQUIRE(chart.panels.size() == 1);
  CHECK(chart.panels[0].x_labels == std::vector<std::string>{"0", "1", "2"});
  CHECK(chart.panels[0].values[2][0] == 0.1);

  CompareRow ours;
  ours.solver = "bsrflow";
  ours.iterations = 10;
  ours.us_per_iteration = 10;
  ours.speedup = 3.5;
  CompareRow peer;
  peer.solver = "peer";
  peer.us_per_iteration = 35;
  peer.speedup = kNaN;
  const std::string md = compare_markdown({ours, peer}, 64, 3000);
  CHECK(md.find("bsrflow >= 3.0x faster per iteration than the peer: 3.50x, met") != std::string::npos);
  CHECK(compare_markdown({ours, peer}, 16, 3000).find("Target") == std::string::npos);
  StepRow step;
  step.iterations = 7;
  step.converged = true;
  CHECK(steps_markdown({step}).find(" 7 |") != std::string::npos);
}

namespace {

template <class T>
std::vector<T> copy_to_host(const T* device, std::int64_t count) {
  std::vector<T> host(static_cast<std::size_t>(count));
  if (count > 0) BSRFLOW_CUDA(cudaMemcpy(host.data(), device, host.size() * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

// The GPU system (assembled with coefficient c) against the CPU reference pipeline: the same
// pattern, bitwise the same matrix (same products, same COO -> CSR summation order, same
// elimination), b within rounding (device sin/cos/exp), the BSR equal to the host conversion.
template <class T>
void check_system_against_cpu(FemProblem p, int n, double c) {
  Stream stream;
  FemSystem<T> sys(p, n, Material{}, stream);
  sys.assemble(c, stream);
  const HostSystem<T> cpu = assemble_system<T>(make_mesh(p, n), StepData{p, Material{}, c});
  const HostCsr<T> gpu = sys.host_matrix(stream);
  CHECK(gpu.row_ptr == cpu.A.row_ptr);
  CHECK(gpu.col_idx == cpu.A.col_idx);
  CHECK(gpu.values == cpu.A.values);
  const std::vector<T> b = sys.host_rhs(stream);
  REQUIRE(b.size() == cpu.b.size());
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    diff = std::max(diff, std::fabs(static_cast<double>(b[i]) - static_cast<double>(cpu.b[i])));
    norm = std::max(norm, std::fabs(static_cast<double>(cpu.b[i])));
  }
  CHECK(diff <= (sizeof(T) == 8 ? 1e-13 : 1e-5) * norm);
  const BsrView<const T> A = sys.matrix();
  CHECK(A.R == dofs_per_node(p));
  CHECK(A.C == dofs_per_node(p));
  if (A.R > 1) {
    BSRFLOW_CUDA(cudaStreamSynchronize(stream));
    const HostBsr<T> host = host::csr_to_bsr(cpu.A, 3, 3, Padding::reject);
    CHECK(copy_to_host(A.row_ptr, A.block_rows() + 1) == host.row_ptr);
    CHECK(copy_to_host(A.col_idx, A.nnzb) == host.col_idx);
    CHECK(copy_to_host(A.values, A.value_count()) == host.values);
  }
}

// The GPU PCG (one graph launch) on the GPU system against the CPU reference solve.
template <class T>
void check_solve_against_cpu(FemProblem p, int n, Preconditioner precond) {
  Stream stream;
  FemSystem<T> sys(p, n, Material{}, stream);
  sys.assemble(1.0, stream);
  PcgOptions options;
  options.rtol = sizeof(T) == 8 ? 1e-12 : 1e-6;
  options.max_iterations = 2000;
  options.preconditioner = precond;
  PcgSolver<T> cg(sys.matrix(), options, stream);
  DeviceBuffer<T> x(static_cast<std::size_t>(sys.dofs()), stream);
  x.fill_bytes(0, stream);
  const PcgResult r = cg.solve(sys.rhs(), x.data(), stream);
  CHECK(r.converged);
  const ReferenceSolve ref = cpu_reference_solve(p, n, 1e-12);
  const std::vector<T> gx = x.to_host(stream);
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < gx.size(); ++i) {
    const double d = static_cast<double>(gx[i]) - ref.x[i];
    diff += d * d;
    norm += ref.x[i] * ref.x[i];
  }
  CHECK(std::sqrt(diff / norm) < (sizeof(T) == 8 ? 1e-8 : 1e-3));
  const FemErrors e = fem_errors(sys.mesh(), p, std::vector<double>(gx.begin(), gx.end()));
  CHECK(e.l2 == Approx(ref.errors.l2).epsilon(sizeof(T) == 8 ? 1e-6 : 1e-2));

  // A load step: coefficient 2.5 (load scaled with it), numeric phases, refresh, the same graph:
  // the exact solution is the same, so is x up to the solver tolerance.
  sys.assemble(2.5, stream);
  cg.refresh_preconditioner(sys.matrix(), stream);
  x.fill_bytes(0, stream);
  const PcgResult r2 = cg.solve(sys.rhs(), x.data(), stream);
  CHECK(r2.converged);
  const std::vector<T> gx2 = x.to_host(stream);
  diff = 0;
  for (std::size_t i = 0; i < gx2.size(); ++i) {
    const double d = static_cast<double>(gx2[i]) - static_cast<double>(gx[i]);
    diff += d * d;
  }
  CHECK(std::sqrt(diff / norm) < (sizeof(T) == 8 ? 1e-8 : 1e-3));
}

}  // namespace

TEST_CASE("fem GPU assembly equals the CPU reference (COO -> CSR -> BSR, load, Dirichlet)", "[apps][fem][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  check_system_against_cpu<double>(FemProblem::poisson, 5, 1.0);
  check_system_against_cpu<double>(FemProblem::elasticity, 4, 1.7);
  check_system_against_cpu<float>(FemProblem::poisson, 4, 1.0);
  check_system_against_cpu<float>(FemProblem::elasticity, 3, 1.0);
}

TEST_CASE("fem GPU PCG solve equals the CPU reference solve, and a load step replays it", "[apps][fem][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  check_solve_against_cpu<double>(FemProblem::poisson, 8, Preconditioner::jacobi);
  check_solve_against_cpu<double>(FemProblem::elasticity, 6, Preconditioner::jacobi);
  check_solve_against_cpu<double>(FemProblem::elasticity, 6, Preconditioner::block_jacobi);
  check_solve_against_cpu<float>(FemProblem::poisson, 8, Preconditioner::jacobi);
  check_solve_against_cpu<float>(FemProblem::elasticity, 4, Preconditioner::block_jacobi);
}

TEST_CASE("fem_solve end to end on small meshes: verification passes, steps and compare rows", "[apps][fem][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  for (const std::string problem : {"poisson", "elasticity"}) {
    FemOptions o = parse({"--problem", problem, "--n", "8", "--refinements", "4,8,16", "--steps", "3", "--compare",
                          "--iters", "2", "--warmup", "1"});
    const FemRun run = run_fem(o, nullptr);
    INFO(fem_markdown(run, o));
    CHECK(run.verification_passed);
    REQUIRE(run.verification.size() == 3);
    CHECK(run.steps.size() == 3);
    for (const auto& s : run.steps) CHECK(s.converged);
    CHECK(run.true_rel_residual < 1e-7);
    REQUIRE(run.compare.size() == (problem == "poisson" ? 2u : 3u));
    for (const auto& c : run.compare) {
      CHECK(c.status == "ok");
      CHECK(c.true_rel_residual < 1e-6);
      CHECK(c.us_per_iteration > 0);
    }
  }
}


TEST_CASE("fem_solve report: every section from a run's records", "[apps][fem]") {
  FemOptions o = parse({"--problem", "elasticity", "--n", "16", "--compare"});
  FemRun run;
  run.info = {"NVIDIA H100", "2026-01-01T00:00:00Z", "abc1234"};
  VerificationRow v;
  v.n = 4;
  v.l2 = 1;
  v.h1 = 1;
  v.converged = true;
  VerificationRow w = v;
  w.n = 8;
  w.l2 = 0.25;
  w.h1 = 0.5;
  run.verification = {v, w};
  add_rates(run.verification);
  run.dofs = 14739;
  run.matrix_shape = "BSR 3x3, 4913 block rows, 117649 blocks";
  run.solver = "pcg f64";
  run.steps = {StepRow{}};
  run.compare = {CompareRow{}};
  run.compare[0].solver = "bsrflow PCG, BSR 3x3 (one graph launch)";
  const std::string md = fem_markdown(run, o);
  for (const char* text : {"# fem_solve: elasticity", "Device: NVIDIA H100", "## Verification: elasticity",
                           "Verification PASSED", "## Main solve: 16^3 cells, 14739 DOFs, f64",
                           "BSR 3x3, 4913 block rows, 117649 blocks", "CSR->BSR", "## Compare",
                           "bsrflow PCG, BSR 3x3 (one graph launch)"}) {
    INFO(text);
    CHECK(md.find(text) != std::string::npos);
  }
  o.verify = false;
  o.compare = false;
  const std::string short_md = fem_markdown(run, o);
  CHECK(short_md.find("## Verification") == std::string::npos);
  CHECK(short_md.find("## Compare") == std::string::npos);
}
