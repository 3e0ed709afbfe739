// The textbook CG peer of cg_bench and fem_solve: (preconditioned) conjugate gradients built from library calls,
// the way a user writes it without bsrflow - cusparseSpMV (CSR, CUSPARSE_SPMV_CSR_ALG1, which
// cuSPARSE documents as its default CSR algorithm; workspace and preprocessing done in the
// constructor) and cuBLAS dot / axpy / scal / copy in host pointer mode, so every dot waits for
// the GPU (two per iteration). With an inverse diagonal, z = D^-1 r is one tiny elementwise kernel
// of ours (cuBLAS has no elementwise product); without one, z is r itself.
//
// Per iteration:  q = A p;  pq = p.q;  alpha = rz / pq;  x += alpha p;  r -= alpha q;
//                 z = D^-1 r;  rz' = r.z;  beta = rz' / rz;  p = beta p (scal);  p += z (axpy).
// No convergence test: it runs the iterations it is asked for, and stops early only when p.q is
// not positive and finite (breakdown). float and double.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>

#include "bsrflow/apps/common/cusparse_spmv.hpp"
#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/formats/csr.hpp"

namespace bsrflow::bench {

template <class T>
class CusparseCublasCg {
 public:
  // Allocates the work vectors, sets up both SpMVs (A x for the initial residual, A p in the
  // loop). b and x are bound here (cuSPARSE descriptors hold pointers); inverse_diagonal (n
  // values) selects Jacobi, nullptr none. Everything passed in must outlive the object.
  CusparseCublasCg(cusparseHandle_t cusparse, CublasHandle& cublas, CsrView<const T> A, const T* inverse_diagonal,
                   const T* b, T* x, cudaStream_t stream);
  ~CusparseCublasCg();
  CusparseCublasCg(const CusparseCublasCg&) = delete;
  CusparseCublasCg& operator=(const CusparseCublasCg&) = delete;

  // r = b - A x, then `iterations` CG iterations updating x. Returns the iterations done (fewer
  // only after a breakdown). Synchronises `stream` (the dots).
  int solve(int iterations, cudaStream_t stream);

 private:
  void precondition(cudaStream_t stream);  // z = D^-1 r (no-op without a preconditioner: z is r)
  T dot(const T* a, const T* b);
  void axpy(T alpha, const T* x, T* y);

  CublasHandle& cublas_;
  int n_ = 0;
  const T* inverse_diagonal_;
  const T* b_;
  T* x_;
  DeviceBuffer<T> r_, p_, q_, z_;
  std::unique_ptr<CusparseCsrSpmv<T>> ax_, ap_;
};

// z[i] = d[i] * r[i] for i < n (the peer's Jacobi step). float and double.
template <class T>
void jacobi_scale(std::int64_t n, const T* d, const T* r, T* z, cudaStream_t stream);

}  // namespace bsrflow::bench
