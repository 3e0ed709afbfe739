#include "bsrflow/apps/common/cusparse_bsr_spmm.hpp"

#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

cusparseOrder_t cusparse_order(Layout layout) {
  return layout == Layout::row_major ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL;
}

namespace {
constexpr float kAlpha = 1.0f;  // CUDA_R_32F compute: float scalars, host pointer mode
constexpr float kBeta = 0.0f;
}  // namespace

template <class T>
CusparseBsrSpmm<T>::CusparseBsrSpmm(cusparseHandle_t handle, BsrView<const T> A, DenseView<const T> B,
                                    DenseView<T> C, cudaStream_t stream)
    : handle_(handle) {
  BSRFLOW_REQUIRE(A.rows % A.R == 0 && A.cols % A.C == 0, Errc::unsupported,
                  "cuSPARSE BSR SpMM: the matrix must be a whole number of blocks");
  const cudaDataType type = cuda_data_type(dtype_of_v<T>);
  try {
    BSRFLOW_CUSPARSE(cusparseSetStream(handle_, stream));
    BSRFLOW_CUSPARSE_OR_UNSUPPORTED(
        cusparseCreateConstBsr(&a_, A.block_rows(), A.block_cols(), A.nnzb, A.R, A.C, A.row_ptr, A.col_idx, A.values,
                               CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type,
                               CUSPARSE_ORDER_ROW),
        "cusparseCreateConstBsr");
    BSRFLOW_CUSPARSE(cusparseCreateConstDnMat(&b_, B.rows, B.cols, B.ld, B.data, type, cusparse_order(B.layout)));
    BSRFLOW_CUSPARSE(cusparseCreateDnMat(&c_, C.rows, C.cols, C.ld, C.data, type, cusparse_order(C.layout)));
    std::size_t bytes = 0;
    BSRFLOW_CUSPARSE_OR_UNSUPPORTED(
        cusparseSpMM_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &kAlpha,
                                a_, b_, &kBeta, c_, CUDA_R_32F, CUSPARSE_SPMM_BSR_ALG1, &bytes),
        "cuSPARSE BSR SpMM (cusparseSpMM_bufferSize, CUSPARSE_SPMM_BSR_ALG1)");
    workspace_ = DeviceBuffer<unsigned char>(bytes, stream);
  } catch (...) {
    // The destructor does not run for a half-built object.
    if (a_ != nullptr) (void)cusparseDestroySpMat(a_);
    if (b_ != nullptr) (void)cusparseDestroyDnMat(b_);
    if (c_ != nullptr) (void)cusparseDestroyDnMat(c_);
    throw;
  }
}

template <class T>
CusparseBsrSpmm<T>::~CusparseBsrSpmm() {
  (void)cusparseDestroySpMat(a_);
  (void)cusparseDestroyDnMat(b_);
  (void)cusparseDestroyDnMat(c_);
}

template <class T>
void CusparseBsrSpmm<T>::run(cudaStream_t stream) {
  BSRFLOW_CUSPARSE(cusparseSetStream(handle_, stream));
  BSRFLOW_CUSPARSE_OR_UNSUPPORTED(
      cusparseSpMM(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &kAlpha, a_, b_,
                   &kBeta, c_, CUDA_R_32F, CUSPARSE_SPMM_BSR_ALG1, workspace_.data()),
      "cuSPARSE BSR SpMM (cusparseSpMM, CUSPARSE_SPMM_BSR_ALG1)");
}

template class CusparseBsrSpmm<__half>;
template class CusparseBsrSpmm<__nv_bfloat16>;

}  // namespace bsrflow::bench
