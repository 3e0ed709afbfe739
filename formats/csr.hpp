// Compressed sparse rows: row_ptr (rows + 1), col_idx (nnz, sorted and unique within a row),
// values (nnz). int32 indices, so nnz < 2^31.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"

namespace bsrflow {

template <class T>
struct CsrView {
  int rows = 0;
  int cols = 0;
  std::int64_t nnz = 0;
  const int* row_ptr = nullptr;
  const int* col_idx = nullptr;
  T* values = nullptr;  // may be null for a pattern-only view

  // A view of mutable values is also a read-only view.
  template <class U = T, std::enable_if_t<!std::is_const_v<U>, int> = 0>
  operator CsrView<const U>() const {
    return {rows, cols, nnz, row_ptr, col_idx, values};
  }
};

template <class T>
struct HostCsr {
  int rows = 0;
  int cols = 0;
  std::vector<int> row_ptr;  // rows + 1
  std::vector<int> col_idx;
  std::vector<T> values;

  std::int64_t nnz() const { return static_cast<std::int64_t>(col_idx.size()); }
};

template <class T>
class Csr {
 public:
  Csr() = default;
  Csr(int rows, int cols, DeviceBuffer<int> row_ptr, DeviceBuffer<int> col_idx, DeviceBuffer<T> values)
      : rows_(rows), cols_(cols), row_ptr_(std::move(row_ptr)), col_idx_(std::move(col_idx)),
        values_(std::move(values)) {}

  static Csr from_host(const HostCsr<T>& h, cudaStream_t stream) {
    return Csr(h.rows, h.cols, DeviceBuffer<int>::from_host(h.row_ptr, stream),
               DeviceBuffer<int>::from_host(h.col_idx, stream), DeviceBuffer<T>::from_host(h.values, stream));
  }
  HostCsr<T> to_host(cudaStream_t stream) const {
    return {rows_, cols_, row_ptr_.to_host(stream), col_idx_.to_host(stream), values_.to_host(stream)};
  }

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  std::int64_t nnz() const { return static_cast<std::int64_t>(col_idx_.size()); }
  DeviceBuffer<int>& row_ptr() { return row_ptr_; }
  DeviceBuffer<int>& col_idx() { return col_idx_; }
  DeviceBuffer<T>& values() { return values_; }
  const DeviceBuffer<int>& row_ptr() const { return row_ptr_; }
  const DeviceBuffer<int>& col_idx() const { return col_idx_; }
  const DeviceBuffer<T>& values() const { return values_; }

  CsrView<T> view() { return {rows_, cols_, nnz(), row_ptr_.data(), col_idx_.data(), values_.data()}; }
  CsrView<const T> view() const { return {rows_, cols_, nnz(), row_ptr_.data(), col_idx_.data(), values_.data()}; }

 private:
  int rows_ = 0;
  int cols_ = 0;
  DeviceBuffer<int> row_ptr_;
  DeviceBuffer<int> col_idx_;
  DeviceBuffer<T> values_;
};

}  // namespace bsrflow
