// The per-entry / per-row steps of the finite-element pipeline, shared by the CPU reference
// (fem_reference.cpp loops over them) and the GPU kernels (fem_system.cu, one thread each):
//   - the COO value of an element entry: coefficient * K_ref (uniform mesh: every element has the
//     reference stiffness, scaled by its coefficient);
//   - one load-vector entry, gathered from the <= 8 elements around its node (2x2x2 Gauss), so
//     no atomics and a fixed summation order;
//   - the symmetric Dirichlet elimination of one CSR row.
#pragma once

#include <cstdint>

#include "bsrflow/apps/fem_solve/fem_problem.hpp"
#include "bsrflow/apps/fem_solve/hex_mesh.hpp"
#include "bsrflow/core/host_device.hpp"

namespace bsrflow::fem {

// What the numeric phase of one load step needs: the coefficient scale k multiplies the
// conductivity (Poisson) or E (elasticity), and the load is f computed for that k, so the exact
// solution is the same in every step.
struct StepData {
  FemProblem problem = FemProblem::poisson;
  Material material;
  double coefficient = 1.0;
};

// COO value of entry t (layout in hex_mesh.hpp). k_ref: L x L, row-major.
template <class T>
BSRFLOW_HD T coo_value(const HexMesh& mesh, const double* k_ref, double coefficient, std::int64_t t) {
  const int L = mesh.element_dofs();
  const auto local = static_cast<int>(t % (static_cast<std::int64_t>(L) * L));
  return static_cast<T>(coefficient * k_ref[local]);
}

// Exact-solution value at a DOF's node (the Dirichlet data g).
BSRFLOW_HD inline double dof_exact_value(const HexMesh& mesh, FemProblem p, std::int64_t dof) {
  int i, j, k;
  mesh.node_ijk(dof / mesh.d, i, j, k);
  const double h = mesh.h();
  return exact_u(p, static_cast<int>(dof % mesh.d), i * h, j * h, k * h);
}

// b[dof] = sum over the elements around the node of int f_c N_a (2x2x2 Gauss), c = dof's component.
BSRFLOW_HD inline double load_entry(const HexMesh& mesh, const StepData& s, std::int64_t dof) {
  const std::int64_t node = dof / mesh.d;
  const int c = static_cast<int>(dof % mesh.d);
  int i, j, k;
  mesh.node_ijk(node, i, j, k);
  const double h = mesh.h();
  const double w = kGauss2Weight * kGauss2Weight * kGauss2Weight * h * h * h;
  double sum = 0;
  for (int oz = 0; oz < 2; ++oz)
    for (int oy = 0; oy < 2; ++oy)
      for (int ox = 0; ox < 2; ++ox) {
        const int ex = i - 1 + ox, ey = j - 1 + oy, ez = k - 1 + oz;  // element (ex, ey, ez)
        if (ex < 0 || ey < 0 || ez < 0 || ex >= mesh.n || ey >= mesh.n || ez >= mesh.n) continue;
        const int a = (i - ex) + 2 * (j - ey) + 4 * (k - ez);  // the node's local index in it
        for (int qz = 0; qz < 2; ++qz)
          for (int qy = 0; qy < 2; ++qy)
            for (int qx = 0; qx < 2; ++qx) {
              const double xi = gauss2_point(qx), eta = gauss2_point(qy), zeta = gauss2_point(qz);
              const double f = source_f(s.problem, s.material, s.coefficient, c, (ex + xi) * h, (ey + eta) * h,
                                        (ez + zeta) * h);
              sum += f * q1_shape(a, xi, eta, zeta) * w;
            }
      }
  return sum;
}

// Symmetric elimination of the Dirichlet DOFs, row `row` of the assembled CSR matrix (before
// any of it; rows are independent): a constrained row becomes the identity row with b = g; in a
// free row, every constrained column k moves to the right-hand side (b_row -= A_row,k g_k) and
// is zeroed. The matrix stays symmetric (and SPD), the pattern unchanged.
template <class T>
BSRFLOW_HD void eliminate_dirichlet_row(const HexMesh& mesh, FemProblem p, int row, const int* row_ptr,
                                        const int* col_idx, T* values, T* b) {
  if (mesh.boundary_dof(row)) {
    for (int e = row_ptr[row]; e < row_ptr[row + 1]; ++e) values[e] = col_idx[e] == row ? T(1) : T(0);
    b[row] = static_cast<T>(dof_exact_value(mesh, p, row));
    return;
  }
  double acc = static_cast<double>(b[row]);
  for (int e = row_ptr[row]; e < row_ptr[row + 1]; ++e) {
    const int col = col_idx[e];
    if (!mesh.boundary_dof(col)) continue;
    acc -= static_cast<double>(values[e]) * dof_exact_value(mesh, p, col);
    values[e] = T(0);
  }
  b[row] = static_cast<T>(acc);
}

}  // namespace bsrflow::fem
