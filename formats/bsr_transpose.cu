// BSR transpose on the GPU (see bsr_transpose.hpp for the contract).
//
// Symbolic phase (T-independent): pattern check, a stable radix sort of (block column, block
// index) over just the bits block_cols needs, one synchronisation for the check's result, then
// the new col_idx (source block rows) and row_ptr (binary search over the sorted block columns).
// Numeric phase: one pass over the output values, each gathering the transposed input value of
// its source block; reads nnzb * (R * C * sizeof(T) + 4) bytes, writes nnzb * R * C * sizeof(T).
#include "bsrflow/formats/bsr_transpose.hpp"

#include <climits>
#include <string>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/detail_bsr_transpose_kernels.cuh"
#include "bsrflow/formats/detail_pattern_status.cuh"
#include "bsrflow/formats/detail_primitives.cuh"
#include "bsrflow/formats/padding.hpp"
#include "bsrflow/formats/validate.hpp"

namespace bsrflow {
namespace {

struct TransposeStructure {
  DeviceBuffer<int> row_ptr;  // in block_cols + 1
  DeviceBuffer<int> col_idx;  // nnzb
  DeviceBuffer<int> source;   // nnzb
};

TransposeStructure bsr_transpose_symbolic(int rows, int cols, int R, int C, std::int64_t nnzb, const int* row_ptr,
                                          const int* col_idx, cudaStream_t stream) {
  // ---- arguments (nothing launched yet) ----
  detail::check_bsr_input("bsr_transpose", rows, cols, R, C, nnzb, row_ptr, col_idx);
  const int block_rows = ceil_div(rows, R);
  const int block_cols = ceil_div(cols, C);

  TransposeStructure s;
  s.row_ptr = DeviceBuffer<int>(static_cast<std::size_t>(block_cols) + 1, stream);
  if (block_rows == 0) {
    s.row_ptr.fill_bytes(0, stream);
    return s;
  }

  // ---- check, sort ----
  DeviceBuffer<detail::PatternStatus> status(1, stream);
  status.fill_bytes(0xFF, stream);
  detail::launch_check_pattern(block_rows, block_cols, nnzb, row_ptr, col_idx, status.data(), stream);
  DeviceBuffer<std::uint64_t> keys(static_cast<std::size_t>(nnzb), stream);
  DeviceBuffer<std::uint64_t> sorted_keys(static_cast<std::size_t>(nnzb), stream);
  DeviceBuffer<int> position(static_cast<std::size_t>(nnzb), stream);
  s.source = DeviceBuffer<int>(static_cast<std::size_t>(nnzb), stream);
  if (nnzb > 0) {
    detail::transpose_keys_kernel<<<detail::elementwise_grid(nnzb), detail::kElementwiseThreads, 0, stream>>>(
        nnzb, block_cols, col_idx, keys.data());
    BSRFLOW_CHECK_LAUNCH("transpose_keys_kernel");
    detail::launch_iota(position.data(), nnzb, stream);
    detail::sort_pairs(keys.data(), sorted_keys.data(), position.data(), s.source.data(), nnzb,
                       detail::bits_for(static_cast<std::uint64_t>(block_cols - 1)), stream);
  }

  // ---- the one synchronisation ----
  detail::PatternStatus st;
  detail::copy_to_host_async(&st, status.data(), 1, stream);
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));
  detail::throw_if_bad_pattern(
      st, "bsr_transpose", detail::CompressedDesc{true, rows, cols, R, C, Padding::zero_fill, nnzb, row_ptr, col_idx},
      stream);

  // ---- transposed structure ----
  s.col_idx = DeviceBuffer<int>(static_cast<std::size_t>(nnzb), stream);
  DeviceBuffer<int> out_block_row(static_cast<std::size_t>(nnzb), stream);
  if (nnzb > 0) {
    detail::transpose_blocks_kernel<<<detail::elementwise_grid(nnzb), detail::kElementwiseThreads, 0, stream>>>(
        nnzb, block_rows, row_ptr, sorted_keys.data(), s.source.data(), s.col_idx.data(), out_block_row.data());
    BSRFLOW_CHECK_LAUNCH("transpose_blocks_kernel");
  }
  detail::launch_offsets_from_sorted(out_block_row.data(), nnzb, s.row_ptr.data(), block_cols, stream);
  return s;
}

}  // namespace

template <class T>
BsrTranspose<T>::BsrTranspose(BsrView<const T> bsr, cudaStream_t stream) {
  TransposeStructure s =
      bsr_transpose_symbolic(bsr.rows, bsr.cols, bsr.R, bsr.C, bsr.nnzb, bsr.row_ptr, bsr.col_idx, stream);
  R_ = bsr.R;
  C_ = bsr.C;
  nnzb_ = bsr.nnzb;
  out_ = Bsr<T>(bsr.cols, bsr.rows, bsr.C, bsr.R, std::move(s.row_ptr), std::move(s.col_idx),
                DeviceBuffer<T>(static_cast<std::size_t>(nnzb_ * R_ * C_), stream));
  source_ = std::move(s.source);
}

template <class T>
void BsrTranspose<T>::numeric(const T* in_values, T* out_values, cudaStream_t stream) const {
  BSRFLOW_REQUIRE(nnzb_ == 0 || in_values != nullptr, Errc::invalid_argument,
                  "BsrTranspose::numeric: in_values is null but the pattern has " + std::to_string(nnzb_) + " blocks");
  BSRFLOW_REQUIRE(nnzb_ == 0 || out_values != nullptr, Errc::invalid_argument,
                  "BsrTranspose::numeric: out_values is null but the output has " + std::to_string(nnzb_) +
                      " blocks (were output().values() moved out?)");
  if (nnzb_ == 0) return;
  const detail::BlockChunks out_chunks(C_, R_);  // output blocks are C x R
  detail::bsr_transpose_numeric_kernel<T><<<out_chunks.grid(nnzb_), detail::BlockChunks::kThreads, 0, stream>>>(
      out_chunks, nnzb_, source_.data(), in_values, out_values);
  BSRFLOW_CHECK_LAUNCH("bsr_transpose_numeric_kernel");
}

template class BsrTranspose<__half>;
template class BsrTranspose<__nv_bfloat16>;
template class BsrTranspose<float>;
template class BsrTranspose<double>;

}  // namespace bsrflow
