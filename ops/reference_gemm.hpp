// Reference BSR x dense GEMM on CUDA cores: C = alpha * A * B + beta * C.
//
// Simple and obviously right: the oracle for the fast kernels and their fallback for shapes
// they reject. Any block shape R x C (partial edge blocks included), B and C row- or
// column-major with leading dimensions, accumulation in accumulator_t<TIn> (f32; f64 for f64)
// in increasing k order. When beta == 0, C is not read (NaN in C does not propagate).
//
// Contract details:
//  - Operands are checked first with check_gemm_operands (gemm_shapes.hpp): shapes, leading
//    dimensions, null pointers. A's structure is trusted, not read on the host (validate it
//    once with formats/validate.hpp); a block column outside [0, block cols) contributes
//    nothing rather than reading outside B.
//  - Partial edge blocks: A's padding entries must be zero (bsr.hpp); B rows >= K are never
//    read and C rows >= M / columns >= N never written. C's leading-dimension padding is
//    untouched.
//  - Empty block rows give C = beta * C (0 when beta == 0); M == 0 or N == 0 launches nothing.
//  - Results are bitwise reproducible run to run (one thread per output, fixed order, no atomics).
//  - Asynchronous on `stream`; no allocation, no synchronisation: safe inside stream capture.
//  - C must not overlap A or B (not checked).
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
