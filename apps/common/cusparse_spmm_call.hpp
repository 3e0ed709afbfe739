// One cusparseSpMM, C = A * B (alpha 1, beta 0, f32 compute, host scalars), over a sparse-matrix
// descriptor its peer wrapper made (CSR, BSR, Blocked-ELL): the dense descriptors, the workspace
// sized once, and the call. The peers differ only in A's descriptor and the algorithm, so this is
// the one place that owns descriptors, sizes workspaces and reports NOT_SUPPORTED.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "bsrflow/apps/common/cusparse_check.hpp"
#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/formats/dense.hpp"

namespace bsrflow::bench {

// The cusparseOrder_t of a bsrflow layout.
cusparseOrder_t cusparse_order(Layout layout);

class CusparseSpmmCall {
 public:
  CusparseSpmmCall() = default;
  // Takes ownership of `a` (destroyed here also when this throws). `what` names the peer in
  // errors, e.g. "cuSPARSE CSR SpMM (CUSPARSE_SPMM_ALG_DEFAULT)". Error(unsupported) when
  // cuSPARSE answers CUSPARSE_STATUS_NOT_SUPPORTED, Error(cusparse) for any other failure.
  // B and C must stay valid while this object is used. Allocates (never inside a timed region).
  template <class T>
  CusparseSpmmCall(cusparseHandle_t handle, cusparseConstSpMatDescr_t a, DenseView<const T> B, DenseView<T> C,
                   cusparseSpMMAlg_t alg, std::string what, cudaStream_t stream);
  ~CusparseSpmmCall();
  CusparseSpmmCall(CusparseSpmmCall&& other) noexcept;
  CusparseSpmmCall& operator=(CusparseSpmmCall&& other) noexcept;
  CusparseSpmmCall(const CusparseSpmmCall&) = delete;
  CusparseSpmmCall& operator=(const CusparseSpmmCall&) = delete;

  // C = A * B on `stream`: no allocation, capturable.
  void run(cudaStream_t stream);

 private:
  void release() noexcept;

  cusparseHandle_t handle_ = nullptr;
  cusparseConstSpMatDescr_t a_ = nullptr;
  cusparseConstDnMatDescr_t b_ = nullptr;
  cusparseDnMatDescr_t c_ = nullptr;
  cusparseSpMMAlg_t alg_ = CUSPARSE_SPMM_ALG_DEFAULT;
  std::string what_;
  DeviceBuffer<unsigned char> workspace_;
};

}  // namespace bsrflow::bench
