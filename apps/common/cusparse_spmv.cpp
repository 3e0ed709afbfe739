#include "bsrflow/apps/common/cusparse_spmv.hpp"

#include <type_traits>

#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace {
constexpr cusparseSpMVAlg_t kCsrAlgorithm = CUSPARSE_SPMV_CSR_ALG1;
}  // namespace

template <class T>
CusparseCsrSpmv<T>::CusparseCsrSpmv(cusparseHandle_t handle, CsrView<const T> A, const T* x, T* y,
                                    cudaStream_t stream)
    : handle_(handle) {
  const cudaDataType type = cuda_data_type(dtype_of_v<T>);
  const T alpha = 1, beta = 0;
  try {
    BSRFLOW_CUSPARSE(cusparseSetStream(handle_, stream));
    BSRFLOW_CUSPARSE_OR_UNSUPPORTED(cusparseCreateConstCsr(&a_, A.rows, A.cols, A.nnz, A.row_ptr, A.col_idx, A.values,
                                                           CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                                           CUSPARSE_INDEX_BASE_ZERO, type),
                                    "cusparseCreateConstCsr");
    BSRFLOW_CUSPARSE(cusparseCreateConstDnVec(&x_, A.cols, x, type));
    BSRFLOW_CUSPARSE(cusparseCreateDnVec(&y_, A.rows, y, type));
    std::size_t bytes = 0;
    BSRFLOW_CUSPARSE_OR_UNSUPPORTED(cusparseSpMV_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a_, x_,
                                                            &beta, y_, type, kCsrAlgorithm, &bytes),
                                    "cuSPARSE CSR SpMV (cusparseSpMV_bufferSize, CUSPARSE_SPMV_CSR_ALG1)");
    workspace_ = DeviceBuffer<unsigned char>(bytes, stream);
    BSRFLOW_CUSPARSE_OR_UNSUPPORTED(cusparseSpMV_preprocess(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a_, x_,
                                                            &beta, y_, type, kCsrAlgorithm, workspace_.data()),
                                    "cuSPARSE CSR SpMV (cusparseSpMV_preprocess)");
  } catch (...) {
    if (a_ != nullptr) (void)cusparseDestroySpMat(a_);
    if (x_ != nullptr) (void)cusparseDestroyDnVec(x_);
    if (y_ != nullptr) (void)cusparseDestroyDnVec(y_);
    throw;
  }
}

template <class T>
CusparseCsrSpmv<T>::~CusparseCsrSpmv() {
  (void)cusparseDestroySpMat(a_);
  (void)cusparseDestroyDnVec(x_);
  (void)cusparseDestroyDnVec(y_);
}

template <class T>
void CusparseCsrSpmv<T>::run(cudaStream_t stream) {
  const T alpha = 1, beta = 0;
  BSRFLOW_CUSPARSE(cusparseSetStream(handle_, stream));
  BSRFLOW_CUSPARSE(cusparseSpMV(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a_, x_, &beta, y_,
                                cuda_data_type(dtype_of_v<T>), kCsrAlgorithm, workspace_.data()));
}

template <class T>
CusparseBsrmv<T>::CusparseBsrmv(cusparseHandle_t handle, BsrView<const T> A, const T* x, T* y)
    : handle_(handle), a_(A), x_(x), y_(y) {
  BSRFLOW_REQUIRE(A.R == A.C, Errc::unsupported, "cuSPARSE bsrmv takes square blocks only");
  BSRFLOW_REQUIRE(A.rows % A.R == 0 && A.cols % A.C == 0, Errc::unsupported,
                  "cuSPARSE bsrmv: the matrix must be a whole number of blocks");
  BSRFLOW_CUSPARSE(cusparseCreateMatDescr(&descr_));
  // The default descriptor is what bsrmv wants: general matrix, zero-based indices.
}

template <class T>
CusparseBsrmv<T>::~CusparseBsrmv() {
  (void)cusparseDestroyMatDescr(descr_);
}

template <class T>
void CusparseBsrmv<T>::run(cudaStream_t stream) {
  const T alpha = 1, beta = 0;
  const auto nnzb = static_cast<int>(a_.nnzb);
  BSRFLOW_CUSPARSE(cusparseSetStream(handle_, stream));
  if constexpr (std::is_same_v<T, double>) {
    BSRFLOW_CUSPARSE(cusparseDbsrmv(handle_, CUSPARSE_DIRECTION_ROW, CUSPARSE_OPERATION_NON_TRANSPOSE, a_.block_rows(),
                                    a_.block_cols(), nnzb, &alpha, descr_, a_.values, a_.row_ptr, a_.col_idx, a_.R, x_,
                                    &beta, y_));
  } else {
    BSRFLOW_CUSPARSE(cusparseSbsrmv(handle_, CUSPARSE_DIRECTION_ROW, CUSPARSE_OPERATION_NON_TRANSPOSE, a_.block_rows(),
                                    a_.block_cols(), nnzb, &alpha, descr_, a_.values, a_.row_ptr, a_.col_idx, a_.R, x_,
                                    &beta, y_));
  }
}

template class CusparseCsrSpmv<float>;
template class CusparseCsrSpmv<double>;
template class CusparseBsrmv<float>;
template class CusparseBsrmv<double>;

}  // namespace bsrflow::bench
