// CPU reference BSR x dense GEMM: C = alpha * A * B + beta * C, the oracle the GPU kernels are
// tested against.
//
// Semantics are the GPU kernels' (reference_gemm.hpp) except for arithmetic: products and sums
// are formed in double and each output is rounded once to TOut (round to nearest even), so that
// on integer-valued inputs the result is exact and a GPU result compares bit for bit. When
// beta == 0, C is not read (NaN in C does not propagate). Output entries outside the rows x cols
// shape (leading-dimension padding) are never touched.
//
// Inputs are checked before anything is computed: check_gemm_operands (gemm_shapes.hpp), the
// BSR structure (formats/validate.hpp, Errc::invalid_structure) and that each HostDense holds
// enough elements for its shape, layout and ld ("B holds 10 elements, a row-major 4 x 5 matrix
// with ld 5 needs 20"; Errc::invalid_argument).
#pragma once

#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/dense.hpp"

namespace bsrflow::host {

// Instantiated for (TIn, TOut) in {(__half, __half), (__half, float), (__nv_bfloat16,
// __nv_bfloat16), (__nv_bfloat16, float), (float, float), (double, double)}, like the GPU kernel.
template <class TIn, class TOut>
void gemm(const HostBsr<TIn>& A, const HostDense<TIn>& B, HostDense<TOut>& C, double alpha, double beta);

// The fp64 value alpha * A * B + beta * C (C not read when beta == 0) as a row-major M x N
// matrix, for relative-error tests. Products of the TIn values are exact in double for the
// 16- and 32-bit types; sums are rounded in double only. Same (TIn, TOut) pairs as gemm.
template <class TIn, class TOut>
HostDense<double> gemm_f64(const HostBsr<TIn>& A, const HostDense<TIn>& B, const HostDense<TOut>& C, double alpha,
                           double beta);

// ||out - ref||_F / ||ref||_F over the rows x cols shape (layouts and lds may differ). When
// ref is all zeros, returns ||out||_F (so 0 still means "equal"). NaN in out gives NaN, which
// fails any `<= bound` check. T in {__half, __nv_bfloat16, float, double}.
template <class T>
double relative_error(const HostDense<T>& out, const HostDense<double>& ref);

}  // namespace bsrflow::host
