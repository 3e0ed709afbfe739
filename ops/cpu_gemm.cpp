#include "bsrflow/ops/cpu_gemm.hpp"

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/validate.hpp"
#include "bsrflow/ops/gemm_shapes.hpp"

namespace bsrflow::host {

namespace {

// Double -> T with a single rounding. (from_double goes through float for the 16-bit types,
// which rounds twice and can differ from the correctly rounded value in the last bit.)
template <class T>
T round_once(double v) {
  if constexpr (std::is_same_v<T, __half>) {
    return __double2half(v);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __double2bfloat16(v);
  } else {
    return static_cast<T>(v);
  }
}

// A HostDense must hold every element its shape addresses: (outer - 1) * ld + inner.
template <class T>
void check_holds(const HostDense<T>& D, const char* name) {
  if (D.rows == 0 || D.cols == 0) return;
  const bool row_major = D.layout == Layout::row_major;
  const std::int64_t outer = row_major ? D.rows : D.cols;
  const std::int64_t inner = row_major ? D.cols : D.rows;
  const std::int64_t needed = (outer - 1) * D.ld + inner;
  const auto held = static_cast<std::int64_t>(D.data.size());
  BSRFLOW_REQUIRE(held >= needed, Errc::invalid_argument,
                  std::string(name) + " holds " + std::to_string(held) + " elements, a " +
                      (row_major ? "row-major " : "column-major ") + std::to_string(D.rows) + " x " +
                      std::to_string(D.cols) + " matrix with ld " + std::to_string(D.ld) + " needs " +
                      std::to_string(needed));
}

template <class TIn, class TOut>
void check_inputs(const HostBsr<TIn>& A, const HostDense<TIn>& B, const HostDense<TOut>& C) {
  check_gemm_operands(A.view(), B.view(), C.view());
  validate(A);  // structure: lengths, row_ptr, column ranges (Errc::invalid_structure)
  check_holds(B, "B");
  check_holds(C, "C");
}

// A * B in double, row-major M x N. Each output sums its terms in increasing k (block order,
// then column within the block), the order the GPU kernels use.
template <class TIn>
std::vector<double> product_f64(const HostBsr<TIn>& A, const HostDense<TIn>& B) {
  const std::int64_t M = A.rows, K = A.cols, N = B.cols;
  // B widened once, row-major K x N, so the inner loop is a contiguous axpy.
  std::vector<double> b(static_cast<std::size_t>(K * N));
  for (std::int64_t k = 0; k < K; ++k)
    for (std::int64_t n = 0; n < N; ++n) b[k * N + n] = to_double(B(k, n));

  std::vector<double> acc(static_cast<std::size_t>(M * N), 0.0);
  for (int i = 0; i < A.block_rows(); ++i) {
    for (int slot = A.row_ptr[i]; slot < A.row_ptr[i + 1]; ++slot) {
      const std::int64_t k0 = static_cast<std::int64_t>(A.col_idx[slot]) * A.C;
      for (int r = 0; r < A.R && static_cast<std::int64_t>(i) * A.R + r < M; ++r) {
        double* out_row = &acc[(static_cast<std::int64_t>(i) * A.R + r) * N];
        // Partial edge block: columns at or past K are padding (zero) and B has no such rows.
        for (int c = 0; c < A.C && k0 + c < K; ++c) {
          const double a = to_double(A.at(slot, r, c));
          const double* b_row = &b[(k0 + c) * N];
          for (std::int64_t n = 0; n < N; ++n) out_row[n] += a * b_row[n];
        }
      }
    }
  }
  return acc;
}

}  // namespace

template <class TIn, class TOut>
HostDense<double> gemm_f64(const HostBsr<TIn>& A, const HostDense<TIn>& B, const HostDense<TOut>& C, double alpha,
                           double beta) {
  check_inputs(A, B, C);
  const std::vector<double> ab = product_f64(A, B);
  HostDense<double> out(C.rows, C.cols, Layout::row_major);
  for (int i = 0; i < C.rows; ++i)
    for (int j = 0; j < C.cols; ++j) {
      const double v = alpha * ab[static_cast<std::size_t>(i) * C.cols + j];
      // beta == 0: C is not read at all, so NaN / Inf there cannot leak into the result.
      out(i, j) = beta == 0.0 ? v : v + beta * to_double(C(i, j));
    }
  return out;
}

template <class TIn, class TOut>
void gemm(const HostBsr<TIn>& A, const HostDense<TIn>& B, HostDense<TOut>& C, double alpha, double beta) {
  const HostDense<double> exact = gemm_f64(A, B, C, alpha, beta);
  for (int i = 0; i < C.rows; ++i)
    for (int j = 0; j < C.cols; ++j) C(i, j) = round_once<TOut>(exact(i, j));
}

template <class T>
double relative_error(const HostDense<T>& out, const HostDense<double>& ref) {
  BSRFLOW_REQUIRE(out.rows == ref.rows && out.cols == ref.cols, Errc::invalid_argument,
                  "relative_error: output is " + std::to_string(out.rows) + " x " + std::to_string(out.cols) +
                      " but the reference is " + std::to_string(ref.rows) + " x " + std::to_string(ref.cols));
  check_holds(out, "the output");
  check_holds(ref, "the reference");
  double diff2 = 0.0, ref2 = 0.0;
  for (int i = 0; i < ref.rows; ++i)
    for (int j = 0; j < ref.cols; ++j) {
      const double d = to_double(out(i, j)) - ref(i, j);
      diff2 += d * d;
      ref2 += ref(i, j) * ref(i, j);
    }
  return ref2 > 0.0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
}

#define BSRFLOW_INSTANTIATE_CPU_GEMM(TIn, TOut)                                                             \
  template void gemm<TIn, TOut>(const HostBsr<TIn>&, const HostDense<TIn>&, HostDense<TOut>&, double, double); \
  template HostDense<double> gemm_f64<TIn, TOut>(const HostBsr<TIn>&, const HostDense<TIn>&,                 \
                                                 const HostDense<TOut>&, double, double);

BSRFLOW_INSTANTIATE_CPU_GEMM(__half, __half)
BSRFLOW_INSTANTIATE_CPU_GEMM(__half, float)
BSRFLOW_INSTANTIATE_CPU_GEMM(__nv_bfloat16, __nv_bfloat16)
BSRFLOW_INSTANTIATE_CPU_GEMM(__nv_bfloat16, float)
BSRFLOW_INSTANTIATE_CPU_GEMM(float, float)
BSRFLOW_INSTANTIATE_CPU_GEMM(double, double)
#undef BSRFLOW_INSTANTIATE_CPU_GEMM

template double relative_error<__half>(const HostDense<__half>&, const HostDense<double>&);
template double relative_error<__nv_bfloat16>(const HostDense<__nv_bfloat16>&, const HostDense<double>&);
template double relative_error<float>(const HostDense<float>&, const HostDense<double>&);
template double relative_error<double>(const HostDense<double>&, const HostDense<double>&);

}  // namespace bsrflow::host
