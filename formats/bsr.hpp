// Block sparse rows. The matrix is rows x cols elements cut into R x C blocks (R != C allowed);
// block row i covers element rows [i*R, i*R+R). row_ptr has block_rows + 1 entries, col_idx
// holds nnzb block-column indices (sorted and unique within a block row), values holds nnzb
// blocks of R*C elements each, row-major inside the block.
//
// When rows or cols is not a multiple of R or C the last block row / column is partial
// ("zero-fill padding"): its out-of-range entries are stored and must be zero. Conversions
// produce such matrices only when asked to (Padding::zero_fill); see padding.hpp.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/host_device.hpp"

namespace bsrflow {

BSRFLOW_HD constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

template <class T>
struct BsrView {
  int rows = 0;  // elements
  int cols = 0;  // elements
  int R = 1;     // block height
  int C = 1;     // block width
  std::int64_t nnzb = 0;
  const int* row_ptr = nullptr;  // block_rows() + 1
  const int* col_idx = nullptr;  // nnzb
  T* values = nullptr;           // nnzb * R * C; may be null for a pattern-only view

  BSRFLOW_HD int block_rows() const { return ceil_div(rows, R); }
  BSRFLOW_HD int block_cols() const { return ceil_div(cols, C); }
  BSRFLOW_HD std::int64_t block_size() const { return static_cast<std::int64_t>(R) * C; }
  // 64-bit: nnzb * R * C passes 2^31 long before nnzb does.
  BSRFLOW_HD std::int64_t value_count() const { return nnzb * block_size(); }

  // A view of mutable values is also a read-only view.
  template <class U = T, std::enable_if_t<!std::is_const_v<U>, int> = 0>
  BSRFLOW_HD operator BsrView<const U>() const {
    return {rows, cols, R, C, nnzb, row_ptr, col_idx, values};
  }
};

template <class T>
struct HostBsr {
  int rows = 0;
  int cols = 0;
  int R = 1;
  int C = 1;
  std::vector<int> row_ptr;
  std::vector<int> col_idx;
  std::vector<T> values;

  int block_rows() const { return ceil_div(rows, R); }
  int block_cols() const { return ceil_div(cols, C); }
  std::int64_t nnzb() const { return static_cast<std::int64_t>(col_idx.size()); }
  // Element (r, c) of stored block k.
  T& at(std::int64_t k, int r, int c) { return values[static_cast<std::size_t>(k * R * C + r * C + c)]; }
  const T& at(std::int64_t k, int r, int c) const { return values[static_cast<std::size_t>(k * R * C + r * C + c)]; }
  BsrView<const T> view() const {
    return {rows, cols, R, C, nnzb(), row_ptr.data(), col_idx.data(), values.data()};
  }
};

template <class T>
class Bsr {
 public:
  Bsr() = default;
  Bsr(int rows, int cols, int R, int C, DeviceBuffer<int> row_ptr, DeviceBuffer<int> col_idx,
      DeviceBuffer<T> values)
      : rows_(rows), cols_(cols), R_(R), C_(C), row_ptr_(std::move(row_ptr)), col_idx_(std::move(col_idx)),
        values_(std::move(values)) {}

  static Bsr from_host(const HostBsr<T>& h, cudaStream_t stream) {
    return Bsr(h.rows, h.cols, h.R, h.C, DeviceBuffer<int>::from_host(h.row_ptr, stream),
               DeviceBuffer<int>::from_host(h.col_idx, stream), DeviceBuffer<T>::from_host(h.values, stream));
  }
  HostBsr<T> to_host(cudaStream_t stream) const {
    return {rows_, cols_, R_, C_, row_ptr_.to_host(stream), col_idx_.to_host(stream), values_.to_host(stream)};
  }

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  int R() const { return R_; }
  int C() const { return C_; }
  int block_rows() const { return ceil_div(rows_, R_); }
  int block_cols() const { return ceil_div(cols_, C_); }
  std::int64_t nnzb() const { return static_cast<std::int64_t>(col_idx_.size()); }
  DeviceBuffer<int>& row_ptr() { return row_ptr_; }
  DeviceBuffer<int>& col_idx() { return col_idx_; }
  DeviceBuffer<T>& values() { return values_; }
  const DeviceBuffer<int>& row_ptr() const { return row_ptr_; }
  const DeviceBuffer<int>& col_idx() const { return col_idx_; }
  const DeviceBuffer<T>& values() const { return values_; }

  BsrView<T> view() { return {rows_, cols_, R_, C_, nnzb(), row_ptr_.data(), col_idx_.data(), values_.data()}; }
  BsrView<const T> view() const {
    return {rows_, cols_, R_, C_, nnzb(), row_ptr_.data(), col_idx_.data(), values_.data()};
  }

 private:
  int rows_ = 0;
  int cols_ = 0;
  int R_ = 1;
  int C_ = 1;
  DeviceBuffer<int> row_ptr_;
  DeviceBuffer<int> col_idx_;
  DeviceBuffer<T> values_;
};

}  // namespace bsrflow
