// How the symbolic phases report a broken input pattern: kernels note the first offending row
// of each kind in a small device struct (one integer atomicMin each, so the report is the same
// on every run); the host copies it back with the phase's one synchronisation and turns it into
// an Error(invalid_structure) that names the row and the values.
//
// NOTES: structure validity is the caller's job (validate.hpp), but these checks cost a compare
// per entry inside kernels that read every entry anyway, and they are what keeps a garbage
// row_ptr / col_idx from turning into out-of-bounds writes in the numeric phase.
#pragma once

#include <cuda_runtime_api.h>

#include <climits>
#include <cstdint>

#include "bsrflow/formats/validate.hpp"

namespace bsrflow::detail {

// Every slot starts at UINT_MAX ("none": memset the struct with 0xFF); a kernel that finds a
// problem in row r does atomicMin(slot, r).
struct PatternStatus {
  unsigned bad_row_ptr = UINT_MAX;    // row_ptr[0] != 0, decreasing, beyond nnz, or row_ptr[rows] != nnz
  unsigned bad_col_range = UINT_MAX;  // a column index outside [0, cols)
  unsigned bad_col_order = UINT_MAX;  // column indices not strictly increasing within the row
  int max_row_count = -1;             // spare slot some kernels use (atomicMax); -1 from the memset
};
static_assert(sizeof(PatternStatus) == 16, "PatternStatus is memset and copied as 16 bytes");

// Throws Error(invalid_structure) when `status` records a problem, with exactly the message
// validate() gives for that input (it runs the device validator on the error path, so the GPU
// conversions and the CPU oracle, which validates first, report the same first violation).
// `desc` describes the input as validate.hpp sees it. Returns when the status is clean.
void throw_if_bad_pattern(const PatternStatus& status, const char* operation, const CompressedDesc& desc,
                          cudaStream_t stream);

// Throws Error(invalid_argument) "<operation>: <name> points to host memory the GPU cannot
// access" for a pointer a kernel could not dereference (checked once per symbolic phase, so a
// host pointer is an error message instead of a poisoned CUDA context). Null passes.
void require_device_pointer(const void* pointer, const char* operation, const char* name);

// Argument checks every conversion that reads a BSR pattern makes before launching anything:
// block shape, nnzb range, null and host pointers. Errors name `operation` ("bsr_to_csr: ...").
void check_bsr_input(const char* operation, int rows, int cols, int R, int C, std::int64_t nnzb,
                     const int* row_ptr, const int* col_idx);

// Checks a compressed pattern (rows + 1 row offsets, column indices strictly increasing within
// each row and inside [0, cols)) on the device, noting problems in `status` (device memory,
// initialised by the caller). Reads nothing outside row_ptr[0, rows] and col_idx[0, nnz).
void launch_check_pattern(int rows, int cols, std::int64_t nnz, const int* row_ptr, const int* col_idx,
                          PatternStatus* status, cudaStream_t stream);

#if defined(__CUDACC__)
__device__ __forceinline__ void note_bad_row(unsigned* slot, int row) { atomicMin(slot, static_cast<unsigned>(row)); }
#endif

}  // namespace bsrflow::detail
