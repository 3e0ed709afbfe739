// The cuSPARSE BSR peer: cusparseSpMM on a cusparseCreateConstBsr matrix with
// CUSPARSE_SPMM_BSR_ALG1. Blocks are row-major (CUSPARSE_ORDER_ROW), as in bsrflow's BSR; the
// algorithm supports no other block order. f16/bf16 in, f32 compute, the same dtype out.
#pragma once

#include <cuda_runtime_api.h>

#include "bsrflow/apps/common/cusparse_spmm_call.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/dense.hpp"

namespace bsrflow::bench {

template <class T>
class CusparseBsrSpmm {
 public:
  // Makes the descriptors and allocates the workspace (never inside a timed region). Throws
  // Error(unsupported) when cuSPARSE answers CUSPARSE_STATUS_NOT_SUPPORTED for this case
  // (dtype, layout or block shape), Error(cusparse) for any other failure. The views must stay
  // valid while this object is used.
  CusparseBsrSpmm(cusparseHandle_t handle, BsrView<const T> A, DenseView<const T> B, DenseView<T> C,
                  cudaStream_t stream);

  // C = A * B on `stream`.
  void run(cudaStream_t stream) { call_.run(stream); }

 private:
  CusparseSpmmCall call_;
};

}  // namespace bsrflow::bench
