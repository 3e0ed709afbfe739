// The cuSPARSE CSR SpMM peer: C = A * B with cusparseSpMM on a cusparseCreateConstCsr matrix
// (CUSPARSE_SPMM_ALG_DEFAULT), the product GNN frameworks hand to cuSPARSE (DGL's csrmm; PyG's
// SparseTensor path does the same work with its own kernels). f16/bf16 A, B and C with f32
// compute, or f32 throughout. Workspace allocated here, so run() allocates nothing and can be
// captured into a CUDA Graph.
#pragma once

#include <cuda_runtime_api.h>

#include "bsrflow/apps/common/cusparse_spmm_call.hpp"
#include "bsrflow/formats/csr.hpp"
#include "bsrflow/formats/dense.hpp"

namespace bsrflow::bench {

template <class T>
class CusparseCsrSpmm {
 public:
  // Descriptors and workspace (never inside a timed region). Error(invalid_argument) for
  // mismatched shapes, Error(unsupported) when cuSPARSE answers CUSPARSE_STATUS_NOT_SUPPORTED,
  // Error(cusparse) for any other failure. Everything passed in must stay valid while used.
  CusparseCsrSpmm(cusparseHandle_t handle, CsrView<const T> A, DenseView<const T> B, DenseView<T> C,
                  cudaStream_t stream);

  // C = A * B on `stream`.
  void run(cudaStream_t stream) { call_.run(stream); }

 private:
  CusparseSpmmCall call_;
};

}  // namespace bsrflow::bench
