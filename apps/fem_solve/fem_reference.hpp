// The CPU reference of fem_solve's whole pipeline - the same COO layout, load vector and
// Dirichlet elimination as the GPU kernels (the per-entry functions of fem_assembly.hpp),
// bsrflow's host COO -> CSR, and a Jacobi-preconditioned CG in double - plus the error norms
// against the exact solution. The CPU tests check the discretisation with it (convergence rates)
// and the GPU tests compare the GPU pipeline with it.
#pragma once

#include <cstdint>
#include <vector>

#include "bsrflow/apps/fem_solve/fem_assembly.hpp"
#include "bsrflow/apps/fem_solve/hex_mesh.hpp"
#include "bsrflow/formats/coo.hpp"
#include "bsrflow/formats/csr.hpp"

namespace bsrflow::fem {

// The mesh of problem p with n cells per side. Throws Error(invalid_argument) for n < 1 or when
// its element-matrix COO would need 2^31 or more entries (int32 indices; elasticity: n > 155).
HexMesh make_mesh(FemProblem p, int n);

// The unassembled COO (every element's L x L entries, duplicates not summed).
template <class T>
HostCoo<T> assemble_coo(const HexMesh& mesh, const StepData& s);
template <class T>
std::vector<T> load_vector(const HexMesh& mesh, const StepData& s);
// Symmetric Dirichlet elimination in place (every row, see eliminate_dirichlet_row).
template <class T>
void apply_dirichlet(const HexMesh& mesh, FemProblem p, HostCsr<T>& A, std::vector<T>& b);

// The assembled system after the boundary conditions: CSR (sorted, duplicates summed) and b.
template <class T>
struct HostSystem {
  HostCsr<T> A;
  std::vector<T> b;
};
template <class T>
HostSystem<T> assemble_system(const HexMesh& mesh, const StepData& s);

struct CgOutcome {
  int iterations = 0;
  double relative_residual = 0;  // recurrence ||r|| / ||b|| at the end
  bool converged = false;
  std::vector<double> residual_history;  // ||r_k|| / ||b||, k = 0 .. iterations
};

// Jacobi-preconditioned CG in double, x = 0 start, stops at ||r|| <= rtol ||b||.
CgOutcome cpu_pcg(const HostCsr<double>& A, const std::vector<double>& b, std::vector<double>& x, double rtol,
                  int max_iterations);

// ||b - A x|| / ||b|| in double.
template <class T>
double true_relative_residual(const HostCsr<T>& A, const std::vector<T>& b, const std::vector<double>& x);

// L2 and H1-seminorm errors of the nodal solution x (d values per node) against the exact
// solution, 3x3x3 Gauss on every element.
struct FemErrors {
  double l2 = 0;
  double h1 = 0;
};
FemErrors fem_errors(const HexMesh& mesh, FemProblem p, const std::vector<double>& x);

// log2(e_coarse / e_fine): the observed order for a halved h.
double observed_rate(double e_coarse, double e_fine);

// The whole CPU pipeline: assemble, eliminate, solve to rtol, measure the errors.
struct ReferenceSolve {
  std::vector<double> x;
  CgOutcome cg;
  double true_relative_residual = 0;
  FemErrors errors;
};
ReferenceSolve cpu_reference_solve(FemProblem p, int n, double rtol, int max_iterations = 100000);

}  // namespace bsrflow::fem
