// The cuSPARSE SpMV peers of spmv_bench, y = A x (alpha 1, beta 0, host pointer mode):
//  - CusparseCsrSpmv: the generic API, cusparseSpMV on a cusparseCreateConstCsr matrix with
//    CUSPARSE_SPMV_CSR_ALG1 (deterministic), workspace and cusparseSpMV_preprocess done here so
//    run() is the call a solver repeats.
//  - CusparseBsrmv: the legacy cusparse<S|D>bsrmv (row-major blocks, CUSPARSE_DIRECTION_ROW),
//    square blocks, a whole number of blocks in each dimension.
// float and double. Everything passed in must stay valid while the object is used.
#pragma once

#include <cuda_runtime_api.h>

#include "bsrflow/apps/common/cusparse_check.hpp"
#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/csr.hpp"

namespace bsrflow::bench {

template <class T>
class CusparseCsrSpmv {
 public:
  // Descriptors, workspace, preprocessing (never inside a timed region). Error(unsupported) when
  // cuSPARSE answers CUSPARSE_STATUS_NOT_SUPPORTED, Error(cusparse) for any other failure.
  CusparseCsrSpmv(cusparseHandle_t handle, CsrView<const T> A, const T* x, T* y, cudaStream_t stream);
  ~CusparseCsrSpmv();
  CusparseCsrSpmv(const CusparseCsrSpmv&) = delete;
  CusparseCsrSpmv& operator=(const CusparseCsrSpmv&) = delete;

  void run(cudaStream_t stream);

 private:
  cusparseHandle_t handle_;
  cusparseConstSpMatDescr_t a_ = nullptr;
  cusparseConstDnVecDescr_t x_ = nullptr;
  cusparseDnVecDescr_t y_ = nullptr;
  DeviceBuffer<unsigned char> workspace_;
};

template <class T>
class CusparseBsrmv {
 public:
  // Error(unsupported) for non-square blocks or a partial last block row / column.
  CusparseBsrmv(cusparseHandle_t handle, BsrView<const T> A, const T* x, T* y);
  ~CusparseBsrmv();
  CusparseBsrmv(const CusparseBsrmv&) = delete;
  CusparseBsrmv& operator=(const CusparseBsrmv&) = delete;

  void run(cudaStream_t stream);

 private:
  cusparseHandle_t handle_;
  cusparseMatDescr_t descr_ = nullptr;
  BsrView<const T> a_;
  const T* x_;
  T* y_;
};

}  // namespace bsrflow::bench
