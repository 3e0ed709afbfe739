// Device validation: the checks of validate.hpp as CUB min-reductions over per-position flags
// ("first bad position, or none"), then a read-back of the few values the message needs. The
// message itself is built by the host code in validate.cpp, so both paths say the same thing.
#include "bsrflow/formats/validate.hpp"

#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::detail {

namespace {

// "No violation": the identity of the min-reduction, larger than any position.
constexpr std::int64_t kNone = INT64_MAX;

// ---- Flags: position -> itself when it breaks a rule, kNone otherwise ---------------------

// Check 5 at block row / row r.
struct RowPtrDecreases {
  const int* row_ptr;
  __device__ std::int64_t operator()(std::int64_t r) const { return row_ptr[r + 1] < row_ptr[r] ? r : kNone; }
};

// The row holding entry k: the last r with row_ptr[r] <= k. Needs checks 4-6 to have passed
// (row_ptr monotone from 0 to nnz > k), which keeps row_ptr[lo] <= k < row_ptr[hi].
__device__ std::int64_t row_of(const int* row_ptr, std::int64_t rows, std::int64_t k) {
  std::int64_t lo = 0, hi = rows;
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (row_ptr[mid] <= k) lo = mid; else hi = mid;
  }
  return lo;
}

// Check 7 at entry k.
struct ColumnBreaks {
  const int* row_ptr;
  const int* col_idx;
  std::int64_t rows;
  std::int64_t ncols;
  __device__ std::int64_t operator()(std::int64_t k) const {
    const int col = col_idx[k];
    const int prev = k > 0 ? col_idx[k - 1] : 0;
    // NOTES: nearly every valid entry is in range and above its predecessor in storage, which
    // is enough whether or not it starts a row; only the others pay for the binary search
    // that tells a row start (where any in-range column is fine) from a real violation.
    if (col >= 0 && col < ncols && (k == 0 || col > prev)) return kNone;
    const bool first_in_row = k == 0 || row_ptr[row_of(row_ptr, rows, k)] == k;
    return column_ok(col, ncols, first_in_row, prev) ? kNone : k;
  }
};

struct CooBreaks {
  const int* row_idx;
  const int* col_idx;
  int rows;
  int cols;
  __device__ std::int64_t operator()(std::int64_t k) const {
    return coo_entry_ok(row_idx[k], col_idx[k], rows, cols) ? kNone : k;
  }
};

// What the message for a broken entry needs.
struct EntryReport {
  std::int64_t row;
  int col;
  int prev;
  int first_in_row;
};

__global__ void describe_entry(const int* row_ptr, std::int64_t rows, const int* col_idx, std::int64_t k,
                               EntryReport* out) {
  const std::int64_t r = row_of(row_ptr, rows, k);
  const bool first = row_ptr[r] == k;
  *out = EntryReport{r, col_idx[k], first ? 0 : col_idx[k - 1], first ? 1 : 0};
}

// ---- Host side ---------------------------------------------------------------------------

// Lowest position in [0, n) that `flag` marks, or kNone. Synchronises `stream`.
template <class Flag>
std::int64_t first_violation(Flag flag, std::int64_t n, cudaStream_t stream) {
  if (n <= 0) return kNone;
  const auto flags = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), flag);
  DeviceBuffer<std::int64_t> result(1, stream);
  std::size_t temp_bytes = 0;
  BSRFLOW_CUDA(cub::DeviceReduce::Min(nullptr, temp_bytes, flags, result.data(), n, stream));
  DeviceBuffer<std::byte> temp(std::max<std::size_t>(temp_bytes, 1), stream);
  BSRFLOW_CUDA(cub::DeviceReduce::Min(temp.data(), temp_bytes, flags, result.data(), n, stream));
  return result.to_host(stream)[0];
}

// One int of device memory (synchronises `stream`).
int read_int(const int* p, std::int64_t i, cudaStream_t stream) {
  int v = 0;
  BSRFLOW_CUDA(cudaMemcpyAsync(&v, p + i, sizeof(int), cudaMemcpyDeviceToHost, stream));
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));
  return v;
}

// A kernel reading plain host memory would fault and poison the context; say so instead.
// Systems where the GPU reads pageable memory (HMM, ATS) accept any pointer.
void require_device_readable(const void* p, const char* name) {
  cudaPointerAttributes attr{};
  BSRFLOW_CUDA(cudaPointerGetAttributes(&attr, p));
  if (attr.type != cudaMemoryTypeUnregistered) return;
  int device = 0, pageable = 0;
  BSRFLOW_CUDA(cudaGetDevice(&device));
  BSRFLOW_CUDA(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device));
  if (pageable == 0)
    BSRFLOW_FAIL(Errc::invalid_structure, std::string(name) + " points to host memory the GPU cannot access");
}

void require_array(const int* p, const char* name, std::int64_t nnz, bool always) {
  if (p == nullptr) {
    if (always) BSRFLOW_FAIL(Errc::invalid_structure, std::string(name) + " is null");
    if (nnz > 0)
      BSRFLOW_FAIL(Errc::invalid_structure, std::string(name) + " is null but nnz is " + std::to_string(nnz));
    return;
  }
  if (always || nnz > 0) require_device_readable(p, name);
}

// Validation synchronises; inside stream capture that would invalidate the capture.
void require_not_capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  BSRFLOW_CUDA(cudaStreamIsCapturing(stream, &status));
  if (status != cudaStreamCaptureStatusNone)
    BSRFLOW_FAIL(Errc::capture, "validate synchronises its stream and cannot run during stream capture");
}

}  // namespace

void validate_device(const CompressedDesc& d, cudaStream_t stream) {
  require_not_capturing(stream);
  check_header(d);  // 1-3
  const std::int64_t rows = index_rows(d);
  require_array(d.row_ptr, "row_ptr", d.nnz, true);
  require_array(d.col_idx, "col_idx", d.nnz, false);

  // 4
  const int first = read_int(d.row_ptr, 0, stream);
  if (first != 0) fail_row_ptr_first(d, first);
  // 5
  const std::int64_t r = first_violation(RowPtrDecreases{d.row_ptr}, rows, stream);
  if (r != kNone) fail_row_ptr_decreases(d, r, read_int(d.row_ptr, r, stream), read_int(d.row_ptr, r + 1, stream));
  // 6
  const int last = read_int(d.row_ptr, rows, stream);
  if (last != d.nnz) fail_row_ptr_last(d, last);
  // 7
  const std::int64_t k = first_violation(ColumnBreaks{d.row_ptr, d.col_idx, rows, index_cols(d)}, d.nnz, stream);
  if (k == kNone) return;
  DeviceBuffer<EntryReport> report(1, stream);
  describe_entry<<<1, 1, 0, stream>>>(d.row_ptr, rows, d.col_idx, k, report.data());
  BSRFLOW_CHECK_LAUNCH("describe_entry");
  const EntryReport e = report.to_host(stream)[0];
  fail_column(d, e.row, e.col, e.prev, e.first_in_row != 0);
}

void validate_device(const CooDesc& d, cudaStream_t stream) {
  require_not_capturing(stream);
  check_header(d);
  require_array(d.row_idx, "row_idx", d.nnz, false);
  require_array(d.col_idx, "col_idx", d.nnz, false);
  const std::int64_t k = first_violation(CooBreaks{d.row_idx, d.col_idx, d.rows, d.cols}, d.nnz, stream);
  if (k == kNone) return;
  fail_coo_entry(d, k, read_int(d.row_idx, k, stream), read_int(d.col_idx, k, stream));
}

}  // namespace bsrflow::detail
