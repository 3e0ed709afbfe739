// CPU oracle conversions (semantics in host_convert.hpp). Written for obviousness, not speed:
// the GPU conversions are tested against these bit for bit.
#include "bsrflow/formats/host_convert.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/validate.hpp"

namespace bsrflow::host {

namespace {

template <class T>
T zero() {
  return from_double<T>(0.0);
}

// A dense input must hold every element its shape and leading dimension address.
template <class T>
void check_dense(const HostDense<T>& dense) {
  const std::string shape = std::to_string(dense.rows) + "x" + std::to_string(dense.cols);
  BSRFLOW_REQUIRE(dense.rows >= 0 && dense.cols >= 0, Errc::invalid_argument, "dense matrix shape " + shape + " is negative");
  if (dense.rows == 0 || dense.cols == 0) return;
  const std::int64_t min_ld = dense.layout == Layout::row_major ? dense.cols : dense.rows;
  BSRFLOW_REQUIRE(dense.ld >= min_ld, Errc::invalid_argument,
                  "dense leading dimension " + std::to_string(dense.ld) + " is below " + std::to_string(min_ld) +
                      " for a " + (dense.layout == Layout::row_major ? "row-major " : "column-major ") + shape +
                      " matrix");
  const std::int64_t outer = dense.layout == Layout::row_major ? dense.rows : dense.cols;
  const std::int64_t needed = (outer - 1) * dense.ld + min_ld;
  BSRFLOW_REQUIRE(static_cast<std::int64_t>(dense.data.size()) >= needed, Errc::invalid_argument,
                  "dense data has " + std::to_string(dense.data.size()) + " elements, a " + shape +
                      " matrix with leading dimension " + std::to_string(dense.ld) + " needs " + std::to_string(needed));
}

// An empty BSR of the given shape: row_ptr all zero.
template <class T>
HostBsr<T> empty_bsr(int rows, int cols, int R, int C) {
  HostBsr<T> bsr;
  bsr.rows = rows;
  bsr.cols = cols;
  bsr.R = R;
  bsr.C = C;
  bsr.row_ptr.assign(static_cast<std::size_t>(bsr.block_rows()) + 1, 0);
  return bsr;
}

}  // namespace

template <class T>
HostCsr<T> coo_to_csr(const HostCoo<T>& coo) {
  validate(coo);
  using Acc = accumulator_t<T>;
  const std::size_t nnz = coo.row_idx.size();

  // Entry order sorted by (row, col); stable so duplicates stay in order of appearance.
  std::vector<std::size_t> order(nnz);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (coo.row_idx[a] != coo.row_idx[b]) return coo.row_idx[a] < coo.row_idx[b];
    return coo.col_idx[a] < coo.col_idx[b];
  });

  HostCsr<T> csr;
  csr.rows = coo.rows;
  csr.cols = coo.cols;
  csr.row_ptr.assign(static_cast<std::size_t>(coo.rows) + 1, 0);
  for (std::size_t i = 0; i < nnz;) {
    const int r = coo.row_idx[order[i]];
    const int c = coo.col_idx[order[i]];
    // Sum the run of duplicates of (r, c) in accumulator precision, round once.
    Acc sum = static_cast<Acc>(to_double(coo.values[order[i]]));
    std::size_t j = i + 1;
    for (; j < nnz && coo.row_idx[order[j]] == r && coo.col_idx[order[j]] == c; ++j)
      sum += static_cast<Acc>(to_double(coo.values[order[j]]));
    csr.col_idx.push_back(c);
    csr.values.push_back(from_double<T>(static_cast<double>(sum)));
    ++csr.row_ptr[static_cast<std::size_t>(r) + 1];
    i = j;
  }
  std::partial_sum(csr.row_ptr.begin(), csr.row_ptr.end(), csr.row_ptr.begin());
  return csr;
}

template <class T>
HostBsr<T> csr_to_bsr(const HostCsr<T>& csr, int R, int C, Padding padding) {
  validate(csr);
  check_block_shape(csr.rows, csr.cols, R, C, padding);
  HostBsr<T> bsr = empty_bsr<T>(csr.rows, csr.cols, R, C);
  const std::size_t block_size = static_cast<std::size_t>(R) * static_cast<std::size_t>(C);

  for (int br = 0; br < bsr.block_rows(); ++br) {
    const int row_begin = br * R;
    const int row_end = std::min(csr.rows, row_begin + R);
    // Block columns touched by any entry of this block row, sorted and unique.
    std::vector<int> block_cols;
    for (int r = row_begin; r < row_end; ++r)
      for (int k = csr.row_ptr[r]; k < csr.row_ptr[r + 1]; ++k) block_cols.push_back(csr.col_idx[k] / C);
    std::sort(block_cols.begin(), block_cols.end());
    block_cols.erase(std::unique(block_cols.begin(), block_cols.end()), block_cols.end());

    const std::int64_t first_block = bsr.nnzb();
    bsr.col_idx.insert(bsr.col_idx.end(), block_cols.begin(), block_cols.end());
    bsr.values.resize(bsr.values.size() + block_cols.size() * block_size, zero<T>());
    for (int r = row_begin; r < row_end; ++r) {
      for (int k = csr.row_ptr[r]; k < csr.row_ptr[r + 1]; ++k) {
        const int c = csr.col_idx[k];
        const auto slot = std::lower_bound(block_cols.begin(), block_cols.end(), c / C) - block_cols.begin();
        bsr.at(first_block + slot, r - row_begin, c % C) = csr.values[k];
      }
    }
    bsr.row_ptr[br + 1] = static_cast<int>(bsr.nnzb());
  }
  return bsr;
}

template <class T>
HostCsr<T> bsr_to_csr(const HostBsr<T>& bsr) {
  validate(bsr);
  HostCsr<T> csr;
  csr.rows = bsr.rows;
  csr.cols = bsr.cols;
  csr.row_ptr.assign(static_cast<std::size_t>(bsr.rows) + 1, 0);
  for (int r = 0; r < bsr.rows; ++r) {
    const int br = r / bsr.R;
    const int lr = r % bsr.R;
    // Blocks are sorted by block column, so the columns come out sorted.
    for (int k = bsr.row_ptr[br]; k < bsr.row_ptr[br + 1]; ++k) {
      for (int lc = 0; lc < bsr.C; ++lc) {
        const std::int64_t c = static_cast<std::int64_t>(bsr.col_idx[k]) * bsr.C + lc;
        if (c >= bsr.cols) break;  // padding column of an edge block
        csr.col_idx.push_back(static_cast<int>(c));
        csr.values.push_back(bsr.at(k, lr, lc));
      }
    }
    BSRFLOW_REQUIRE(csr.col_idx.size() <= static_cast<std::size_t>(std::numeric_limits<int>::max()),
                    Errc::invalid_argument,
                    "bsr_to_csr: the CSR would have more than 2^31 - 1 entries (int32 indices)");
    csr.row_ptr[static_cast<std::size_t>(r) + 1] = static_cast<int>(csr.col_idx.size());
  }
  return csr;
}

template <class T>
HostBsr<T> dense_to_bsr(const HostDense<T>& dense, int R, int C, Padding padding) {
  check_dense(dense);
  check_block_shape(dense.rows, dense.cols, R, C, padding);
  HostBsr<T> bsr = empty_bsr<T>(dense.rows, dense.cols, R, C);
  for (int br = 0; br < bsr.block_rows(); ++br) {
    const int rows_in = std::min(R, dense.rows - br * R);  // < R only in a padded edge block
    for (int bc = 0; bc < bsr.block_cols(); ++bc) {
      const int cols_in = std::min(C, dense.cols - bc * C);
      // NaN != 0 is true (stored), -0.0 != 0 is false (not stored).
      bool any = false;
      for (int i = 0; i < rows_in && !any; ++i)
        for (int j = 0; j < cols_in && !any; ++j) any = to_double(dense(br * R + i, bc * C + j)) != 0.0;
      if (!any) continue;
      const std::int64_t k = bsr.nnzb();
      bsr.col_idx.push_back(bc);
      bsr.values.resize(bsr.values.size() + static_cast<std::size_t>(R) * static_cast<std::size_t>(C), zero<T>());
      for (int i = 0; i < rows_in; ++i)
        for (int j = 0; j < cols_in; ++j) bsr.at(k, i, j) = dense(br * R + i, bc * C + j);
    }
    bsr.row_ptr[br + 1] = static_cast<int>(bsr.nnzb());
  }
  return bsr;
}

template <class T>
HostDense<T> bsr_to_dense(const HostBsr<T>& bsr, Layout layout) {
  validate(bsr);
  HostDense<T> dense(bsr.rows, bsr.cols, layout);
  std::fill(dense.data.begin(), dense.data.end(), zero<T>());
  for (int br = 0; br < bsr.block_rows(); ++br) {
    const int rows_in = std::min(bsr.R, bsr.rows - br * bsr.R);
    for (int k = bsr.row_ptr[br]; k < bsr.row_ptr[br + 1]; ++k) {
      const int bc = bsr.col_idx[k];
      const int cols_in = std::min(bsr.C, bsr.cols - bc * bsr.C);
      for (int i = 0; i < rows_in; ++i)
        for (int j = 0; j < cols_in; ++j) dense(br * bsr.R + i, bc * bsr.C + j) = bsr.at(k, i, j);
    }
  }
  return dense;
}

template <class T>
HostBsr<T> bsr_transpose(const HostBsr<T>& bsr) {
  validate(bsr);
  HostBsr<T> out = empty_bsr<T>(bsr.cols, bsr.rows, bsr.C, bsr.R);
  const int out_block_rows = out.block_rows();  // = bsr.block_cols()

  // Counting sort of the blocks by block column; walking the input block rows in order puts
  // each new block row's block columns (the old block rows) in sorted order.
  for (int bc : bsr.col_idx) ++out.row_ptr[static_cast<std::size_t>(bc) + 1];
  std::partial_sum(out.row_ptr.begin(), out.row_ptr.end(), out.row_ptr.begin());
  std::vector<int> next(out.row_ptr.begin(), out.row_ptr.begin() + out_block_rows);
  out.col_idx.resize(bsr.col_idx.size());
  out.values.resize(bsr.values.size());
  for (int br = 0; br < bsr.block_rows(); ++br) {
    for (int k = bsr.row_ptr[br]; k < bsr.row_ptr[br + 1]; ++k) {
      const int dst = next[bsr.col_idx[k]]++;
      out.col_idx[dst] = br;
      for (int i = 0; i < out.R; ++i)  // out block is C x R
        for (int j = 0; j < out.C; ++j) out.at(dst, i, j) = bsr.at(k, j, i);
    }
  }
  return out;
}

#define BSRFLOW_INSTANTIATE_HOST_CONVERT(T)                                             \
  template HostCsr<T> coo_to_csr<T>(const HostCoo<T>&);                                 \
  template HostBsr<T> csr_to_bsr<T>(const HostCsr<T>&, int, int, Padding);              \
  template HostCsr<T> bsr_to_csr<T>(const HostBsr<T>&);                                 \
  template HostBsr<T> dense_to_bsr<T>(const HostDense<T>&, int, int, Padding);          \
  template HostDense<T> bsr_to_dense<T>(const HostBsr<T>&, Layout);                     \
  template HostBsr<T> bsr_transpose<T>(const HostBsr<T>&);

BSRFLOW_INSTANTIATE_HOST_CONVERT(__half)
BSRFLOW_INSTANTIATE_HOST_CONVERT(__nv_bfloat16)
BSRFLOW_INSTANTIATE_HOST_CONVERT(float)
BSRFLOW_INSTANTIATE_HOST_CONVERT(double)

#undef BSRFLOW_INSTANTIATE_HOST_CONVERT

}  // namespace bsrflow::host
