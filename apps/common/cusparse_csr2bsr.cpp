#include "bsrflow/apps/common/cusparse_csr2bsr.hpp"

#include <string>
#include <type_traits>

#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace {
cusparseStatus_t csr2bsr(cusparseHandle_t h, int m, int n, cusparseMatDescr_t csr_descr, const float* values,
                         const int* row_ptr, const int* col_idx, int block, cusparseMatDescr_t bsr_descr,
                         float* bsr_values, int* bsr_row_ptr, int* bsr_col_idx) {
  return cusparseScsr2bsr(h, CUSPARSE_DIRECTION_ROW, m, n, csr_descr, values, row_ptr, col_idx, block, bsr_descr,
                          bsr_values, bsr_row_ptr, bsr_col_idx);
}
cusparseStatus_t csr2bsr(cusparseHandle_t h, int m, int n, cusparseMatDescr_t csr_descr, const double* values,
                         const int* row_ptr, const int* col_idx, int block, cusparseMatDescr_t bsr_descr,
                         double* bsr_values, int* bsr_row_ptr, int* bsr_col_idx) {
  return cusparseDcsr2bsr(h, CUSPARSE_DIRECTION_ROW, m, n, csr_descr, values, row_ptr, col_idx, block, bsr_descr,
                          bsr_values, bsr_row_ptr, bsr_col_idx);
}
}  // namespace

template <class T>
CusparseCsr2Bsr<T>::CusparseCsr2Bsr(cusparseHandle_t handle, CsrView<const T> csr, int block)
    : handle_(handle), csr_(csr), block_(block) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "cuSPARSE csr2bsr: float or double");
  BSRFLOW_REQUIRE(block > 0, Errc::invalid_argument, "csr2bsr block size must be positive");
  BSRFLOW_CUSPARSE(cusparseCreateMatDescr(&csr_descr_));
  try {
    BSRFLOW_CUSPARSE(cusparseCreateMatDescr(&bsr_descr_));
  } catch (...) {
    (void)cusparseDestroyMatDescr(csr_descr_);
    throw;
  }
  // Defaults: general matrix, zero-based indices.
}

template <class T>
CusparseCsr2Bsr<T>::~CusparseCsr2Bsr() {
  (void)cusparseDestroyMatDescr(csr_descr_);
  (void)cusparseDestroyMatDescr(bsr_descr_);
}

template <class T>
void CusparseCsr2Bsr<T>::convert(cudaStream_t stream) {
  BSRFLOW_CUSPARSE(cusparseSetStream(handle_, stream));
  col_idx_ = DeviceBuffer<int>();
  values_ = DeviceBuffer<T>();
  row_ptr_ = DeviceBuffer<int>(static_cast<std::size_t>(block_rows()) + 1, stream);
  int nnzb = 0;  // host pointer: cuSPARSE copies the count back and synchronises
  BSRFLOW_CUSPARSE(cusparseXcsr2bsrNnz(handle_, CUSPARSE_DIRECTION_ROW, csr_.rows, csr_.cols, csr_descr_, csr_.row_ptr,
                                       csr_.col_idx, block_, bsr_descr_, row_ptr_.data(), &nnzb));
  nnzb_ = nnzb;
  col_idx_ = DeviceBuffer<int>(static_cast<std::size_t>(nnzb), stream);
  values_ = DeviceBuffer<T>(static_cast<std::size_t>(nnzb) * block_ * block_, stream);
  refresh(stream);
}

template <class T>
void CusparseCsr2Bsr<T>::refresh(cudaStream_t stream) {
  BSRFLOW_REQUIRE(!row_ptr_.empty(), Errc::invalid_argument, "csr2bsr refresh before the first convert()");
  BSRFLOW_CUSPARSE(cusparseSetStream(handle_, stream));
  BSRFLOW_CUSPARSE(csr2bsr(handle_, csr_.rows, csr_.cols, csr_descr_, csr_.values, csr_.row_ptr, csr_.col_idx, block_,
                           bsr_descr_, values_.data(), row_ptr_.data(), col_idx_.data()));
}

template class CusparseCsr2Bsr<float>;
template class CusparseCsr2Bsr<double>;

}  // namespace bsrflow::bench
