#include "bsrflow/apps/common/cusparse_csr_spmm.hpp"

#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

template <class T>
CusparseCsrSpmm<T>::CusparseCsrSpmm(cusparseHandle_t handle, CsrView<const T> A, DenseView<const T> B,
                                    DenseView<T> C, cudaStream_t stream) {
  BSRFLOW_REQUIRE(A.cols == B.rows && A.rows == C.rows && B.cols == C.cols, Errc::invalid_argument,
                  "cuSPARSE CSR SpMM: A is " + std::to_string(A.rows) + " x " + std::to_string(A.cols) + ", B " +
                      std::to_string(B.rows) + " x " + std::to_string(B.cols) + ", C " + std::to_string(C.rows) +
                      " x " + std::to_string(C.cols));
  cusparseConstSpMatDescr_t a = nullptr;
  BSRFLOW_CUSPARSE_OR_UNSUPPORTED(
      cusparseCreateConstCsr(&a, A.rows, A.cols, A.nnz, A.row_ptr, A.col_idx, A.values, CUSPARSE_INDEX_32I,
                             CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, cuda_data_type(dtype_of_v<T>)),
      "cusparseCreateConstCsr");
  call_ = CusparseSpmmCall(handle, a, B, C, CUSPARSE_SPMM_ALG_DEFAULT, "cuSPARSE CSR SpMM", stream);
}

template class CusparseCsrSpmm<__half>;
template class CusparseCsrSpmm<__nv_bfloat16>;
template class CusparseCsrSpmm<float>;

}  // namespace bsrflow::bench
