#include "bsrflow/apps/fem_solve/reference_element.hpp"

#include "bsrflow/apps/fem_solve/hex_mesh.hpp"

namespace bsrflow::fem {

std::vector<double> reference_stiffness(FemProblem p, const Material& m, double h) {
  const int d = dofs_per_node(p), L = 8 * d;
  std::vector<double> K(static_cast<std::size_t>(L) * L, 0.0);
  // On the element [0,h]^3: grad N = grad_ref N / h, dV = h^3 dV_ref, so K = h * (unit-cube K).
  const double w = kGauss2Weight * kGauss2Weight * kGauss2Weight * h;
  const double lambda = m.lambda(), mu = m.mu();
  for (int qz = 0; qz < 2; ++qz)
    for (int qy = 0; qy < 2; ++qy)
      for (int qx = 0; qx < 2; ++qx) {
        double g[8][3];
        for (int a = 0; a < 8; ++a) q1_gradient(a, gauss2_point(qx), gauss2_point(qy), gauss2_point(qz), g[a]);
        for (int a = 0; a < 8; ++a)
          for (int b = 0; b < 8; ++b) {
            const double dot = g[a][0] * g[b][0] + g[a][1] * g[b][1] + g[a][2] * g[b][2];
            if (p == FemProblem::poisson) {
              K[a * L + b] += w * dot;
              continue;
            }
            for (int i = 0; i < 3; ++i)
              for (int j = 0; j < 3; ++j)
                K[(a * 3 + i) * L + b * 3 + j] +=
                    w * (lambda * g[a][i] * g[b][j] + mu * ((i == j ? dot : 0.0) + g[a][j] * g[b][i]));
          }
      }
  // (lambda d_i N_a) d_j N_b and (lambda d_j N_b) d_i N_a round differently: copy the upper
  // triangle down so that K, and every matrix assembled from it, is bitwise symmetric.
  for (int p = 0; p < L; ++p)
    for (int q = 0; q < p; ++q) K[p * L + q] = K[q * L + p];
  return K;
}

}  // namespace bsrflow::fem
