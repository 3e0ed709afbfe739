// fem_solve's discretisation on the CPU: the structured mesh's index math, the Q1 reference
// element matrices (exact entries, symmetry, zero row sums, rigid-body null space), the assembled
// system and its Dirichlet elimination, the CPU PCG, and the convergence rates of the whole CPU
// reference pipeline against the manufactured solutions.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "bsrflow/apps/fem_solve/fem_reference.hpp"
#include "bsrflow/apps/fem_solve/reference_element.hpp"
#include "bsrflow/apps/fem_solve/vtk_writer.hpp"
#include "bsrflow/formats/host_convert.hpp"
#include "support/expect_error.hpp"

using namespace bsrflow;
using namespace bsrflow::fem;

TEST_CASE("fem mesh: counts, node and element numbering, COO layout, boundary", "[apps][fem]") {
  const HexMesh m{3, 1};
  CHECK(m.node_count() == 64);
  CHECK(m.element_count() == 27);
  CHECK(m.coo_entries() == 27 * 64);
  // Element 0's nodes: x fastest, then y, then z.
  const std::vector<std::int64_t> expect = {0, 1, 4, 5, 16, 17, 20, 21};
  for (int a = 0; a < 8; ++a) CHECK(m.element_node(0, a) == expect[a]);
  // The last element (2, 2, 2) has the last node as its local node 7.
  CHECK(m.element_node(26, 7) == 63);
  CHECK(m.element_node(26, 0) == m.node_id(2, 2, 2));
  for (std::int64_t node = 0; node < m.node_count(); ++node) {
    int i, j, k;
    m.node_ijk(node, i, j, k);
    CHECK(m.node_id(i, j, k) == node);
  }
  std::int64_t boundary = 0;
  for (std::int64_t node = 0; node < m.node_count(); ++node) boundary += m.boundary_node(node) ? 1 : 0;
  CHECK(boundary == 64 - 8);  // (n+1)^3 - (n-1)^3

  // Elasticity: DOF = node * 3 + component; COO entry (e, p, q) -> (dof(e, p), dof(e, q)).
  const HexMesh e{2, 3};
  CHECK(e.element_dofs() == 24);
  int row = -1, col = -1;
  const std::int64_t t = 5 * 24 * 24 + 7 * 24 + 23;  // element 5, p = 7 (node 2, comp 1), q = 23 (node 7, comp 2)
  e.coo_entry(t, row, col);
  CHECK(row == e.element_node(5, 2) * 3 + 1);
  CHECK(col == e.element_node(5, 7) * 3 + 2);
  CHECK(e.boundary_dof(e.node_id(1, 1, 1) * 3 + 2) == false);
  CHECK(e.boundary_dof(e.node_id(1, 1, 2) * 3) == true);
}

TEST_CASE("fem mesh: n < 1 and a COO beyond int32 are refused", "[apps][fem]") {
  BSRFLOW_CHECK_ERROR(make_mesh(FemProblem::poisson, 0), Errc::invalid_argument, "fem mesh: n must be at least 1 (got 0)");
  CHECK(make_mesh(FemProblem::elasticity, 155).coo_entries() < (std::int64_t{1} << 31));
  BSRFLOW_CHECK_ERROR(make_mesh(FemProblem::elasticity, 156), Errc::invalid_argument,
                      "fem mesh: elasticity at n = 156 has 2186735616 element-matrix entries; int32 COO allows "
                      "fewer than 2^31");
}

TEST_CASE("fem Poisson reference element: exact Q1 entries, symmetric, zero row sums, scales with h", "[apps][fem]") {
  const std::vector<double> K = reference_stiffness(FemProblem::poisson, Material{}, 1.0);
  REQUIRE(K.size() == 64);
  for (int a = 0; a < 8; ++a) {
    double row_sum = 0;
    for (int b = 0; b < 8; ++b) {
      // The unit-cube Q1 Laplacian: 1/3 on the diagonal, 0 along an edge, -1/12 across a face or the body.
      const int differ = __builtin_popcount(static_cast<unsigned>(a ^ b));
      const double expect = differ == 0 ? 1.0 / 3 : (differ == 1 ? 0.0 : -1.0 / 12);
      CHECK(K[a * 8 + b] == Approx(expect).margin(1e-15));
      CHECK(K[a * 8 + b] == K[b * 8 + a]);
      row_sum += K[a * 8 + b];
    }
    CHECK(std::fabs(row_sum) < 1e-15);
  }
  const std::vector<double> Kh = reference_stiffness(FemProblem::poisson, Material{}, 0.25);
  for (int i = 0; i < 64; ++i) CHECK(Kh[i] == Approx(0.25 * K[i]).margin(1e-16));
}

TEST_CASE("fem elasticity reference element: symmetric, six rigid-body modes in the null space, stretch energy",
          "[apps][fem]") {
  const Material m{2.0, 0.3};
  const std::vector<double> K = reference_stiffness(FemProblem::elasticity, m, 1.0);
  REQUIRE(K.size() == 24 * 24);
  for (int p = 0; p < 24; ++p)
    for (int q = 0; q < 24; ++q) CHECK(K[p * 24 + q] == K[q * 24 + p]);  // bitwise
  // Rigid-body modes on the unit element: 3 translations, 3 rotations u = w x X.
  auto mode = [](int r, int a, int c) {
    const double X[3] = {static_cast<double>(a & 1), static_cast<double>((a >> 1) & 1), static_cast<double>((a >> 2) & 1)};
    if (r < 3) return c == r ? 1.0 : 0.0;
    double w[3] = {0, 0, 0};
    w[r - 3] = 1;
    const double u[3] = {w[1] * X[2] - w[2] * X[1], w[2] * X[0] - w[0] * X[2], w[0] * X[1] - w[1] * X[0]};
    return u[c];
  };
  for (int r = 0; r < 6; ++r) {
    double norm = 0;
    for (int p = 0; p < 24; ++p) {
      double s = 0;
      for (int q = 0; q < 24; ++q) s += K[p * 24 + q] * mode(r, q / 3, q % 3);
      norm = std::max(norm, std::fabs(s));
    }
    INFO("rigid mode " << r);
    CHECK(norm < 1e-13);
  }
  // u = (x, 0, 0): uniform strain eps_xx = 1, energy u^T K u = (lambda + 2 mu) * volume.
  double energy = 0;
  for (int p = 0; p < 24; ++p)
    for (int q = 0; q < 24; ++q) {
      const double up = p % 3 == 0 ? static_cast<double>((p / 3) & 1) : 0.0;
      const double uq = q % 3 == 0 ? static_cast<double>((q / 3) & 1) : 0.0;
      energy += up * K[p * 24 + q] * uq;
    }
  CHECK(energy == Approx(m.lambda() + 2 * m.mu()).epsilon(1e-13));
}

TEST_CASE("fem assembled system: zero Poisson row sums before the boundary conditions; symmetric elimination after",
          "[apps][fem]") {
  for (const FemProblem p : {FemProblem::poisson, FemProblem::elasticity}) {
    const HexMesh mesh = make_mesh(p, 3);
    const StepData step{p, Material{}, 1.5};
    HostCsr<double> A = host::coo_to_csr(assemble_coo<double>(mesh, step));
    CHECK(A.rows == mesh.dof_count());
    // 27-point (Poisson) / 27 node-blocks of 3x3 (elasticity) coupling at an interior node.
    const int interior = static_cast<int>(mesh.node_id(1, 1, 1) * mesh.d);
    CHECK(A.row_ptr[interior + 1] - A.row_ptr[interior] == 27 * mesh.d);
    if (p == FemProblem::poisson)
      for (int i = 0; i < A.rows; ++i) {
        double s = 0;
        for (int e = A.row_ptr[i]; e < A.row_ptr[i + 1]; ++e) s += A.values[e];
        CHECK(std::fabs(s) < 1e-14);
      }
    std::vector<double> b = load_vector<double>(mesh, step);
    apply_dirichlet(mesh, p, A, b);
    auto at = [&](int i, int j) {
      for (int e = A.row_ptr[i]; e < A.row_ptr[i + 1]; ++e)
        if (A.col_idx[e] == j) return A.values[e];
      return 0.0;
    };
    for (int i = 0; i < A.rows; ++i)
      for (int e = A.row_ptr[i]; e < A.row_ptr[i + 1]; ++e) {
        const int j = A.col_idx[e];
        CHECK(A.values[e] == at(j, i));  // bitwise symmetric
        if (mesh.boundary_dof(i)) CHECK(A.values[e] == (i == j ? 1.0 : 0.0));
      }
    for (int i = 0; i < A.rows; ++i)
      if (mesh.boundary_dof(i)) CHECK(b[i] == dof_exact_value(mesh, p, i));
  }
}

TEST_CASE("fem Dirichlet elimination moves g into the right-hand side of the free rows", "[apps][fem]") {
  // One free row (the interior node of n = 2) coupled to boundary DOFs with g = exact values:
  // eliminate_dirichlet_row must give b - sum_k A_k g_k over the boundary columns, integer data.
  const HexMesh mesh{2, 1};
  const int row = static_cast<int>(mesh.node_id(1, 1, 1));
  std::vector<int> row_ptr(static_cast<std::size_t>(mesh.dof_count()) + 1, 0);
  for (std::size_t i = row + 1; i < row_ptr.size(); ++i) row_ptr[i] = 3;
  const std::vector<int> col_idx = {0, row, 26};
  std::vector<double> values = {2, 5, -3};
  std::vector<double> b(static_cast<std::size_t>(mesh.dof_count()), 0.0);
  b[row] = 7;
  eliminate_dirichlet_row(mesh, FemProblem::poisson, row, row_ptr.data(), col_idx.data(), values.data(), b.data());
  const double g0 = dof_exact_value(mesh, FemProblem::poisson, 0), g26 = dof_exact_value(mesh, FemProblem::poisson, 26);
  CHECK(b[row] == 7 - 2 * g0 + 3 * g26);
  CHECK(values == std::vector<double>{0, 5, 0});
}

TEST_CASE("fem CPU PCG solves a small SPD system", "[apps][fem]") {
  // tridiag(-1, 2, -1), n = 5, b = A * (1..5).
  HostCsr<double> A;
  A.rows = A.cols = 5;
  A.row_ptr = {0};
  for (int i = 0; i < 5; ++i) {
    for (int j = std::max(0, i - 1); j <= std::min(4, i + 1); ++j) {
      A.col_idx.push_back(j);
      A.values.push_back(i == j ? 2.0 : -1.0);
    }
    A.row_ptr.push_back(static_cast<int>(A.col_idx.size()));
  }
  const std::vector<double> b = {0, 0, 0, 0, 6};  // A (1, 2, 3, 4, 5)
  std::vector<double> x;
  const CgOutcome out = cpu_pcg(A, b, x, 1e-14, 100);
  CHECK(out.converged);
  CHECK(out.iterations <= 5);
  CHECK(out.residual_history.size() == static_cast<std::size_t>(out.iterations) + 1);
  for (int i = 0; i < 5; ++i) CHECK(x[i] == Approx(i + 1).epsilon(1e-12));
  CHECK(true_relative_residual(A, b, x) < 1e-13);
}

TEST_CASE("fem CPU reference: Poisson converges at L2 rate 2 and H1 rate 1, iterations about double", "[apps][fem]") {
  std::vector<ReferenceSolve> runs;
  for (const int n : {4, 8, 16}) runs.push_back(cpu_reference_solve(FemProblem::poisson, n, 1e-10));
  for (std::size_t i = 0; i < runs.size(); ++i) {
    CHECK(runs[i].cg.converged);
    CHECK(runs[i].true_relative_residual < 1e-9);
  }
  for (std::size_t i = 1; i < runs.size(); ++i) {
    INFO("refinement " << i);
    CHECK(observed_rate(runs[i - 1].errors.l2, runs[i].errors.l2) == Approx(2.0).margin(0.15));
    CHECK(observed_rate(runs[i - 1].errors.h1, runs[i].errors.h1) == Approx(1.0).margin(0.15));
  }
  const double ratio = static_cast<double>(runs[2].cg.iterations) / runs[1].cg.iterations;
  CHECK(ratio > 1.6);
  CHECK(ratio < 2.4);
}

TEST_CASE("fem CPU reference: elasticity converges at L2 rate 2 and H1 rate 1", "[apps][fem]") {
  std::vector<ReferenceSolve> runs;
  for (const int n : {4, 8, 16}) runs.push_back(cpu_reference_solve(FemProblem::elasticity, n, 1e-10));
  for (std::size_t i = 1; i < runs.size(); ++i) {
    INFO("refinement " << i);
    CHECK(runs[i].cg.converged);
    CHECK(observed_rate(runs[i - 1].errors.l2, runs[i].errors.l2) == Approx(2.0).margin(0.15));
    CHECK(observed_rate(runs[i - 1].errors.h1, runs[i].errors.h1) == Approx(1.0).margin(0.15));
  }
}

TEST_CASE("fem errors: the nodal interpolant converges at the Q1 rates, wrong sizes are refused", "[apps][fem]") {
  // The nodal interpolant of the exact solution has errors that shrink at the Q1 rates too, and
  // the function refuses a vector of the wrong length.
  const HexMesh mesh = make_mesh(FemProblem::poisson, 4);
  std::vector<double> x(static_cast<std::size_t>(mesh.dof_count()));
  for (std::int64_t i = 0; i < mesh.dof_count(); ++i) x[i] = dof_exact_value(mesh, FemProblem::poisson, i);
  const FemErrors e4 = fem_errors(mesh, FemProblem::poisson, x);
  const HexMesh mesh8 = make_mesh(FemProblem::poisson, 8);
  std::vector<double> x8(static_cast<std::size_t>(mesh8.dof_count()));
  for (std::int64_t i = 0; i < mesh8.dof_count(); ++i) x8[i] = dof_exact_value(mesh8, FemProblem::poisson, i);
  const FemErrors e8 = fem_errors(mesh8, FemProblem::poisson, x8);
  CHECK(observed_rate(e4.l2, e8.l2) == Approx(2.0).margin(0.2));
  CHECK(observed_rate(e4.h1, e8.h1) == Approx(1.0).margin(0.15));
  BSRFLOW_CHECK_ERROR(fem_errors(mesh, FemProblem::poisson, std::vector<double>(3)), Errc::invalid_argument,
                      "fem_errors: x has 3 values, the mesh 125 DOFs");
}

TEST_CASE("fem VTK: structured points header, point data, errors", "[apps][fem]") {
  const HexMesh mesh{1, 3};
  std::vector<double> x(24, 0.0);
  x[3 * 7 + 2] = 1.5;
  const std::string text = vtk_text(mesh, FemProblem::elasticity, x);
  CHECK(text.find("DATASET STRUCTURED_POINTS\nDIMENSIONS 2 2 2\nORIGIN 0 0 0\nSPACING 1 1 1\nPOINT_DATA 8\n") !=
        std::string::npos);
  CHECK(text.find("VECTORS u double\n0 0 0\n") != std::string::npos);
  CHECK(text.find("0 0 1.5\nVECTORS error double\n") != std::string::npos);
  BSRFLOW_CHECK_ERROR(vtk_text(mesh, FemProblem::elasticity, std::vector<double>(8)), Errc::invalid_argument,
                      "vtk: x has 8 values, the mesh 24 DOFs");
  BSRFLOW_CHECK_ERROR(write_vtk("/nonexistent-dir/u.vtk", mesh, FemProblem::elasticity, x), Errc::io,
                      "vtk: cannot open '/nonexistent-dir/u.vtk' for writing");
}
