// fem_solve's GPU pipeline: the assembled, Dirichlet-eliminated system on the device.
//
//   FemSystem<double> sys(FemProblem::elasticity, 32, stream);  // pattern + symbolic phases, once
//   sys.assemble({.coefficient = 1.5}, stream);                  // numeric phases, every load step
//   PcgSolver<double> cg(sys.matrix(), options, stream);
//
// Construction: the COO pattern (every element's L x L entries, hex_mesh.hpp) is written by a
// kernel, CooToCsr runs its symbolic phase on it, and for elasticity CsrToBsr with 3 x 3 blocks
// (one block per node pair). assemble() enqueues, without allocating or synchronising (so it
// could be captured): COO values = coefficient * K_ref, the load vector (per DOF, gathered from
// the node's elements), CooToCsr::numeric, the symmetric Dirichlet elimination on the CSR rows
// and b, and CsrToBsr::numeric. Each step is the GPU twin of a loop in fem_reference.cpp over the
// same per-entry functions (fem_assembly.hpp).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "bsrflow/apps/fem_solve/fem_assembly.hpp"
#include "bsrflow/apps/fem_solve/hex_mesh.hpp"
#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/coo_to_csr.hpp"
#include "bsrflow/formats/csr.hpp"
#include "bsrflow/formats/csr_to_bsr.hpp"

namespace bsrflow::fem {

template <class T>
class FemSystem {
 public:
  // Allocates and synchronises (the symbolic phases). Throws make_mesh's errors (n < 1, a COO
  // of 2^31 entries or more: elasticity beyond n = 155) and Error(invalid_argument) when the
  // estimated peak device memory of the assembly setup exceeds the free memory (elasticity f64
  // at n = 128: about 60 GiB).
  FemSystem(FemProblem problem, int n, const Material& material, cudaStream_t stream);

  void assemble(double coefficient, cudaStream_t stream);

  const HexMesh& mesh() const { return mesh_; }
  FemProblem problem() const { return problem_; }
  std::int64_t dofs() const { return mesh_.dof_count(); }
  // The solver's operator: BSR with d x d blocks (elasticity: 3 x 3; Poisson: the CSR as 1 x 1).
  BsrView<const T> matrix() const;
  // The same matrix as scalar CSR (what the CSR comparisons and the cuSPARSE peer use), and as a
  // 1 x 1-block BSR over the same arrays.
  CsrView<const T> csr() const { return csr_.output().view(); }
  BsrView<const T> csr_as_bsr() const;
  const T* rhs() const { return b_.data(); }
  // Host copies (synchronise): the assembled CSR after the Dirichlet elimination, and b.
  HostCsr<T> host_matrix(cudaStream_t stream) const { return csr_.output().to_host(stream); }
  std::vector<T> host_rhs(cudaStream_t stream) const { return b_.to_host(stream); }
  std::int64_t coo_entries() const { return mesh_.coo_entries(); }

 private:
  FemProblem problem_;
  HexMesh mesh_;
  Material material_;
  DeviceBuffer<double> k_ref_;
  DeviceBuffer<int> coo_rows_, coo_cols_;
  DeviceBuffer<T> coo_values_;
  DeviceBuffer<T> b_;
  CooToCsr<T> csr_;
  std::unique_ptr<CsrToBsr<T>> bsr_;  // elasticity only
};

}  // namespace bsrflow::fem
