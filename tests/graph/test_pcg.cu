// PcgSolver on SPD block matrices against solutions known in advance (b = A x* on the CPU).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/graph/pcg.hpp"
#include "bsrflow/ops/spmv.hpp"
#include "support/expect_error.hpp"
#include "support/gpu.hpp"

using namespace bsrflow;

namespace {

// The 7-point Laplacian on grid^3 nodes with b x b blocks: diagonal blocks d I + 0.5 (J - I) with
// d = 6 + 0.5 (b - 1) (coupling the b unknowns of a node), off-diagonal blocks -I. Every row is
// weakly diagonally dominant (strictly at the boundary) and the grid is connected, so the matrix
// is symmetric positive definite. (With d = 6 and b >= 2 its smallest eigenvalue is
// 5.5 - 6 cos(pi / (grid + 1)) < 0 for grid >= 7: indefinite, and PCG breaks down.)
template <class T>
HostBsr<T> spd_stencil(int grid, int b) {
  HostBsr<T> h;
  const int nodes = grid * grid * grid;
  h.rows = h.cols = nodes * b;
  h.R = h.C = b;
  h.row_ptr.push_back(0);
  for (int z = 0; z < grid; ++z)
    for (int y = 0; y < grid; ++y)
      for (int x = 0; x < grid; ++x) {
        const int node = (z * grid + y) * grid + x;
        const int neighbours[7] = {z > 0 ? node - grid * grid : -1, y > 0 ? node - grid : -1, x > 0 ? node - 1 : -1,
                                   node, x + 1 < grid ? node + 1 : -1, y + 1 < grid ? node + grid : -1,
                                   z + 1 < grid ? node + grid * grid : -1};
        for (int col : neighbours) {
          if (col < 0) continue;
          h.col_idx.push_back(col);
          for (int r = 0; r < b; ++r)
            for (int c = 0; c < b; ++c)
              h.values.push_back(
                  static_cast<T>(col == node ? (r == c ? 6.0 + 0.5 * (b - 1) : 0.5) : (r == c ? -1.0 : 0.0)));
        }
        h.row_ptr.push_back(static_cast<int>(h.col_idx.size()));
      }
  return h;
}

template <class T>
std::vector<double> multiply(const HostBsr<T>& A, const std::vector<double>& x) {
  std::vector<double> y(static_cast<std::size_t>(A.rows), 0.0);
  for (int br = 0; br < A.block_rows(); ++br)
    for (int k = A.row_ptr[br]; k < A.row_ptr[br + 1]; ++k)
      for (int r = 0; r < A.R; ++r)
        for (int c = 0; c < A.C; ++c)
          y[static_cast<std::size_t>(br * A.R + r)] +=
              static_cast<double>(A.at(k, r, c)) * x[static_cast<std::size_t>(A.col_idx[k] * A.C + c)];
  return y;
}

double relative_distance(const std::vector<double>& a, const std::vector<double>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += (a[i] - b[i]) * (a[i] - b[i]);
    den += b[i] * b[i];
  }
  return std::sqrt(num / den);
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

template <class T>
std::vector<double> to_double_vector(const std::vector<T>& v) {
  return {v.begin(), v.end()};
}

template <class T>
struct Problem {
  HostBsr<T> host;
  Bsr<T> A;
  std::vector<double> x_star, b;
  DeviceBuffer<T> b_dev, x_dev;

  Problem(int grid, int block, unsigned seed, cudaStream_t stream) : host(spd_stencil<T>(grid, block)) {
    A = Bsr<T>::from_host(host, stream);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    x_star.resize(static_cast<std::size_t>(host.rows));
    for (double& v : x_star) v = static_cast<double>(static_cast<T>(u(rng)));
    b = multiply(host, x_star);
    std::vector<T> bt(b.begin(), b.end());
    b_dev = DeviceBuffer<T>::from_host(bt, stream);
    x_dev = DeviceBuffer<T>(b.size(), stream);
  }
  void zero_guess(cudaStream_t stream) { x_dev.fill_bytes(0, stream); }
  std::vector<double> x(cudaStream_t stream) const { return to_double_vector(x_dev.to_host(stream)); }
  double true_relative_residual(const std::vector<double>& x) const {
    const std::vector<double> ax = multiply(host, x);
    double num = 0, den = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
      num += (b[i] - ax[i]) * (b[i] - ax[i]);
      den += b[i] * b[i];
    }
    return std::sqrt(num / den);
  }
};

}  // namespace

TEST_CASE("The PCG test matrices are weakly diagonally dominant with a positive diagonal (so SPD)", "[graph][pcg]") {
  for (const auto& [grid, block] : {std::pair{11, 1}, std::pair{11, 2}, std::pair{11, 3}, std::pair{6, 8},
                                    std::pair{12, 3}, std::pair{10, 3}, std::pair{8, 3}, std::pair{8, 1}}) {
    CAPTURE(grid, block);
    const HostBsr<double> A = spd_stencil<double>(grid, block);
    int strict = 0;
    for (int br = 0; br < A.block_rows(); ++br)
      for (int r = 0; r < A.R; ++r) {
        double diagonal = 0, off = 0;
        for (int k = A.row_ptr[br]; k < A.row_ptr[br + 1]; ++k)
          for (int c = 0; c < A.C; ++c) {
            const double v = A.at(k, r, c);
            if (A.col_idx[k] == br && c == r)
              diagonal = v;
            else
              off += std::abs(v);
          }
        REQUIRE(diagonal > 0);
        REQUIRE(diagonal >= off);
        if (diagonal > off) ++strict;
      }
    CHECK(strict > 0);
  }
}

TEST_CASE("PCG solves SPD block systems to the requested tolerance", "[graph][pcg][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const int block = GENERATE(1, 2, 3, 8);
  const Preconditioner precond = GENERATE(Preconditioner::none, Preconditioner::jacobi, Preconditioner::block_jacobi);
  const PcgExecution execution = GENERATE(PcgExecution::graph_loop, PcgExecution::persistent);
  CAPTURE(block, preconditioner_name(precond), pcg_execution_name(execution));
  Problem<double> p(block == 8 ? 6 : 11, block, 7u + block, stream);
  PcgOptions options;
  options.rtol = 1e-10;
  options.preconditioner = precond;
  options.execution = execution;
  PcgSolver<double> cg(p.A.view(), options, stream);
  CHECK(cg.execution() == execution);
  p.zero_guess(stream);
  const PcgResult r = cg.solve(p.b_dev.data(), p.x_dev.data(), stream);
  const std::vector<double> x = p.x(stream);
  CAPTURE(r.iterations, r.relative_residual(), cg.describe());
  CHECK(r.converged);
  CHECK_FALSE(r.breakdown);
  CHECK(r.iterations > 5);
  CHECK(r.iterations < 200);
  CHECK(r.relative_residual() <= 1e-10);
  CHECK(p.true_relative_residual(x) <= 1e-9);  // the recurrence stays close to the true residual
  CHECK(relative_distance(x, p.x_star) <= 1e-8);
}

TEST_CASE("PCG in f32 reaches f32 accuracy", "[graph][pcg][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  Problem<float> p(12, 3, 99, stream);
  PcgOptions options;
  options.rtol = 1e-5;
  options.preconditioner = Preconditioner::block_jacobi;
  options.execution = GENERATE(PcgExecution::graph_loop, PcgExecution::persistent);
  CAPTURE(pcg_execution_name(options.execution));
  PcgSolver<float> cg(p.A.view(), options, stream);
  p.zero_guess(stream);
  const PcgResult r = cg.solve(p.b_dev.data(), p.x_dev.data(), stream);
  CHECK(r.converged);
  CHECK(relative_distance(p.x(stream), p.x_star) <= 1e-4);
}

TEST_CASE("PCG repeats bitwise, re-points b and x in place, and matches eagerly and in host-checked mode", "[graph][pcg][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  Problem<double> p(10, 3, 5, stream);
  PcgOptions options;
  options.rtol = 1e-9;
  options.preconditioner = Preconditioner::block_jacobi;
  options.execution = PcgExecution::graph_loop;  // solve_eager runs this execution's kernels
  PcgSolver<double> cg(p.A.view(), options, stream);
  p.zero_guess(stream);
  const PcgResult first = cg.solve(p.b_dev.data(), p.x_dev.data(), stream);
  const std::vector<double> x1 = p.x(stream);
  p.zero_guess(stream);
  const PcgResult second = cg.solve(p.b_dev.data(), p.x_dev.data(), stream);
  const std::vector<double> x2 = p.x(stream);
  CHECK(first.iterations == second.iterations);
  CHECK(same_bits(x1, x2));

  // Other b and x buffers: node updates, not a new graph.
  DeviceBuffer<double> b2(p.b.size(), stream), x_other(p.b.size(), stream);
  BSRFLOW_CUDA(cudaMemcpyAsync(b2.data(), p.b_dev.data(), b2.bytes(), cudaMemcpyDeviceToDevice, stream));
  x_other.fill_bytes(0, stream);
  const cudaGraphExec_t native = cg.graph().native();
  const PcgResult moved = cg.solve(b2.data(), x_other.data(), stream);
  const std::vector<double> x3 = to_double_vector(x_other.to_host(stream));
  CHECK(moved.iterations == first.iterations);
  CHECK(same_bits(x1, x3));
  CHECK(cg.graph().native() == native);
  CHECK(cg.graph().stats().instantiations == 1);
  CHECK(cg.graph().stats().node_updates + cg.graph().stats().whole_graph_updates >= 6);

  // Eager launches of the same kernels, a host check every 3 iterations: the same answer.
  p.zero_guess(stream);
  const PcgResult eager = cg.solve_eager(p.b_dev.data(), p.x_dev.data(), stream, 3);
  const std::vector<double> x5 = p.x(stream);
  CHECK(eager.iterations == first.iterations);
  CHECK(eager.converged);
  CHECK(same_bits(x1, x5));

  options.loop_mode = LoopMode::host_checked;
  options.unroll = 4;
  PcgSolver<double> host_checked(p.A.view(), options, stream);
  CHECK(host_checked.graph().loop_mode() == LoopMode::host_checked);
  p.zero_guess(stream);
  const PcgResult hc = host_checked.solve(p.b_dev.data(), p.x_dev.data(), stream);
  const std::vector<double> x4 = p.x(stream);
  CHECK(hc.iterations == first.iterations);
  CHECK(same_bits(x1, x4));
}

TEST_CASE("PCG as one persistent kernel repeats bitwise, re-points b and x in place, and agrees with the graph loop",
          "[graph][pcg][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const int block = GENERATE(1, 3);
  CAPTURE(block);
  Problem<double> p(12, block, 17, stream);
  PcgOptions options;
  options.rtol = 1e-10;
  options.preconditioner = block == 1 ? Preconditioner::jacobi : Preconditioner::block_jacobi;
  options.execution = PcgExecution::persistent;
  PcgSolver<double> cg(p.A.view(), options, stream);
  CAPTURE(cg.describe());
  CHECK(cg.describe().find("one persistent cooperative kernel of") != std::string::npos);
  // Jacobi (one row per preconditioner block): the one-barrier loop; block-Jacobi: the two-barrier one.
  CHECK(cg.describe().find(block == 1 ? "one grid barrier per iteration" : "two grid barriers per iteration") !=
        std::string::npos);
  p.zero_guess(stream);
  const PcgResult first = cg.solve(p.b_dev.data(), p.x_dev.data(), stream);
  const std::vector<double> x1 = p.x(stream);
  CHECK(first.converged);
  CHECK(relative_distance(x1, p.x_star) <= 1e-8);

  // Again from a poisoned guess overwritten by the same start: bitwise the same solve.
  p.x_dev.fill_bytes(0xFF, stream);
  p.zero_guess(stream);
  const PcgResult second = cg.solve(p.b_dev.data(), p.x_dev.data(), stream);
  CHECK(second.iterations == first.iterations);
  CHECK(same_bits(x1, p.x(stream)));

  // Other b and x buffers: one kernel-node update, not a new graph.
  DeviceBuffer<double> b2(p.b.size(), stream), x_other(p.b.size(), stream);
  BSRFLOW_CUDA(cudaMemcpyAsync(b2.data(), p.b_dev.data(), b2.bytes(), cudaMemcpyDeviceToDevice, stream));
  x_other.fill_bytes(0, stream);
  const cudaGraphExec_t native = cg.graph().native();
  const PcgResult moved = cg.solve(b2.data(), x_other.data(), stream);
  CHECK(moved.iterations == first.iterations);
  CHECK(same_bits(x1, to_double_vector(x_other.to_host(stream))));
  CHECK(cg.graph().native() == native);
  CHECK(cg.graph().stats().instantiations == 1);

  // The graph loop solves the same system: the same answer to well within the solution's own
  // error (other reduction trees and, for Jacobi, the Chronopoulos-Gear recurrences), in the same
  // number of iterations give or take one.
  options.execution = PcgExecution::graph_loop;
  options.loop_mode = LoopMode::host_checked;  // no conditional node: this test also runs under racecheck
  PcgSolver<double> loop(p.A.view(), options, stream);
  p.zero_guess(stream);
  const PcgResult looped = loop.solve(p.b_dev.data(), p.x_dev.data(), stream);
  CHECK(relative_distance(p.x(stream), x1) <= 1e-8);
  CHECK(looped.iterations + 1 >= first.iterations);
  CHECK(first.iterations + 1 >= looped.iterations);
  CHECK(looped.converged);

  // automatic takes the persistent kernel for a system this small.
  options.execution = PcgExecution::automatic;
  options.loop_mode = LoopMode::automatic;
  PcgSolver<double> automatic(p.A.view(), options, stream);
  CHECK(automatic.execution() == PcgExecution::persistent);
}

TEST_CASE("PCG on a captured operator agrees with the BSR path", "[graph][pcg][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  Problem<double> p(10, 1, 11, stream);
  const SpmvPlan spmv = plan_spmv<double>(p.A.view(), stream);
  JacobiPreconditioner<double> jacobi(p.A.view(), Preconditioner::jacobi, stream);
  LinearOperator<double> op;
  op.n = p.host.rows;
  op.apply = [&](const double* x, double* y, cudaStream_t s) {
    spmv.run<double>(p.A.view(), x, y, scalar(1.0), scalar(0.0), s);
  };
  op.inverse_diagonal = jacobi.inverse().data();
  PcgOptions options;
  options.rtol = 1e-10;
  options.execution = PcgExecution::graph_loop;  // the BSR solver below: the same kernels
  PcgSolver<double> cg(op, options, stream);
  p.zero_guess(stream);
  const PcgResult r = cg.solve(p.b_dev.data(), p.x_dev.data(), stream);
  CHECK(r.converged);
  CHECK(relative_distance(p.x(stream), p.x_star) <= 1e-8);
  PcgSolver<double> bsr(p.A.view(), options, stream);
  p.zero_guess(stream);
  const PcgResult rb = bsr.solve(p.b_dev.data(), p.x_dev.data(), stream);
  CHECK(rb.iterations == r.iterations);  // same algorithm; only p.q's reduction differs
  // A second x: the operator path re-captures q = A x.
  DeviceBuffer<double> x2(p.b.size(), stream);
  x2.fill_bytes(0, stream);
  CHECK(cg.solve(p.b_dev.data(), x2.data(), stream).iterations == r.iterations);
  CHECK(cg.graph().stats().recaptures == 2);  // the first bind and this one
}

TEST_CASE("PCG stops at the limit, on an exact start, and reports breakdown", "[graph][pcg][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  Problem<double> p(8, 1, 3, stream);
  PcgOptions options;
  options.rtol = 1e-12;
  options.max_iterations = 5;
  options.execution = GENERATE(PcgExecution::graph_loop, PcgExecution::persistent);
  CAPTURE(pcg_execution_name(options.execution));
  PcgSolver<double> capped(p.A.view(), options, stream);
  p.zero_guess(stream);
  PcgResult r = capped.solve(p.b_dev.data(), p.x_dev.data(), stream);
  CHECK(r.iterations == 5);
  CHECK_FALSE(r.converged);

  // b = 0, x0 = 0: converged before the first iteration.
  DeviceBuffer<double> zero(p.b.size(), stream);
  zero.fill_bytes(0, stream);
  p.zero_guess(stream);
  options.max_iterations = 100;
  PcgSolver<double> exact(p.A.view(), options, stream);
  r = exact.solve(zero.data(), p.x_dev.data(), stream);
  CHECK(r.iterations == 0);
  CHECK(r.converged);

  // -A is negative definite: p.Ap < 0 in the first iteration.
  HostBsr<double> negative = p.host;
  for (double& v : negative.values) v = -v;
  auto N = Bsr<double>::from_host(negative, stream);
  options.preconditioner = Preconditioner::none;
  PcgSolver<double> broken(N.view(), options, stream);
  p.zero_guess(stream);
  r = broken.solve(p.b_dev.data(), p.x_dev.data(), stream);
  CHECK(r.breakdown);
  CHECK_FALSE(r.converged);
  CHECK(r.iterations == 1);
}

TEST_CASE("PCG follows new matrix values after refresh_preconditioner", "[graph][pcg][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  Problem<double> p(8, 3, 21, stream);
  PcgOptions options;
  options.rtol = 1e-10;
  options.preconditioner = Preconditioner::block_jacobi;
  options.execution = GENERATE(PcgExecution::graph_loop, PcgExecution::persistent);
  CAPTURE(pcg_execution_name(options.execution));
  PcgSolver<double> cg(p.A.view(), options, stream);
  HostBsr<double> doubled = p.host;
  for (double& v : doubled.values) v *= 2;
  p.A.values().copy_from_host(doubled.values, stream);  // same pattern, same pointer, new values
  cg.refresh_preconditioner(p.A.view(), stream);
  p.zero_guess(stream);
  const PcgResult r = cg.solve(p.b_dev.data(), p.x_dev.data(), stream);
  CHECK(r.converged);
  std::vector<double> half = p.x_star;
  for (double& v : half) v *= 0.5;
  CHECK(relative_distance(p.x(stream), half) <= 1e-8);
}

TEST_CASE("PCG refuses what it cannot solve", "[graph][pcg]") {
  BsrView<const double> rect{6, 9, 3, 3, 0, nullptr, nullptr, nullptr};
  BSRFLOW_CHECK_ERROR(PcgSolver<double>(rect, PcgOptions{}, nullptr), Errc::invalid_argument,
                      "PCG: the matrix must be square with square blocks (got 6 x 9, blocks 3 x 3)");
  LinearOperator<double> op;
  op.n = 10;
  op.apply = [](const double*, double*, cudaStream_t) {};
  PcgOptions options;
  options.preconditioner = Preconditioner::block_jacobi;
  BSRFLOW_CHECK_ERROR(PcgSolver<double>(op, options, nullptr), Errc::unsupported,
                      "PCG: block-Jacobi needs the BSR matrix; a LinearOperator takes jacobi or none");
  options.preconditioner = Preconditioner::jacobi;
  BSRFLOW_CHECK_ERROR(PcgSolver<double>(op, options, nullptr), Errc::invalid_argument,
                      "PCG: jacobi with a LinearOperator needs its inverse_diagonal");
  options.preconditioner = Preconditioner::none;
  options.execution = PcgExecution::persistent;
  BSRFLOW_CHECK_ERROR(PcgSolver<double>(op, options, nullptr), Errc::unsupported,
                      "PCG: PcgExecution::persistent needs the BSR matrix; a LinearOperator runs graph_loop");
}

TEST_CASE("PCG's execution rule: persistent for small matrices on devices with cooperative launches", "[graph][pcg]") {
  constexpr std::int64_t kLimit = kPcgPersistentMaxMatrixBytes;
  // automatic: up to the size limit, and only where cooperative launches exist.
  CHECK(pcg_runs_persistent(PcgExecution::automatic, 1000, kLimit, true));
  CHECK_FALSE(pcg_runs_persistent(PcgExecution::automatic, 1000, kLimit + 1, true));
  CHECK_FALSE(pcg_runs_persistent(PcgExecution::automatic, 1000, 1024, false));
  // graph_loop never; an empty matrix never (nothing to launch), whatever was asked.
  CHECK_FALSE(pcg_runs_persistent(PcgExecution::graph_loop, 1000, 1024, true));
  CHECK_FALSE(pcg_runs_persistent(PcgExecution::persistent, 0, 0, false));
  // persistent: any size, but a device without cooperative launches is an error, not a fallback.
  CHECK(pcg_runs_persistent(PcgExecution::persistent, 1000, 100 * kLimit, true));
  BSRFLOW_CHECK_ERROR(pcg_runs_persistent(PcgExecution::persistent, 1000, 1024, false), Errc::unsupported,
                      "PCG: PcgExecution::persistent needs a device with cooperative launches");
}
