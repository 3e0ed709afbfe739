#include "bsrflow/apps/common/cusparse_bsr_spmm.hpp"

#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

template <class T>
CusparseBsrSpmm<T>::CusparseBsrSpmm(cusparseHandle_t handle, BsrView<const T> A, DenseView<const T> B,
                                    DenseView<T> C, cudaStream_t stream) {
  BSRFLOW_REQUIRE(A.rows % A.R == 0 && A.cols % A.C == 0, Errc::unsupported,
                  "cuSPARSE BSR SpMM: the matrix must be a whole number of blocks");
  cusparseConstSpMatDescr_t a = nullptr;
  BSRFLOW_CUSPARSE_OR_UNSUPPORTED(
      cusparseCreateConstBsr(&a, A.block_rows(), A.block_cols(), A.nnzb, A.R, A.C, A.row_ptr, A.col_idx, A.values,
                             CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                             cuda_data_type(dtype_of_v<T>), CUSPARSE_ORDER_ROW),
      "cusparseCreateConstBsr");
  call_ = CusparseSpmmCall(handle, a, B, C, CUSPARSE_SPMM_BSR_ALG1, "cuSPARSE BSR SpMM (CUSPARSE_SPMM_BSR_ALG1)",
                           stream);
}

template class CusparseBsrSpmm<__half>;
template class CusparseBsrSpmm<__nv_bfloat16>;

}  // namespace bsrflow::bench
