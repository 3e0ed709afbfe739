// The dense peer: C = A * B with cublasGemmEx, f16/bf16 in, f32 compute, the same dtype out.
// A, B and C may each be row- or column-major; cuBLAS is column-major, so a row-major operand
// is passed as its transpose (see the .cpp for the mapping).
#pragma once

#include <cublas_v2.h>

#include "bsrflow/formats/dense.hpp"

namespace bsrflow::bench {

// Instantiated for __half and __nv_bfloat16. Throws Error(invalid_argument) on mismatched
// shapes, Error(cublas) when cuBLAS fails. Runs on the handle's stream.
template <class T>
void cublas_dense_gemm(cublasHandle_t handle, DenseView<const T> A, DenseView<const T> B, DenseView<T> C);

}  // namespace bsrflow::bench
