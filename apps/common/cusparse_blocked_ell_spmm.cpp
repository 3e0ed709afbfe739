#include "bsrflow/apps/common/cusparse_blocked_ell_spmm.hpp"

#include <string>

#include "bsrflow/apps/common/blocked_ell_pack.hpp"
#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/apps/common/timing.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

template <class T>
CusparseBlockedEllSpmm<T>::CusparseBlockedEllSpmm(cusparseHandle_t handle, BsrView<const T> A, int longest_row,
                                                  DenseView<const T> B, DenseView<T> C, cudaStream_t stream) {
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

  cusparseConstSpMatDescr_t a = nullptr;
  BSRFLOW_CUSPARSE_OR_UNSUPPORTED(
      cusparseCreateConstBlockedEll(&a, A.rows, A.cols, b, static_cast<std::int64_t>(slots) * b, col_idx_.data(),
                                    values_.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                    cuda_data_type(dtype_of_v<T>)),
      "cusparseCreateConstBlockedEll");
  call_ = CusparseSpmmCall(handle, a, B, C, CUSPARSE_SPMM_BLOCKED_ELL_ALG1,
                           "cuSPARSE Blocked-ELL SpMM (CUSPARSE_SPMM_BLOCKED_ELL_ALG1)", stream);
}

template class CusparseBlockedEllSpmm<__half>;
template class CusparseBlockedEllSpmm<__nv_bfloat16>;

}  // namespace bsrflow::bench
