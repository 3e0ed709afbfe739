// BSR -> CSR on the GPU (see bsr_to_csr.hpp for the contract).
//
// Symbolic phase (T-independent): pattern check + per-block-row widths, a scan for the CSR
// offset of each block row, one synchronisation (validation result and entry count), then
// row_ptr, the per-block placements and the column indices.
// Numeric phase: one pass over the BSR values, each in-range value copied to its CSR slot;
// reads nnzb * (R * C * sizeof(T) + 16) bytes, writes nnz * sizeof(T).
#include "bsrflow/formats/bsr_to_csr.hpp"

#include <climits>
#include <string>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/detail_bsr_to_csr_kernels.cuh"
#include "bsrflow/formats/detail_pattern_status.cuh"
#include "bsrflow/formats/detail_primitives.cuh"
#include "bsrflow/formats/padding.hpp"
#include "bsrflow/formats/validate.hpp"

namespace bsrflow {
namespace {

struct BsrToCsrStructure {
  DeviceBuffer<int> row_ptr;    // rows + 1
  DeviceBuffer<int> col_idx;    // nnz
  DeviceBuffer<int> placement;  // 4 * nnzb
};

BsrToCsrStructure bsr_to_csr_symbolic(int rows, int cols, int R, int C, std::int64_t nnzb, const int* row_ptr,
                                      const int* col_idx, cudaStream_t stream) {
  // ---- arguments (nothing launched yet) ----
  detail::check_bsr_input("bsr_to_csr", rows, cols, R, C, nnzb, row_ptr, col_idx);
  const int block_rows = ceil_div(rows, R);
  const int block_cols = ceil_div(cols, C);

  BsrToCsrStructure s;
  s.row_ptr = DeviceBuffer<int>(static_cast<std::size_t>(rows) + 1, stream);
  if (block_rows == 0) {
    s.row_ptr.fill_bytes(0, stream);
    return s;
  }

  // ---- check, widths, scan ----
  DeviceBuffer<detail::PatternStatus> status(1, stream);
  status.fill_bytes(0xFF, stream);
  detail::launch_check_pattern(block_rows, block_cols, nnzb, row_ptr, col_idx, status.data(), stream);
  DeviceBuffer<int> width(static_cast<std::size_t>(block_rows), stream);
  DeviceBuffer<int> entries(static_cast<std::size_t>(block_rows) + 1, stream);
  DeviceBuffer<int> entry_offset(static_cast<std::size_t>(block_rows) + 1, stream);
  DeviceBuffer<unsigned long long> total(1, stream);
  BSRFLOW_CUDA(cudaMemsetAsync(entries.data() + block_rows, 0, sizeof(int), stream));
  total.fill_bytes(0, stream);
  const unsigned row_grid = static_cast<unsigned>((block_rows + 255) / 256);
  detail::bsr_to_csr_widths_kernel<<<row_grid, 256, 0, stream>>>(block_rows, rows, cols, R, C, nnzb, row_ptr, col_idx,
                                                                 width.data(), entries.data(), total.data());
  BSRFLOW_CHECK_LAUNCH("bsr_to_csr_widths_kernel");
  detail::exclusive_sum(entries.data(), entry_offset.data(), static_cast<std::int64_t>(block_rows) + 1, stream);

  // ---- the one synchronisation ----
  detail::PatternStatus st;
  unsigned long long nnz = 0;
  detail::copy_to_host_async(&st, status.data(), 1, stream);
  detail::copy_to_host_async(&nnz, total.data(), 1, stream);
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));
  detail::throw_if_bad_pattern(
      st, "bsr_to_csr", detail::CompressedDesc{true, rows, cols, R, C, Padding::zero_fill, nnzb, row_ptr, col_idx},
      stream);
  BSRFLOW_REQUIRE(nnz <= static_cast<unsigned long long>(INT_MAX), Errc::invalid_argument,
                  "bsr_to_csr: the CSR would have more than 2^31 - 1 entries (int32 indices)");

  // ---- row_ptr, placements, columns ----
  s.col_idx = DeviceBuffer<int>(static_cast<std::size_t>(nnz), stream);
  s.placement = DeviceBuffer<int>(static_cast<std::size_t>(4 * nnzb), stream);
  detail::bsr_to_csr_rows_kernel<<<row_grid, 256, 0, stream>>>(block_rows, rows, R, entry_offset.data(), width.data(),
                                                               s.row_ptr.data(), static_cast<int>(nnz));
  BSRFLOW_CHECK_LAUNCH("bsr_to_csr_rows_kernel");
  if (nnzb > 0) {
    auto* placement = reinterpret_cast<int4*>(s.placement.data());
    detail::bsr_to_csr_placement_kernel<<<detail::elementwise_grid(nnzb), detail::kElementwiseThreads, 0, stream>>>(
        nnzb, block_rows, rows, cols, R, C, row_ptr, col_idx, entry_offset.data(), width.data(), placement);
    BSRFLOW_CHECK_LAUNCH("bsr_to_csr_placement_kernel");
    const detail::BlockChunks chunks(R, C);
    detail::bsr_to_csr_columns_kernel<<<chunks.grid(nnzb), detail::BlockChunks::kThreads, 0, stream>>>(
        chunks, nnzb, placement, col_idx, s.col_idx.data());
    BSRFLOW_CHECK_LAUNCH("bsr_to_csr_columns_kernel");
  }
  return s;
}

}  // namespace

template <class T>
BsrToCsr<T>::BsrToCsr(BsrView<const T> bsr, cudaStream_t stream) {
  BsrToCsrStructure s = bsr_to_csr_symbolic(bsr.rows, bsr.cols, bsr.R, bsr.C, bsr.nnzb, bsr.row_ptr, bsr.col_idx, stream);
  R_ = bsr.R;
  C_ = bsr.C;
  nnzb_ = bsr.nnzb;
  const std::size_t nnz = s.col_idx.size();
  csr_nnz_ = static_cast<std::int64_t>(nnz);
  out_ = Csr<T>(bsr.rows, bsr.cols, std::move(s.row_ptr), std::move(s.col_idx), DeviceBuffer<T>(nnz, stream));
  placement_ = std::move(s.placement);
}

template <class T>
void BsrToCsr<T>::numeric(const T* bsr_values, T* csr_values, cudaStream_t stream) const {
  BSRFLOW_REQUIRE(nnzb_ == 0 || bsr_values != nullptr, Errc::invalid_argument,
                  "BsrToCsr::numeric: bsr_values is null but the pattern has " + std::to_string(nnzb_) + " blocks");
  const std::int64_t nnz = csr_nnz_;
  BSRFLOW_REQUIRE(nnz == 0 || csr_values != nullptr, Errc::invalid_argument,
                  "BsrToCsr::numeric: csr_values is null but the output has " + std::to_string(nnz) +
                      " entries (were output().values() moved out?)");
  if (nnzb_ == 0) return;
  const detail::BlockChunks chunks(R_, C_);
  detail::bsr_to_csr_numeric_kernel<T><<<chunks.grid(nnzb_), detail::BlockChunks::kThreads, 0, stream>>>(
      chunks, nnzb_, reinterpret_cast<const int4*>(placement_.data()), bsr_values, csr_values);
  BSRFLOW_CHECK_LAUNCH("bsr_to_csr_numeric_kernel");
}

template class BsrToCsr<__half>;
template class BsrToCsr<__nv_bfloat16>;
template class BsrToCsr<float>;
template class BsrToCsr<double>;

}  // namespace bsrflow
