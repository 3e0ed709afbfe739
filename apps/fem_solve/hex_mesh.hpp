// The structured mesh of fem_solve and its index math, shared by the CPU reference and the GPU
// kernels (BSRFLOW_HD) so that both build the very same COO pattern, load vector and Dirichlet
// rows.
//
// Unit cube, n cells per side, trilinear (Q1) hexahedra of edge h = 1/n.
//   node (i, j, k) at (i h, j h, k h), id = i + (n+1) (j + (n+1) k)   (x fastest)
//   element (ex, ey, ez), id = ex + n (ey + n ez)
//   local node a in 0..7 of an element: offsets (a & 1, (a >> 1) & 1, (a >> 2) & 1)
//   d DOFs per node (1 Poisson, 3 elasticity); DOF = node * d + component, so the d x d blocks of
//   a BSR matrix with R = C = d are the node-node couplings.
//   local DOF p = a * d + component; element matrices are L x L with L = 8 d.
// COO layout: element e's entry (p, q) is COO entry e L^2 + p L + q (duplicates summed by the
// COO -> CSR conversion), so the numeric phase is "value = coefficient_e * K_ref[p L + q]".
#pragma once

#include <cstdint>

#include "bsrflow/core/host_device.hpp"

namespace bsrflow::fem {

struct HexMesh {
  int n = 1;  // cells per side
  int d = 1;  // DOFs per node

  BSRFLOW_HD double h() const { return 1.0 / n; }
  BSRFLOW_HD std::int64_t nodes_per_side() const { return n + 1; }
  BSRFLOW_HD std::int64_t node_count() const {
    const std::int64_t s = n + 1;
    return s * s * s;
  }
  BSRFLOW_HD std::int64_t element_count() const { return static_cast<std::int64_t>(n) * n * n; }
  BSRFLOW_HD std::int64_t dof_count() const { return node_count() * d; }
  BSRFLOW_HD int element_dofs() const { return 8 * d; }  // L
  BSRFLOW_HD std::int64_t coo_entries() const {
    return element_count() * element_dofs() * element_dofs();
  }

  BSRFLOW_HD std::int64_t node_id(std::int64_t i, std::int64_t j, std::int64_t k) const {
    const std::int64_t s = n + 1;
    return i + s * (j + s * k);
  }
  BSRFLOW_HD void node_ijk(std::int64_t node, int& i, int& j, int& k) const {
    const std::int64_t s = n + 1;
    i = static_cast<int>(node % s);
    j = static_cast<int>((node / s) % s);
    k = static_cast<int>(node / (s * s));
  }
  BSRFLOW_HD void element_ijk(std::int64_t e, int& ex, int& ey, int& ez) const {
    ex = static_cast<int>(e % n);
    ey = static_cast<int>((e / n) % n);
    ez = static_cast<int>(e / (static_cast<std::int64_t>(n) * n));
  }
  // Global node of local node a (0..7) of element e.
  BSRFLOW_HD std::int64_t element_node(std::int64_t e, int a) const {
    int ex, ey, ez;
    element_ijk(e, ex, ey, ez);
    return node_id(ex + (a & 1), ey + ((a >> 1) & 1), ez + ((a >> 2) & 1));
  }
  // Global DOF of local DOF p of element e.
  BSRFLOW_HD std::int64_t element_dof(std::int64_t e, int p) const {
    return element_node(e, p / d) * d + p % d;
  }
  // COO entry t -> (row, col), see the layout above.
  BSRFLOW_HD void coo_entry(std::int64_t t, int& row, int& col) const {
    const int L = element_dofs();
    const std::int64_t e = t / (static_cast<std::int64_t>(L) * L);
    const int local = static_cast<int>(t - e * L * L);
    row = static_cast<int>(element_dof(e, local / L));
    col = static_cast<int>(element_dof(e, local % L));
  }
  // Nodes on the cube's surface carry the Dirichlet condition.
  BSRFLOW_HD bool boundary_node(std::int64_t node) const {
    int i, j, k;
    node_ijk(node, i, j, k);
    return i == 0 || j == 0 || k == 0 || i == n || j == n || k == n;
  }
  BSRFLOW_HD bool boundary_dof(std::int64_t dof) const { return boundary_node(dof / d); }
};

// Q1 shape function a (0..7) and its gradient on the reference cube [0,1]^3.
BSRFLOW_HD inline double q1_shape(int a, double x, double y, double z) {
  const double fx = (a & 1) ? x : 1 - x;
  const double fy = ((a >> 1) & 1) ? y : 1 - y;
  const double fz = ((a >> 2) & 1) ? z : 1 - z;
  return fx * fy * fz;
}
BSRFLOW_HD inline void q1_gradient(int a, double x, double y, double z, double g[3]) {
  const double fx = (a & 1) ? x : 1 - x, dx = (a & 1) ? 1 : -1;
  const double fy = ((a >> 1) & 1) ? y : 1 - y, dy = ((a >> 1) & 1) ? 1 : -1;
  const double fz = ((a >> 2) & 1) ? z : 1 - z, dz = ((a >> 2) & 1) ? 1 : -1;
  g[0] = dx * fy * fz;
  g[1] = fx * dy * fz;
  g[2] = fx * fy * dz;
}

// 2-point Gauss-Legendre on [0, 1]: points 1/2 -+ 1/(2 sqrt 3), weights 1/2.
BSRFLOW_HD inline double gauss2_point(int q) { return q == 0 ? 0.21132486540518713 : 0.78867513459481287; }
constexpr double kGauss2Weight = 0.5;
// 3-point Gauss-Legendre on [0, 1]: 1/2 -+ sqrt(3/5)/2 and 1/2; weights 5/18, 8/18, 5/18.
BSRFLOW_HD inline double gauss3_point(int q) {
  return q == 0 ? 0.11270166537925831 : (q == 1 ? 0.5 : 0.88729833462074169);
}
BSRFLOW_HD inline double gauss3_weight(int q) { return q == 1 ? 8.0 / 18.0 : 5.0 / 18.0; }

}  // namespace bsrflow::fem
