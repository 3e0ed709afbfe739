// Launcher of the reference BSR x dense GEMM (kernel: reference_gemm_kernel.cuh) and its
// explicit instantiations, the only ones: six (TIn, TOut) pairs in this one TU.
#include "bsrflow/ops/reference_gemm.hpp"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>

#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/gemm_shapes.hpp"
#include "bsrflow/ops/reference_gemm_kernel.cuh"

namespace bsrflow {

namespace {

namespace rd = reference_gemm_detail;

constexpr int kMaxGridY = 65535;  // CUDA's limit on gridDim.y; the kernel strides past it

int next_pow2(std::int64_t v) {
  int p = 1;
  while (p < v) p *= 2;
  return p;
}

// CTA shape: enough row lanes that each thread's register tile of kRowsPerThread rows is used
// (R = 1..4 -> 1 lane, 5..8 -> 2, 9..16 -> 4, 17 and up -> 8), the rest of the 256 threads
// along N; narrower swaths for skinny N so that lanes are not left idle (never below a warp).
dim3 cta_shape(int R, int N) {
  const int row_lanes = std::min(8, next_pow2((R + rd::kRowsPerThread - 1) / rd::kRowsPerThread));
  int swath = rd::kMaxThreads / row_lanes;
  while (swath > rd::kMinSwath && swath / 2 >= N) swath /= 2;
  return dim3(static_cast<unsigned>(swath), static_cast<unsigned>(row_lanes));
}

// (row stride, column stride) in elements of a dense operand.
template <class T>
std::pair<std::int64_t, std::int64_t> strides(const DenseView<T>& D) {
  return D.layout == Layout::row_major ? std::pair<std::int64_t, std::int64_t>{D.ld, 1}
                                       : std::pair<std::int64_t, std::int64_t>{1, D.ld};
}

}  // namespace

template <class TIn, class TOut>
void reference_gemm(BsrView<const TIn> A, DenseView<const TIn> B, DenseView<TOut> C, accumulator_t<TIn> alpha,
                    accumulator_t<TIn> beta, cudaStream_t stream) {
  check_gemm_operands(A, B, C);
  // Nothing to write. (K == 0 with M, N > 0 still runs: C = beta * C, or 0.)
  if (C.rows == 0 || C.cols == 0) return;

  rd::Params<TIn, TOut> p;
  p.M = A.rows;
  p.N = B.cols;
  p.K = A.cols;
  p.R = A.R;
  p.C = A.C;
  p.row_ptr = A.row_ptr;
  p.col_idx = A.col_idx;
  p.a_values = A.values;
  p.b = B.data;
  std::tie(p.b_row_stride, p.b_col_stride) = strides(B);
  p.c = C.data;
  std::tie(p.c_row_stride, p.c_col_stride) = strides(C);
  p.alpha = alpha;
  p.beta = beta;

  const dim3 block = cta_shape(A.R, B.cols);
  // 64-bit ceil divisions: rows + R - 1 can pass INT_MAX. Block rows (< 2^31) fit gridDim.x;
  // swaths past gridDim.y's limit are strided over by the kernel.
  const std::int64_t block_rows = (static_cast<std::int64_t>(A.rows) + A.R - 1) / A.R;
  const std::int64_t swaths = (static_cast<std::int64_t>(B.cols) + block.x - 1) / block.x;
  const dim3 grid(static_cast<unsigned>(block_rows), static_cast<unsigned>(std::min<std::int64_t>(swaths, kMaxGridY)));
  rd::reference_gemm_kernel<TIn, TOut><<<grid, block, 0, stream>>>(p);
  BSRFLOW_CHECK_LAUNCH("reference_gemm_kernel");
}

#define BSRFLOW_INSTANTIATE_REFERENCE_GEMM(TIn, TOut)                                                       \
  template void reference_gemm<TIn, TOut>(BsrView<const TIn>, DenseView<const TIn>, DenseView<TOut>,       \
                                          accumulator_t<TIn>, accumulator_t<TIn>, cudaStream_t);

BSRFLOW_INSTANTIATE_REFERENCE_GEMM(__half, __half)
BSRFLOW_INSTANTIATE_REFERENCE_GEMM(__half, float)
BSRFLOW_INSTANTIATE_REFERENCE_GEMM(__nv_bfloat16, __nv_bfloat16)
BSRFLOW_INSTANTIATE_REFERENCE_GEMM(__nv_bfloat16, float)
BSRFLOW_INSTANTIATE_REFERENCE_GEMM(float, float)
BSRFLOW_INSTANTIATE_REFERENCE_GEMM(double, double)
#undef BSRFLOW_INSTANTIATE_REFERENCE_GEMM

}  // namespace bsrflow
