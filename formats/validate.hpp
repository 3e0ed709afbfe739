// Structural validation of sparse matrices, on the host and on the device.
//
// Every check throws Error(Errc::invalid_structure) naming the *first* violation in the user's
// terms, e.g. "block row 17: block column 9 appears after 12". Host and device report the same
// first violation with the same text, so a test (or a user) can run either.
//
// Order of the checks (the first failing one is reported):
//   1. shape:    "negative shape -1 x 4"; BSR: "block shape 0x4 must be positive";
//                BSR with Padding::reject: the message of check_block_shape (padding.hpp)
//   2. nnz:      "negative nnz -3" (views), "nnz 3000000000 exceeds the int32 index limit 2147483647"
//   3. lengths (host and owning types, which know them):
//                "row_ptr has 5 entries, expected rows + 1 = 7"
//                "values has 7 entries, expected nnz = 10"  (BSR: "expected nnzb * R * C = 40")
//      pointers (device views): "row_ptr is null", "col_idx is null but nnz is 5", and
//                "row_ptr points to host memory the GPU cannot access" (unless the system lets
//                the GPU read pageable memory). A view cannot vouch for its arrays' lengths:
//                row_ptr must hold rows + 1 entries and col_idx nnz entries.
//   4. "row_ptr[0] is 3, expected 0"
//   5. "row 17: row_ptr decreases (row_ptr[17] = 9, row_ptr[18] = 5)"   (lowest such row)
//   6. "row_ptr[rows] is 12 but nnz is 10"
//   7. column indices, entry by entry in storage order (= by row, then position in the row);
//      the first entry that breaks either rule is reported, range before order at one entry:
//                "row 17: column 40 out of range [0, 32)"
//                "row 17: column 9 appears after 12"   (unsorted)
//                "row 17: column 9 appears twice"      (duplicate)
// BSR uses the words "block row", "block column", "block rows" and "nnzb":
//   "row_ptr has 5 entries, expected block rows + 1 = 7", "row_ptr[block rows] is 12 but nnzb
//   is 10", "block row 17: block column 40 out of range [0, 32)".
// COO has no row_ptr: shape, nnz, lengths ("col_idx has 3 entries, expected nnz = 4") or
// pointers ("row_idx is null but nnz is 5"), then entry by entry, row before column at one entry:
//                "entry 5: row 9 out of range [0, 8)", "entry 5: column 9 out of range [0, 8)"
//
// Values are never inspected (a BSR's padding entries are not checked for zero here).
// Empty matrices (rows == 0 and/or nnz == 0) are valid; row_ptr still needs rows + 1 entries.
//
// COO duplicate policy: duplicate (row, column) pairs are valid COO. Conversions (coo_to_csr on
// the host and on the GPU) sum them in their order of appearance in the input, accumulating in
// accumulator_t<T> (f32 for the 16-bit types, f64 for f64) and rounding once to T. Explicit
// zeros are kept as entries.
//
// NOTES: the device versions run a few CUB reductions over the index arrays (work proportional
// to rows + nnz), synchronise the stream and read back only the handful of values a message
// needs. They allocate temporary storage stream-ordered and synchronise, so they cannot run
// inside stream capture: on a capturing stream they throw Error(Errc::capture) before doing
// anything. A failing CUDA call throws Error(Errc::cuda).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

#include "bsrflow/core/host_device.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/coo.hpp"
#include "bsrflow/formats/csr.hpp"
#include "bsrflow/formats/padding.hpp"

namespace bsrflow {

namespace detail {

// A CSR or BSR structure as the checks see it: for BSR, `rows`/`cols` are elements and the
// checks run on block rows/columns. A length of -1 means "not known" (views).
struct CompressedDesc {
  bool blocked = false;  // BSR: block words in messages, R x C checked
  int rows = 0;
  int cols = 0;
  int R = 1;
  int C = 1;
  Padding padding = Padding::zero_fill;  // BSR only
  std::int64_t nnz = 0;                  // nnz (CSR) or nnzb (BSR)
  const int* row_ptr = nullptr;
  const int* col_idx = nullptr;
  std::int64_t row_ptr_length = -1;
  std::int64_t values_length = -1;
};

struct CooDesc {
  int rows = 0;
  int cols = 0;
  std::int64_t nnz = 0;  // entries, = row_idx length
  const int* row_idx = nullptr;
  const int* col_idx = nullptr;
  std::int64_t col_idx_length = -1;
  std::int64_t values_length = -1;
};

void validate_host(const CompressedDesc& d);
void validate_host(const CooDesc& d);
void validate_device(const CompressedDesc& d, cudaStream_t stream);
void validate_device(const CooDesc& d, cudaStream_t stream);

// Shared by the host and device paths so that both report with one text (validate.cpp).
// Checks 1-3 (everything that needs no index array read):
void check_header(const CompressedDesc& d);
void check_header(const CooDesc& d);
// Rows / columns the index arrays count: block rows / block columns for BSR.
std::int64_t index_rows(const CompressedDesc& d);
std::int64_t index_cols(const CompressedDesc& d);
[[noreturn]] void fail_row_ptr_first(const CompressedDesc& d, int value);
[[noreturn]] void fail_row_ptr_decreases(const CompressedDesc& d, std::int64_t row, int value, int next);
[[noreturn]] void fail_row_ptr_last(const CompressedDesc& d, int value);
// Entry `col` of row `row` broke check 7; `prev` is the entry before it in the row (ignored
// when `first_in_row`).
[[noreturn]] void fail_column(const CompressedDesc& d, std::int64_t row, int col, int prev, bool first_in_row);
[[noreturn]] void fail_coo_entry(const CooDesc& d, std::int64_t entry, int row, int col);

// Check 7 for one entry (the same predicate on host and device).
BSRFLOW_HD inline bool column_ok(int col, std::int64_t ncols, bool first_in_row, int prev) {
  return col >= 0 && col < ncols && (first_in_row || col > prev);
}
BSRFLOW_HD inline bool coo_entry_ok(int row, int col, int rows, int cols) {
  return row >= 0 && row < rows && col >= 0 && col < cols;
}

inline std::int64_t length_of(std::size_t n) { return static_cast<std::int64_t>(n); }

}  // namespace detail

// ---- Host --------------------------------------------------------------------------------

template <class T>
void validate(const HostCsr<T>& csr) {
  detail::validate_host(detail::CompressedDesc{false, csr.rows, csr.cols, 1, 1, Padding::zero_fill, csr.nnz(),
                                               csr.row_ptr.data(), csr.col_idx.data(),
                                               detail::length_of(csr.row_ptr.size()),
                                               detail::length_of(csr.values.size())});
}

// A BSR's shape need not be a multiple of its block shape (the last block row/column is then
// partial, see bsr.hpp); pass Padding::reject to require that it is.
template <class T>
void validate(const HostBsr<T>& bsr, Padding padding = Padding::zero_fill) {
  detail::validate_host(detail::CompressedDesc{true, bsr.rows, bsr.cols, bsr.R, bsr.C, padding, bsr.nnzb(),
                                               bsr.row_ptr.data(), bsr.col_idx.data(),
                                               detail::length_of(bsr.row_ptr.size()),
                                               detail::length_of(bsr.values.size())});
}

// COO: row_idx, col_idx and values have one entry each per nonzero; duplicates are allowed
// (see the duplicate policy above).
template <class T>
void validate(const HostCoo<T>& coo) {
  detail::validate_host(detail::CooDesc{coo.rows, coo.cols, coo.nnz(), coo.row_idx.data(), coo.col_idx.data(),
                                        detail::length_of(coo.col_idx.size()),
                                        detail::length_of(coo.values.size())});
}

// ---- Device ------------------------------------------------------------------------------
// Views: the index arrays live in device (or device-accessible) memory; values are not looked
// at and may be null. Synchronises `stream`.

template <class T>
void validate(CsrView<const T> csr, cudaStream_t stream) {
  detail::validate_device(
      detail::CompressedDesc{false, csr.rows, csr.cols, 1, 1, Padding::zero_fill, csr.nnz, csr.row_ptr, csr.col_idx},
      stream);
}

template <class T>
void validate(BsrView<const T> bsr, Padding padding, cudaStream_t stream) {
  detail::validate_device(
      detail::CompressedDesc{true, bsr.rows, bsr.cols, bsr.R, bsr.C, padding, bsr.nnzb, bsr.row_ptr, bsr.col_idx},
      stream);
}
template <class T>
void validate(BsrView<const T> bsr, cudaStream_t stream) {
  validate(bsr, Padding::zero_fill, stream);
}

template <class T>
void validate(CooView<const T> coo, cudaStream_t stream) {
  detail::validate_device(detail::CooDesc{coo.rows, coo.cols, coo.nnz, coo.row_idx, coo.col_idx}, stream);
}

// The same for views of mutable values (what Csr<T>::view() gives on a non-const matrix).
template <class T>
  requires(!std::is_const_v<T>)
void validate(CsrView<T> csr, cudaStream_t stream) {
  validate(CsrView<const T>{csr.rows, csr.cols, csr.nnz, csr.row_ptr, csr.col_idx, csr.values}, stream);
}
template <class T>
  requires(!std::is_const_v<T>)
void validate(BsrView<T> bsr, Padding padding, cudaStream_t stream) {
  validate(BsrView<const T>{bsr.rows, bsr.cols, bsr.R, bsr.C, bsr.nnzb, bsr.row_ptr, bsr.col_idx, bsr.values}, padding,
           stream);
}
template <class T>
  requires(!std::is_const_v<T>)
void validate(BsrView<T> bsr, cudaStream_t stream) {
  validate(bsr, Padding::zero_fill, stream);
}
template <class T>
  requires(!std::is_const_v<T>)
void validate(CooView<T> coo, cudaStream_t stream) {
  validate(CooView<const T>{coo.rows, coo.cols, coo.nnz, coo.row_idx, coo.col_idx, coo.values}, stream);
}

// Owning types: additionally check the buffers' lengths (row_ptr, values).

template <class T>
void validate(const Csr<T>& csr, cudaStream_t stream) {
  const CsrView<const T> v = csr.view();
  detail::validate_device(detail::CompressedDesc{false, v.rows, v.cols, 1, 1, Padding::zero_fill, v.nnz, v.row_ptr,
                                                 v.col_idx, detail::length_of(csr.row_ptr().size()),
                                                 detail::length_of(csr.values().size())},
                          stream);
}

template <class T>
void validate(const Bsr<T>& bsr, Padding padding, cudaStream_t stream) {
  const BsrView<const T> v = bsr.view();
  detail::validate_device(detail::CompressedDesc{true, v.rows, v.cols, v.R, v.C, padding, v.nnzb, v.row_ptr,
                                                 v.col_idx, detail::length_of(bsr.row_ptr().size()),
                                                 detail::length_of(bsr.values().size())},
                          stream);
}
template <class T>
void validate(const Bsr<T>& bsr, cudaStream_t stream) {
  validate(bsr, Padding::zero_fill, stream);
}

template <class T>
void validate(const Coo<T>& coo, cudaStream_t stream) {
  const CooView<const T> v = coo.view();
  detail::validate_device(detail::CooDesc{v.rows, v.cols, v.nnz, v.row_idx, v.col_idx,
                                          detail::length_of(coo.col_idx().size()),
                                          detail::length_of(coo.values().size())},
                          stream);
}

}  // namespace bsrflow
