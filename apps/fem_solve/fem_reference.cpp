#include "bsrflow/apps/fem_solve/fem_reference.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "bsrflow/apps/fem_solve/reference_element.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/host_convert.hpp"

namespace bsrflow::fem {

HexMesh make_mesh(FemProblem p, int n) {
  BSRFLOW_REQUIRE(n >= 1, Errc::invalid_argument, "fem mesh: n must be at least 1 (got " + std::to_string(n) + ")");
  const HexMesh mesh{n, dofs_per_node(p)};
  BSRFLOW_REQUIRE(mesh.coo_entries() <= std::numeric_limits<int>::max(), Errc::invalid_argument,
                  std::string("fem mesh: ") + problem_name(p) + " at n = " + std::to_string(n) + " has " +
                      std::to_string(mesh.coo_entries()) + " element-matrix entries; int32 COO allows fewer than 2^31");
  return mesh;
}

template <class T>
HostCoo<T> assemble_coo(const HexMesh& mesh, const StepData& s) {
  const std::vector<double> k_ref = reference_stiffness(s.problem, s.material, mesh.h());
  const std::int64_t nnz = mesh.coo_entries();
  HostCoo<T> coo;
  coo.rows = coo.cols = mesh.dof_count();
  coo.row_idx.resize(static_cast<std::size_t>(nnz));
  coo.col_idx.resize(static_cast<std::size_t>(nnz));
  coo.values.resize(static_cast<std::size_t>(nnz));
  for (std::int64_t t = 0; t < nnz; ++t) {
    mesh.coo_entry(t, coo.row_idx[t], coo.col_idx[t]);
    coo.values[t] = coo_value<T>(mesh, k_ref.data(), s.coefficient, t);
  }
  return coo;
}

template <class T>
std::vector<T> load_vector(const HexMesh& mesh, const StepData& s) {
  std::vector<T> b(static_cast<std::size_t>(mesh.dof_count()));
  for (std::int64_t i = 0; i < mesh.dof_count(); ++i) b[i] = static_cast<T>(load_entry(mesh, s, i));
  return b;
}

template <class T>
void apply_dirichlet(const HexMesh& mesh, FemProblem p, HostCsr<T>& A, std::vector<T>& b) {
  for (int row = 0; row < A.rows; ++row)
    eliminate_dirichlet_row(mesh, p, row, A.row_ptr.data(), A.col_idx.data(), A.values.data(), b.data());
}

template <class T>
HostSystem<T> assemble_system(const HexMesh& mesh, const StepData& s) {
  HostSystem<T> sys{host::coo_to_csr(assemble_coo<T>(mesh, s)), load_vector<T>(mesh, s)};
  apply_dirichlet(mesh, s.problem, sys.A, sys.b);
  return sys;
}

namespace {

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

template <class T>
void csr_apply(const HostCsr<T>& A, const std::vector<double>& x, std::vector<double>& y) {
  for (int i = 0; i < A.rows; ++i) {
    double s = 0;
    for (int e = A.row_ptr[i]; e < A.row_ptr[i + 1]; ++e) s += static_cast<double>(A.values[e]) * x[A.col_idx[e]];
    y[i] = s;
  }
}

}  // namespace

CgOutcome cpu_pcg(const HostCsr<double>& A, const std::vector<double>& b, std::vector<double>& x, double rtol,
                  int max_iterations) {
  const auto n = static_cast<std::size_t>(A.rows);
  std::vector<double> inv_diag(n, 0.0);
  for (int i = 0; i < A.rows; ++i)
    for (int e = A.row_ptr[i]; e < A.row_ptr[i + 1]; ++e)
      if (A.col_idx[e] == i) inv_diag[i] = 1.0 / A.values[e];
  x.assign(n, 0.0);
  std::vector<double> r = b, z(n), p(n), q(n);
  for (std::size_t i = 0; i < n; ++i) z[i] = inv_diag[i] * r[i];
  p = z;
  double rz = dot(r, z);
  const double bnorm = std::sqrt(dot(b, b));
  const double scale = bnorm > 0 ? bnorm : 1.0;
  CgOutcome out;
  double rnorm = std::sqrt(dot(r, r));
  out.residual_history.push_back(rnorm / scale);
  while (rnorm > rtol * bnorm && out.iterations < max_iterations) {
    csr_apply(A, p, q);
    const double pq = dot(p, q);
    if (!(pq > 0)) break;
    const double alpha = rz / pq;
    for (std::size_t i = 0; i < n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
      z[i] = inv_diag[i] * r[i];
    }
    const double rz_new = dot(r, z);
    const double beta = rz_new / rz;
    rz = rz_new;
    for (std::size_t i = 0; i < n; ++i) p[i] = z[i] + beta * p[i];
    ++out.iterations;
    rnorm = std::sqrt(dot(r, r));
    out.residual_history.push_back(rnorm / scale);
  }
  out.relative_residual = rnorm / scale;
  out.converged = rnorm <= rtol * bnorm;
  return out;
}

template <class T>
double true_relative_residual(const HostCsr<T>& A, const std::vector<T>& b, const std::vector<double>& x) {
  std::vector<double> ax(static_cast<std::size_t>(A.rows));
  csr_apply(A, x, ax);
  double rr = 0, bb = 0;
  for (std::size_t i = 0; i < ax.size(); ++i) {
    const double bi = static_cast<double>(b[i]);
    rr += (bi - ax[i]) * (bi - ax[i]);
    bb += bi * bi;
  }
  return bb > 0 ? std::sqrt(rr / bb) : std::sqrt(rr);
}

FemErrors fem_errors(const HexMesh& mesh, FemProblem p, const std::vector<double>& x) {
  BSRFLOW_REQUIRE(static_cast<std::int64_t>(x.size()) == mesh.dof_count(), Errc::invalid_argument,
                  "fem_errors: x has " + std::to_string(x.size()) + " values, the mesh " +
                      std::to_string(mesh.dof_count()) + " DOFs");
  const double h = mesh.h();
  const double vol = h * h * h;
  double l2 = 0, h1 = 0;
  for (std::int64_t e = 0; e < mesh.element_count(); ++e) {
    int ex, ey, ez;
    mesh.element_ijk(e, ex, ey, ez);
    for (int qz = 0; qz < 3; ++qz)
      for (int qy = 0; qy < 3; ++qy)
        for (int qx = 0; qx < 3; ++qx) {
          const double xi = gauss3_point(qx), eta = gauss3_point(qy), zeta = gauss3_point(qz);
          const double w = gauss3_weight(qx) * gauss3_weight(qy) * gauss3_weight(qz) * vol;
          const double X = (ex + xi) * h, Y = (ey + eta) * h, Z = (ez + zeta) * h;
          for (int c = 0; c < mesh.d; ++c) {
            double u = 0, g[3] = {0, 0, 0};
            for (int a = 0; a < 8; ++a) {
              const double xa = x[mesh.element_node(e, a) * mesh.d + c];
              double ga[3];
              q1_gradient(a, xi, eta, zeta, ga);
              u += xa * q1_shape(a, xi, eta, zeta);
              for (int k = 0; k < 3; ++k) g[k] += xa * ga[k] / h;
            }
            double ge[3];
            exact_gradient(p, c, X, Y, Z, ge);
            const double du = u - exact_u(p, c, X, Y, Z);
            l2 += w * du * du;
            for (int k = 0; k < 3; ++k) h1 += w * (g[k] - ge[k]) * (g[k] - ge[k]);
          }
        }
  }
  return {std::sqrt(l2), std::sqrt(h1)};
}

double observed_rate(double e_coarse, double e_fine) { return std::log2(e_coarse / e_fine); }

ReferenceSolve cpu_reference_solve(FemProblem p, int n, double rtol, int max_iterations) {
  const HexMesh mesh = make_mesh(p, n);
  const HostSystem<double> sys = assemble_system<double>(mesh, StepData{p, Material{}, 1.0});
  ReferenceSolve out;
  out.cg = cpu_pcg(sys.A, sys.b, out.x, rtol, max_iterations);
  out.true_relative_residual = true_relative_residual(sys.A, sys.b, out.x);
  out.errors = fem_errors(mesh, p, out.x);
  return out;
}

#define BSRFLOW_FEM_INSTANTIATE(T)                                                                          \
  template HostCoo<T> assemble_coo<T>(const HexMesh&, const StepData&);                                   \
  template std::vector<T> load_vector<T>(const HexMesh&, const StepData&);                                \
  template void apply_dirichlet<T>(const HexMesh&, FemProblem, HostCsr<T>&, std::vector<T>&);             \
  template HostSystem<T> assemble_system<T>(const HexMesh&, const StepData&);                             \
  template double true_relative_residual<T>(const HostCsr<T>&, const std::vector<T>&, const std::vector<double>&);
BSRFLOW_FEM_INSTANTIATE(float)
BSRFLOW_FEM_INSTANTIATE(double)
#undef BSRFLOW_FEM_INSTANTIATE

}  // namespace bsrflow::fem
