// COO -> CSR on the GPU (see coo_to_csr.hpp for the contract).
//
// Symbolic phase (T-independent): 64-bit keys row * cols + col, a stable radix sort of
// (key, position) over just the bits rows * cols needs, run heads + scan = one CSR entry per
// distinct key, then row_ptr by a binary search per row. One synchronisation (for the entry
// count and the validation result).
// Numeric phase: one thread per CSR entry gathers its run of COO values through the sorted
// positions and sums them in input order; reads nnz * (sizeof(T) + 4) + out_nnz * 4 bytes,
// writes out_nnz * sizeof(T).
#include "bsrflow/formats/coo_to_csr.hpp"

#include <climits>
#include <string>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/detail_coo_to_csr_kernels.cuh"
#include "bsrflow/formats/detail_pattern_status.cuh"
#include "bsrflow/formats/detail_primitives.cuh"
#include "bsrflow/formats/validate.hpp"

namespace bsrflow {
namespace {

struct CooToCsrStructure {
  DeviceBuffer<int> row_ptr;  // rows + 1
  DeviceBuffer<int> col_idx;  // out nnz
  DeviceBuffer<int> order;    // in nnz
  DeviceBuffer<int> segment;  // out nnz + 1
};

CooToCsrStructure coo_to_csr_symbolic(int rows, int cols, std::int64_t nnz, const int* row_idx, const int* col_idx,
                                      cudaStream_t stream) {
  // ---- arguments (nothing launched yet) ----
  BSRFLOW_REQUIRE(rows >= 0 && cols >= 0, Errc::invalid_argument,
                  "coo_to_csr: matrix shape " + std::to_string(rows) + "x" + std::to_string(cols) + " is negative");
  BSRFLOW_REQUIRE(nnz >= 0 && nnz <= INT_MAX, Errc::invalid_argument,
                  "coo_to_csr: nnz (" + std::to_string(nnz) + ") must be in [0, 2^31)");
  BSRFLOW_REQUIRE(nnz == 0 || (row_idx != nullptr && col_idx != nullptr), Errc::invalid_argument,
                  "coo_to_csr: coo.row_idx or coo.col_idx is null but nnz is " + std::to_string(nnz));
  if (nnz > 0) detail::require_device_pointer(row_idx, "coo_to_csr", "coo.row_idx");
  if (nnz > 0) detail::require_device_pointer(col_idx, "coo_to_csr", "coo.col_idx");

  CooToCsrStructure s;
  s.row_ptr = DeviceBuffer<int>(static_cast<std::size_t>(rows) + 1, stream);
  s.segment = DeviceBuffer<int>(static_cast<std::size_t>(nnz) + 1, stream);  // trimmed below
  if (nnz == 0) {
    s.row_ptr.fill_bytes(0, stream);
    s.segment.fill_bytes(0, stream);
    return s;
  }

  // ---- keys, stable sort, runs ----
  DeviceBuffer<unsigned> first_bad(1, stream);
  first_bad.fill_bytes(0xFF, stream);
  DeviceBuffer<std::uint64_t> keys(static_cast<std::size_t>(nnz), stream);
  DeviceBuffer<std::uint64_t> sorted_keys(static_cast<std::size_t>(nnz), stream);
  DeviceBuffer<int> position(static_cast<std::size_t>(nnz), stream);
  s.order = DeviceBuffer<int>(static_cast<std::size_t>(nnz), stream);
  const unsigned grid = detail::elementwise_grid(nnz);
  detail::coo_keys_kernel<<<grid, detail::kElementwiseThreads, 0, stream>>>(nnz, rows, cols, row_idx, col_idx,
                                                                             keys.data(), first_bad.data());
  BSRFLOW_CHECK_LAUNCH("coo_keys_kernel");
  detail::launch_iota(position.data(), nnz, stream);
  const std::uint64_t cells = static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(cols);
  detail::sort_pairs(keys.data(), sorted_keys.data(), position.data(), s.order.data(), nnz,
                     detail::bits_for(cells > 0 ? cells - 1 : 0), stream);
  DeviceBuffer<int> head(static_cast<std::size_t>(nnz) + 1, stream);
  DeviceBuffer<int> run_of(static_cast<std::size_t>(nnz) + 1, stream);
  detail::coo_run_heads_kernel<<<detail::elementwise_grid(nnz + 1), detail::kElementwiseThreads, 0, stream>>>(
      nnz, sorted_keys.data(), head.data());
  BSRFLOW_CHECK_LAUNCH("coo_run_heads_kernel");
  detail::exclusive_sum(head.data(), run_of.data(), nnz + 1, stream);

  // ---- the one synchronisation ----
  unsigned bad_entry = 0;
  int out_nnz = 0;
  detail::copy_to_host_async(&bad_entry, first_bad.data(), 1, stream);
  detail::copy_to_host_async(&out_nnz, run_of.data() + nnz, 1, stream);
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));
  if (bad_entry != UINT_MAX) {
    detail::validate_device(detail::CooDesc{rows, cols, nnz, row_idx, col_idx}, stream);  // throws its message
    BSRFLOW_FAIL(Errc::invalid_structure, "coo_to_csr: entry " + std::to_string(bad_entry) + " is outside the shape");
  }

  // ---- one CSR entry per run, then row_ptr ----
  s.col_idx = DeviceBuffer<int>(static_cast<std::size_t>(out_nnz), stream);
  s.segment = DeviceBuffer<int>(static_cast<std::size_t>(out_nnz) + 1, stream);
  DeviceBuffer<int> run_row(static_cast<std::size_t>(out_nnz), stream);
  detail::coo_runs_kernel<<<grid, detail::kElementwiseThreads, 0, stream>>>(
      nnz, cols, sorted_keys.data(), head.data(), run_of.data(), s.col_idx.data(), run_row.data(), s.segment.data());
  BSRFLOW_CHECK_LAUNCH("coo_runs_kernel");
  detail::launch_offsets_from_sorted(run_row.data(), out_nnz, s.row_ptr.data(), rows, stream);
  return s;
}

}  // namespace

template <class T>
CooToCsr<T>::CooToCsr(CooView<const T> coo, cudaStream_t stream) {
  CooToCsrStructure s = coo_to_csr_symbolic(coo.rows, coo.cols, coo.nnz, coo.row_idx, coo.col_idx, stream);
  in_nnz_ = coo.nnz;
  out_nnz_ = static_cast<std::int64_t>(s.col_idx.size());
  out_ = Csr<T>(coo.rows, coo.cols, std::move(s.row_ptr), std::move(s.col_idx),
                DeviceBuffer<T>(static_cast<std::size_t>(out_nnz_), stream));
  order_ = std::move(s.order);
  segment_ = std::move(s.segment);
}

template <class T>
void CooToCsr<T>::numeric(const T* coo_values, T* csr_values, cudaStream_t stream) const {
  BSRFLOW_REQUIRE(in_nnz_ == 0 || coo_values != nullptr, Errc::invalid_argument,
                  "CooToCsr::numeric: coo_values is null but the pattern has " + std::to_string(in_nnz_) + " entries");
  BSRFLOW_REQUIRE(out_nnz_ == 0 || csr_values != nullptr, Errc::invalid_argument,
                  "CooToCsr::numeric: csr_values is null but the output has " + std::to_string(out_nnz_) +
                      " entries (were output().values() moved out?)");
  if (out_nnz_ == 0) return;
  detail::coo_to_csr_numeric_kernel<T><<<detail::elementwise_grid(out_nnz_), detail::kElementwiseThreads, 0, stream>>>(
      out_nnz_, coo_values, order_.data(), segment_.data(), csr_values);
  BSRFLOW_CHECK_LAUNCH("coo_to_csr_numeric_kernel");
}

template class CooToCsr<__half>;
template class CooToCsr<__nv_bfloat16>;
template class CooToCsr<float>;
template class CooToCsr<double>;

}  // namespace bsrflow
