// Zero the output with one memset, then one CTA per block row scatters its stored blocks.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <string>

#include "bsrflow/apps/common/densify.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace {

constexpr int kThreads = 256;

template <class T>
__global__ void densify_bsr_kernel(BsrView<const T> A, DenseView<T> out) {
  const int block_row = blockIdx.x;
  const int begin = A.row_ptr[block_row];
  const int end = A.row_ptr[block_row + 1];
  const std::int64_t block_size = A.block_size();
  const std::int64_t count = (end - begin) * block_size;  // elements of this block row's blocks
  for (std::int64_t e = threadIdx.x; e < count; e += blockDim.x) {
    const std::int64_t k = begin + e / block_size;  // stored block
    const int r = static_cast<int>((e % block_size) / A.C);
    const int c = static_cast<int>(e % A.C);
    const std::int64_t row = static_cast<std::int64_t>(block_row) * A.R + r;
    const std::int64_t col = static_cast<std::int64_t>(A.col_idx[k]) * A.C + c;
    if (row < A.rows && col < A.cols) out(row, col) = A.values[k * block_size + (e % block_size)];
  }
}

}  // namespace

template <class T>
void densify_bsr(BsrView<const T> A, DenseView<T> out, cudaStream_t stream) {
  BSRFLOW_REQUIRE(out.rows == A.rows && out.cols == A.cols, Errc::invalid_argument,
                  "densify: output is " + std::to_string(out.rows) + " x " + std::to_string(out.cols) +
                      ", the BSR matrix is " + std::to_string(A.rows) + " x " + std::to_string(A.cols));
  BSRFLOW_REQUIRE(out.ld >= out.min_ld(), Errc::invalid_argument, "densify: leading dimension too small");
  const std::int64_t outer = out.layout == Layout::row_major ? out.rows : out.cols;
  if (outer == 0 || out.ld == 0) return;
  BSRFLOW_CUDA(cudaMemsetAsync(out.data, 0, static_cast<std::size_t>(outer * out.ld) * sizeof(T), stream));
  if (A.block_rows() == 0 || A.nnzb == 0) return;
  densify_bsr_kernel<T><<<A.block_rows(), kThreads, 0, stream>>>(A, out);
  BSRFLOW_CHECK_LAUNCH("densify_bsr_kernel");
}

template void densify_bsr<__half>(BsrView<const __half>, DenseView<__half>, cudaStream_t);
template void densify_bsr<__nv_bfloat16>(BsrView<const __nv_bfloat16>, DenseView<__nv_bfloat16>, cudaStream_t);

}  // namespace bsrflow::bench
