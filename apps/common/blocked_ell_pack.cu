// One CTA per block row copies that row's blocks into their ELL slots and pads the rest.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <string>

#include "bsrflow/apps/common/blocked_ell_pack.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace {

constexpr int kThreads = 256;

template <class T>
__global__ void pack_blocked_ell_kernel(BsrView<const T> A, int slots, int* __restrict__ ell_col_idx,
                                        T* __restrict__ ell_values) {
  const int block_row = blockIdx.x;
  const int b = A.R;
  const int begin = A.row_ptr[block_row];
  const int length = A.row_ptr[block_row + 1] - begin;
  for (int s = threadIdx.x; s < slots; s += blockDim.x)
    ell_col_idx[static_cast<std::int64_t>(block_row) * slots + s] = s < length ? A.col_idx[begin + s] : -1;

  // NOTES: threads walk the destination in row-major order (slot-major within each row of
  // values), so stores are contiguous runs of b elements; padding slots get zeros.
  const std::int64_t ell_cols = static_cast<std::int64_t>(slots) * b;
  const std::int64_t per_row = ell_cols * b;  // elements of this block row in ell_values
  T* out = ell_values + static_cast<std::int64_t>(block_row) * per_row;
  const T zero = T(0.0f);
  for (std::int64_t e = threadIdx.x; e < per_row; e += blockDim.x) {
    const int r = static_cast<int>(e / ell_cols);          // row inside the block row
    const std::int64_t col = e % ell_cols;
    const int s = static_cast<int>(col / b);                // slot
    const int c = static_cast<int>(col % b);                // column inside the block
    out[e] = s < length ? A.values[(static_cast<std::int64_t>(begin) + s) * b * b + r * b + c] : zero;
  }
}

}  // namespace

template <class T>
void pack_blocked_ell(BsrView<const T> A, int slots, int* ell_col_idx, T* ell_values, cudaStream_t stream) {
  BSRFLOW_REQUIRE(A.R == A.C, Errc::invalid_argument,
                  "Blocked-ELL needs square blocks, got " + std::to_string(A.R) + "x" + std::to_string(A.C));
  BSRFLOW_REQUIRE(A.rows % A.R == 0 && A.cols % A.C == 0, Errc::invalid_argument,
                  "Blocked-ELL needs whole blocks: " + std::to_string(A.rows) + " x " + std::to_string(A.cols) +
                      " is not a multiple of " + std::to_string(A.R));
  BSRFLOW_REQUIRE(slots >= 0, Errc::invalid_argument, "Blocked-ELL slots must not be negative");
  if (A.block_rows() == 0 || slots == 0) return;
  pack_blocked_ell_kernel<T><<<A.block_rows(), kThreads, 0, stream>>>(A, slots, ell_col_idx, ell_values);
  BSRFLOW_CHECK_LAUNCH("pack_blocked_ell_kernel");
}

template void pack_blocked_ell<__half>(BsrView<const __half>, int, int*, __half*, cudaStream_t);
template void pack_blocked_ell<__nv_bfloat16>(BsrView<const __nv_bfloat16>, int, int*, __nv_bfloat16*, cudaStream_t);

}  // namespace bsrflow::bench
