// Q1 element stiffness matrices of the uniform mesh, computed on the host with 2x2x2 Gauss
// (exact for the trilinear products involved). Every element of the structured mesh has the same
// matrix up to its coefficient, so the GPU assembly only scales this one.
#pragma once

#include <vector>

#include "bsrflow/apps/fem_solve/fem_problem.hpp"

namespace bsrflow::fem {

// L x L row-major (L = 8 Poisson, 24 elasticity; local DOF p = a * d + component) for an element
// of edge h and coefficient 1:
//   poisson     K_ab = int grad N_a . grad N_b                            (= h * K_unit)
//   elasticity  K_(a,i)(b,j) = int lambda d_i N_a d_j N_b + mu (delta_ij grad N_a . grad N_b + d_j N_a d_i N_b)
std::vector<double> reference_stiffness(FemProblem p, const Material& m, double h);

}  // namespace bsrflow::fem
