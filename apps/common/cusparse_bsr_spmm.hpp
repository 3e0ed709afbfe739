// The cuSPARSE BSR peer: cusparseSpMM on a cusparseCreateConstBsr matrix with
// CUSPARSE_SPMM_BSR_ALG1. Blocks are row-major (CUSPARSE_ORDER_ROW), as in bsrflow's BSR; the
// algorithm supports no other block order. f16/bf16 in, f32 compute, the same dtype out.
#pragma once

#include <cuda_runtime_api.h>

#include "bsrflow/apps/common/cusparse_check.hpp"
#include "bsrflow/core/device_buffer.hpp"
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
  ~CusparseBsrSpmm();
  CusparseBsrSpmm(const CusparseBsrSpmm&) = delete;
  CusparseBsrSpmm& operator=(const CusparseBsrSpmm&) = delete;

  // C = A * B on `stream`.
  void run(cudaStream_t stream);

 private:
  cusparseHandle_t handle_;
  cusparseConstSpMatDescr_t a_ = nullptr;
  cusparseConstDnMatDescr_t b_ = nullptr;
  cusparseDnMatDescr_t c_ = nullptr;
  DeviceBuffer<unsigned char> workspace_;
};

// The cusparseOrder_t of a bsrflow layout (shared by the SpMM peers).
cusparseOrder_t cusparse_order(Layout layout);

}  // namespace bsrflow::bench
