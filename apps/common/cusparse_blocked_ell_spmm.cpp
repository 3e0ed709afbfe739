#include "bsrflow/apps/common/cusparse_blocked_ell_spmm.hpp"

#include <string>

#include "bsrflow/apps/common/blocked_ell_pack.hpp"
#include "bsrflow/apps/common/cusparse_bsr_spmm.hpp"
#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/apps/common/timing.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace {
constexpr float kAlpha = 1.0f;
constexpr float kBeta = 0.0f;
}  // namespace

template <class T>
CusparseBlockedEllSpmm<T>::CusparseBlockedEllSpmm(cusparseHandle_t handle, BsrView<const T> A, int longest_row,
                                                  DenseView<const T> B, DenseView<T> C, cudaStream_t stream)
    : handle_(handle) {
  BSRFLOW_REQUIRE(A.R == A.C, Errc::unsupported,
                  "cuSPARSE Blocked-ELL takes square blocks only (got " + std::to_string(A.R) + "x" +
                      std::to_string(A.C) + ")");
  BSRFLOW_REQUIRE(A.rows % A.R == 0 && A.cols % A.C == 0, Errc::unsupported,
                  "cuSPARSE Blocked-ELL: the matrix must be a whole number of blocks");
  const int b = A.R;
  const int slots = longest_row;
  padded_blocks_ = static_cast<std::int64_t>(A.block_rows()) * slots;
  // Allocation + packing is the conversion a user pays once per pattern.
  pack_ms_ = time_once_ms(
      [&](cudaStream_t s) {
        col_idx_ = DeviceBuffer<int>(static_cast<std::size_t>(padded_blocks_), s);
        values_ = DeviceBuffer<T>(static_cast<std::size_t>(padded_blocks_) * b * b, s);
        pack_blocked_ell(A, slots, col_idx_.data(), values_.data(), s);
      },
      stream);

  const cudaDataType type = cuda_data_type(dtype_of_v<T>);
  try {
    BSRFLOW_CUSPARSE(cusparseSetStream(handle_, stream));
    BSRFLOW_CUSPARSE_OR_UNSUPPORTED(
        cusparseCreateConstBlockedEll(&a_, A.rows, A.cols, b, static_cast<std::int64_t>(slots) * b, col_idx_.data(),
                                      values_.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type),
        "cusparseCreateConstBlockedEll");
    BSRFLOW_CUSPARSE(cusparseCreateConstDnMat(&b_, B.rows, B.cols, B.ld, B.data, type, cusparse_order(B.layout)));
    BSRFLOW_CUSPARSE(cusparseCreateDnMat(&c_, C.rows, C.cols, C.ld, C.data, type, cusparse_order(C.layout)));
    std::size_t bytes = 0;
    BSRFLOW_CUSPARSE_OR_UNSUPPORTED(
        cusparseSpMM_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &kAlpha,
                                a_, b_, &kBeta, c_, CUDA_R_32F, CUSPARSE_SPMM_BLOCKED_ELL_ALG1, &bytes),
        "cuSPARSE Blocked-ELL SpMM (cusparseSpMM_bufferSize, CUSPARSE_SPMM_BLOCKED_ELL_ALG1)");
    workspace_ = DeviceBuffer<unsigned char>(bytes, stream);
  } catch (...) {
    if (a_ != nullptr) (void)cusparseDestroySpMat(a_);
    if (b_ != nullptr) (void)cusparseDestroyDnMat(b_);
    if (c_ != nullptr) (void)cusparseDestroyDnMat(c_);
    throw;
  }
}

template <class T>
CusparseBlockedEllSpmm<T>::~CusparseBlockedEllSpmm() {
  (void)cusparseDestroySpMat(a_);
  (void)cusparseDestroyDnMat(b_);
  (void)cusparseDestroyDnMat(c_);
}

template <class T>
void CusparseBlockedEllSpmm<T>::run(cudaStream_t stream) {
  BSRFLOW_CUSPARSE(cusparseSetStream(handle_, stream));
  BSRFLOW_CUSPARSE_OR_UNSUPPORTED(
      cusparseSpMM(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &kAlpha, a_, b_,
                   &kBeta, c_, CUDA_R_32F, CUSPARSE_SPMM_BLOCKED_ELL_ALG1, workspace_.data()),
      "cuSPARSE Blocked-ELL SpMM (cusparseSpMM, CUSPARSE_SPMM_BLOCKED_ELL_ALG1)");
}

template class CusparseBlockedEllSpmm<__half>;
template class CusparseBlockedEllSpmm<__nv_bfloat16>;

}  // namespace bsrflow::bench
