// Reference BSR x dense GEMM on CUDA cores: C = alpha * A * B + beta * C.
//
// Simple and obviously right: the oracle for the fast kernels and their fallback for shapes
// they reject. Any block shape R x C (partial edge blocks included), B and C row- or
// column-major with leading dimensions, accumulation in accumulator_t<TIn> (f32; f64 for f64)
// in increasing k order. When beta == 0, C is not read (NaN in C does not propagate).
#pragma once

#include <cuda_runtime_api.h>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/dense.hpp"

namespace bsrflow {

// Instantiated for (TIn, TOut) in {(__half, __half), (__half, float), (__nv_bfloat16,
// __nv_bfloat16), (__nv_bfloat16, float), (float, float), (double, double)}.
// Throws Error(invalid_argument) on mismatched shapes or a too-small leading dimension.
template <class TIn, class TOut>
void reference_gemm(BsrView<const TIn> A, DenseView<const TIn> B, DenseView<TOut> C,
                    accumulator_t<TIn> alpha, accumulator_t<TIn> beta, cudaStream_t stream);

}  // namespace bsrflow
