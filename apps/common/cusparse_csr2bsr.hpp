// The cuSPARSE conversion peer: cusparseXcsr2bsrNnz + cusparse<t>csr2bsr (row-major blocks,
// CUSPARSE_DIRECTION_ROW, square blocks), with the BSR arrays allocated as a user allocates
// them. cuSPARSE has csr2bsr for float and double only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "bsrflow/apps/common/cusparse_check.hpp"
#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/formats/csr.hpp"

namespace bsrflow::bench {

template <class T>  // float, double
class CusparseCsr2Bsr {
 public:
  // Makes the matrix descriptors only. The CSR view must stay valid while this object is used.
  CusparseCsr2Bsr(cusparseHandle_t handle, CsrView<const T> csr, int block);
  ~CusparseCsr2Bsr();
  CusparseCsr2Bsr(const CusparseCsr2Bsr&) = delete;
  CusparseCsr2Bsr& operator=(const CusparseCsr2Bsr&) = delete;

  // Symbolic + numeric as a user runs it the first time: allocate row_ptr, count blocks
  // (cusparseXcsr2bsrNnz, which returns the count to the host and so synchronises), allocate
  // col_idx and values, convert. Frees the arrays of a previous call first.
  void convert(cudaStream_t stream);
  // Numeric refresh: cusparse<t>csr2bsr alone into the arrays of the last convert(). (cuSPARSE
  // has no values-only variant: this call also rewrites row_ptr and col_idx.)
  void refresh(cudaStream_t stream);

  int block_rows() const { return (csr_.rows + block_ - 1) / block_; }
  std::int64_t nnzb() const { return nnzb_; }
  const DeviceBuffer<int>& row_ptr() const { return row_ptr_; }
  const DeviceBuffer<int>& col_idx() const { return col_idx_; }
  const DeviceBuffer<T>& values() const { return values_; }

 private:
  cusparseHandle_t handle_;
  CsrView<const T> csr_;
  int block_;
  cusparseMatDescr_t csr_descr_ = nullptr;
  cusparseMatDescr_t bsr_descr_ = nullptr;
  DeviceBuffer<int> row_ptr_;
  DeviceBuffer<int> col_idx_;
  DeviceBuffer<T> values_;
  std::int64_t nnzb_ = 0;
};

}  // namespace bsrflow::bench
