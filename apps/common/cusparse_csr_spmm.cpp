#include "bsrflow/apps/common/cusparse_csr_spmm.hpp"

#include "bsrflow/apps/common/cusparse_bsr_spmm.hpp"  // cusparse_order
#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {
namespace {
constexpr float kAlpha = 1.0f;  // CUDA_R_32F compute: float scalars, host pointer mode
constexpr float kBeta = 0.0f;
}  // namespace

template <class T>
CusparseCsrSpmm<T>::CusparseCsrSpmm(cusparseHandle_t handle, CsrView<const T> A, DenseView<const T> B,
                                    DenseView<T> C, cudaStream_t stream)
    : handle_(handle) {
  BSRFLOW_REQUIRE(A.cols == B.rows && A.rows == C.rows && B.cols == C.cols, Errc::invalid_argument,
                  "cuSPARSE CSR SpMM: A is " + std::to_string(A.rows) + " x " + std::to_string(A.cols) + ", B " +
                      std::to_string(B.rows) + " x " + std::to_string(B.cols) + ", C " + std::to_string(C.rows) +
                      " x " + std::to_string(C.cols));
  const cudaDataType type = cuda_data_type(dtype_of_v<T>);
  try {
    BSRFLOW_CUSPARSE(cusparseSetStream(handle_, stream));
    BSRFLOW_CUSPARSE_OR_UNSUPPORTED(
        cusparseCreateConstCsr(&a_, A.rows, A.cols, A.nnz, A.row_ptr, A.col_idx, A.values, CUSPARSE_INDEX_32I,
                               CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type),
        "cusparseCreateConstCsr");
    BSRFLOW_CUSPARSE(cusparseCreateConstDnMat(&b_, B.rows, B.cols, B.ld, B.data, type, cusparse_order(B.layout)));
    BSRFLOW_CUSPARSE(cusparseCreateDnMat(&c_, C.rows, C.cols, C.ld, C.data, type, cusparse_order(C.layout)));
    std::size_t bytes = 0;
    BSRFLOW_CUSPARSE_OR_UNSUPPORTED(
        cusparseSpMM_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &kAlpha,
                                a_, b_, &kBeta, c_, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, &bytes),
        "cuSPARSE CSR SpMM (cusparseSpMM_bufferSize)");
    workspace_ = DeviceBuffer<unsigned char>(bytes, stream);
  } catch (...) {
    if (a_ != nullptr) (void)cusparseDestroySpMat(a_);
    if (b_ != nullptr) (void)cusparseDestroyDnMat(b_);
    if (c_ != nullptr) (void)cusparseDestroyDnMat(c_);
    throw;
  }
}

template <class T>
CusparseCsrSpmm<T>::~CusparseCsrSpmm() {
  (void)cusparseDestroySpMat(a_);
  (void)cusparseDestroyDnMat(b_);
  (void)cusparseDestroyDnMat(c_);
}

template <class T>
void CusparseCsrSpmm<T>::run(cudaStream_t stream) {
  BSRFLOW_CUSPARSE(cusparseSetStream(handle_, stream));
  BSRFLOW_CUSPARSE_OR_UNSUPPORTED(
      cusparseSpMM(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &kAlpha, a_, b_,
                   &kBeta, c_, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, workspace_.data()),
      "cuSPARSE CSR SpMM (cusparseSpMM)");
}

template class CusparseCsrSpmm<__half>;
template class CusparseCsrSpmm<__nv_bfloat16>;
template class CusparseCsrSpmm<float>;

}  // namespace bsrflow::bench
