// Device check of a compressed pattern (row_ptr + col_idx) for the symbolic phases that take a
// BSR input, and the host side that turns a PatternStatus into an Error.
#include <climits>
#include <string>

#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/detail_pattern_status.cuh"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/detail_primitives.cuh"
#include "bsrflow/formats/padding.hpp"
#include "bsrflow/formats/validate.hpp"

namespace bsrflow::detail {

namespace {

// A group of `group` lanes (a power of two <= 32) per row, striding over the row's entries:
// group ~ average row length keeps short rows from idling a warp and long rows from being
// walked by one thread.
__global__ void check_pattern_kernel(int rows, int cols, std::int64_t nnz, const int* __restrict__ row_ptr,
                                     const int* __restrict__ col_idx, PatternStatus* status, int group) {
  const std::int64_t thread = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t groups = static_cast<std::int64_t>(gridDim.x) * blockDim.x / group;
  const int lane = static_cast<int>(thread & (group - 1));
  for (std::int64_t r = thread / group; r < rows; r += groups) {
    const int lo = row_ptr[r];
    const int hi = row_ptr[r + 1];
    const bool bad = (r == 0 && lo != 0) || (r == rows - 1 && hi != nnz) || lo < 0 || hi < lo || hi > nnz;
    if (bad) {
      if (lane == 0) note_bad_row(&status->bad_row_ptr, static_cast<int>(r));
      continue;  // the entries of a row with broken bounds are not this row's to check
    }
    for (int e = lo + lane; e < hi; e += group) {
      const int c = col_idx[e];
      if (c < 0 || c >= cols) note_bad_row(&status->bad_col_range, static_cast<int>(r));
      else if (e > lo && c <= col_idx[e - 1]) note_bad_row(&status->bad_col_order, static_cast<int>(r));
    }
  }
}

}  // namespace

void launch_check_pattern(int rows, int cols, std::int64_t nnz, const int* row_ptr, const int* col_idx,
                          PatternStatus* status, cudaStream_t stream) {
  if (rows <= 0) return;
  const std::int64_t average = nnz / rows;
  int group = 1;
  while (group < 32 && group < average) group *= 2;
  const std::int64_t threads = static_cast<std::int64_t>(rows) * group;
  check_pattern_kernel<<<elementwise_grid(threads), kElementwiseThreads, 0, stream>>>(rows, cols, nnz, row_ptr,
                                                                                       col_idx, status, group);
  BSRFLOW_CHECK_LAUNCH("check_pattern_kernel");
}

void throw_if_bad_pattern(const PatternStatus& status, const char* operation, const CompressedDesc& desc,
                          cudaStream_t stream) {
  unsigned row = status.bad_row_ptr;
  if (row == UINT_MAX) row = status.bad_col_range < status.bad_col_order ? status.bad_col_range : status.bad_col_order;
  if (row == UINT_MAX) return;
  // Error path: let the validator find and word the first violation.
  validate_device(desc, stream);
  // Unreachable unless the two checks disagree; still say where the problem is.
  BSRFLOW_FAIL(Errc::invalid_structure, std::string(operation) + ": the input pattern is invalid at " +
                                            (desc.blocked ? "block row " : "row ") + std::to_string(row));
}

void require_device_pointer(const void* pointer, const char* operation, const char* name) {
  if (pointer == nullptr) return;
  cudaPointerAttributes attributes{};
  BSRFLOW_CUDA(cudaPointerGetAttributes(&attributes, pointer));
  if (attributes.type != cudaMemoryTypeUnregistered) return;
  // Systems where the GPU reads pageable memory (HMM, ATS) accept any pointer.
  int device = 0, pageable = 0;
  BSRFLOW_CUDA(cudaGetDevice(&device));
  BSRFLOW_CUDA(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device));
  BSRFLOW_REQUIRE(pageable != 0, Errc::invalid_argument,
                  std::string(operation) + ": " + name + " points to host memory the GPU cannot access");
}

void check_bsr_input(const char* operation, int rows, int cols, int R, int C, std::int64_t nnzb,
                     const int* row_ptr, const int* col_idx) {
  const std::string op(operation);
  check_block_shape(rows, cols, R, C, Padding::zero_fill);
  BSRFLOW_REQUIRE(static_cast<std::int64_t>(R) * C <= (1 << 30), Errc::unsupported,
                  op + ": a " + std::to_string(R) + "x" + std::to_string(C) + " block exceeds 2^30 values");
  BSRFLOW_REQUIRE(nnzb >= 0 && nnzb <= INT_MAX, Errc::invalid_argument,
                  op + ": nnzb (" + std::to_string(nnzb) + ") must be in [0, 2^31)");
  const int block_rows = ceil_div(rows, R);
  BSRFLOW_REQUIRE(block_rows > 0 || nnzb == 0, Errc::invalid_argument,
                  op + ": a BSR matrix with 0 block rows has nnzb = " + std::to_string(nnzb));
  BSRFLOW_REQUIRE(block_rows == 0 || row_ptr != nullptr, Errc::invalid_argument, op + ": bsr.row_ptr is null");
  BSRFLOW_REQUIRE(nnzb == 0 || col_idx != nullptr, Errc::invalid_argument,
                  op + ": bsr.col_idx is null but nnzb is " + std::to_string(nnzb));
  if (block_rows > 0) require_device_pointer(row_ptr, operation, "bsr.row_ptr");
  if (nnzb > 0) require_device_pointer(col_idx, operation, "bsr.col_idx");
}

}  // namespace bsrflow::detail
