#include "bsrflow/apps/common/cublas_dense_gemm.hpp"

#include <limits>
#include <string>

#include "bsrflow/ops/cublas_check.hpp"
#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace {

std::string shape(int r, int c) { return std::to_string(r) + " x " + std::to_string(c); }

template <class T>
void check_view(const DenseView<T>& v, const char* name) {
  BSRFLOW_REQUIRE(v.ld >= v.min_ld() && v.ld <= std::numeric_limits<int>::max(), Errc::invalid_argument,
                  std::string(name) + ": leading dimension " + std::to_string(v.ld) + " is invalid for a " +
                      shape(v.rows, v.cols) + " matrix");
}

// In cuBLAS's column-major world a row-major matrix X is X^T with the same leading dimension.
cublasOperation_t as_stored(Layout l) { return l == Layout::col_major ? CUBLAS_OP_N : CUBLAS_OP_T; }
cublasOperation_t as_transposed(Layout l) { return l == Layout::col_major ? CUBLAS_OP_T : CUBLAS_OP_N; }

}  // namespace

template <class T>
void cublas_dense_gemm(cublasHandle_t handle, DenseView<const T> A, DenseView<const T> B, DenseView<T> C) {
  BSRFLOW_REQUIRE(A.cols == B.rows, Errc::invalid_argument,
                  "dense GEMM: B has " + std::to_string(B.rows) + " rows, expected A.cols = " + std::to_string(A.cols));
  BSRFLOW_REQUIRE(C.rows == A.rows && C.cols == B.cols, Errc::invalid_argument,
                  "dense GEMM: C is " + shape(C.rows, C.cols) + ", expected " + shape(A.rows, B.cols));
  check_view(A, "A");
  check_view(B, "B");
  check_view(C, "C");
  const cudaDataType type = cuda_data_type(dtype_of_v<T>);
  const float alpha = 1.0f, beta = 0.0f;  // CUBLAS_COMPUTE_32F takes float scalars
  const int M = A.rows, N = B.cols, K = A.cols;
  const auto lda = static_cast<int>(A.ld), ldb = static_cast<int>(B.ld), ldc = static_cast<int>(C.ld);
  if (C.layout == Layout::col_major) {
    // C (M x N) = op(A) * op(B)
    BSRFLOW_CUBLAS(cublasGemmEx(handle, as_stored(A.layout), as_stored(B.layout), M, N, K, &alpha, A.data, type, lda,
                                B.data, type, ldb, &beta, C.data, type, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  } else {
    // Row-major C is column-major C^T (N x M) = B^T * A^T.
    BSRFLOW_CUBLAS(cublasGemmEx(handle, as_transposed(B.layout), as_transposed(A.layout), N, M, K, &alpha, B.data,
                                type, ldb, A.data, type, lda, &beta, C.data, type, ldc, CUBLAS_COMPUTE_32F,
                                CUBLAS_GEMM_DEFAULT));
  }
}

template void cublas_dense_gemm<__half>(cublasHandle_t, DenseView<const __half>, DenseView<const __half>,
                                        DenseView<__half>);
template void cublas_dense_gemm<__nv_bfloat16>(cublasHandle_t, DenseView<const __nv_bfloat16>,
                                               DenseView<const __nv_bfloat16>, DenseView<__nv_bfloat16>);

}  // namespace bsrflow::bench
