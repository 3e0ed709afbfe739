// The two boundary-value problems of fem_solve and their manufactured solutions (BSRFLOW_HD:
// the GPU load-vector kernel evaluates f, the Dirichlet kernel g = u on the boundary).
//
//   poisson:     -div(k grad u) = f,  u = S e^(x+y+z) with S = sin(pi x) sin(pi y) sin(pi z),
//                k = 1 (times the step's coefficient scale),
//                f = -k e^(x+y+z) ((3 - 3 pi^2) S + 2 (d_x S + d_y S + d_z S)).
//                (Not S alone: the nodal S is an eigenvector of the discrete operator, so CG would
//                converge in one iteration and say nothing about the iteration counts.)
//   elasticity:  -div sigma(u) = f,  sigma = lambda tr(eps) I + 2 mu eps,  eps = (grad u + grad u^T)/2,
//                u = a S with S = sin(pi x) sin(pi y) sin(pi z) and the constant vector a below;
//                f_i = 3 pi^2 mu S a_i - (lambda + mu) sum_j a_j d_i d_j S.
// Both exact solutions vanish on the boundary of the unit cube; the Dirichlet data is still taken
// from u itself (g = u on boundary nodes), so the elimination code is the general one.
#pragma once

#include <cmath>
#include <string>

#include "bsrflow/core/host_device.hpp"

namespace bsrflow::fem {

enum class FemProblem { poisson, elasticity };

inline int dofs_per_node(FemProblem p) { return p == FemProblem::elasticity ? 3 : 1; }
inline const char* problem_name(FemProblem p) { return p == FemProblem::elasticity ? "elasticity" : "poisson"; }

// Isotropic material of the elasticity problem (Young's modulus E, Poisson ratio nu).
struct Material {
  double E = 1.0;
  double nu = 0.3;
  BSRFLOW_HD double lambda() const { return E * nu / ((1 + nu) * (1 - 2 * nu)); }
  BSRFLOW_HD double mu() const { return E / (2 * (1 + nu)); }
};

constexpr double kPi = 3.14159265358979323846;

// The direction of the manufactured displacement (not symmetric in x, y, z on purpose).
BSRFLOW_HD inline double elasticity_amplitude(int c) { return c == 0 ? 1.0 : (c == 1 ? -0.5 : 0.75); }

// Exact solution component c at (x, y, z) and its gradient.
BSRFLOW_HD inline double exact_u(FemProblem p, int c, double x, double y, double z) {
  const double s = std::sin(kPi * x) * std::sin(kPi * y) * std::sin(kPi * z);
  return p == FemProblem::poisson ? s * std::exp(x + y + z) : elasticity_amplitude(c) * s;
}
BSRFLOW_HD inline void exact_gradient(FemProblem p, int c, double x, double y, double z, double g[3]) {
  const double sx = std::sin(kPi * x), sy = std::sin(kPi * y), sz = std::sin(kPi * z);
  const double cx = std::cos(kPi * x), cy = std::cos(kPi * y), cz = std::cos(kPi * z);
  if (p == FemProblem::poisson) {  // grad (S e) = e (grad S + S (1, 1, 1))
    const double e = std::exp(x + y + z), s = sx * sy * sz;
    g[0] = e * (kPi * cx * sy * sz + s);
    g[1] = e * (kPi * sx * cy * sz + s);
    g[2] = e * (kPi * sx * sy * cz + s);
    return;
  }
  const double a = elasticity_amplitude(c);
  g[0] = a * kPi * cx * sy * sz;
  g[1] = a * kPi * sx * cy * sz;
  g[2] = a * kPi * sx * sy * cz;
}

// Right-hand side component c at (x, y, z) for coefficient k (Poisson) or material m scaled by k.
BSRFLOW_HD inline double source_f(FemProblem p, const Material& m, double k, int c, double x, double y, double z) {
  const double sx = std::sin(kPi * x), sy = std::sin(kPi * y), sz = std::sin(kPi * z);
  const double s = sx * sy * sz;
  const double cx = std::cos(kPi * x), cy = std::cos(kPi * y), cz = std::cos(kPi * z);
  if (p == FemProblem::poisson) {
    const double grad_sum = kPi * (cx * sy * sz + sx * cy * sz + sx * sy * cz);
    return -k * std::exp(x + y + z) * ((3 - 3 * kPi * kPi) * s + 2 * grad_sum);
  }
  const double pi2 = kPi * kPi;
  // Hessian row c of S.
  double hess[3];
  const double hxy = pi2 * cx * cy * sz, hxz = pi2 * cx * sy * cz, hyz = pi2 * sx * cy * cz;
  if (c == 0) {
    hess[0] = -pi2 * s; hess[1] = hxy; hess[2] = hxz;
  } else if (c == 1) {
    hess[0] = hxy; hess[1] = -pi2 * s; hess[2] = hyz;
  } else {
    hess[0] = hxz; hess[1] = hyz; hess[2] = -pi2 * s;
  }
  const double lambda = k * m.lambda(), mu = k * m.mu();
  double grad_div = 0;
  for (int j = 0; j < 3; ++j) grad_div += elasticity_amplitude(j) * hess[j];
  return 3 * pi2 * mu * s * elasticity_amplitude(c) - (lambda + mu) * grad_div;
}

}  // namespace bsrflow::fem
