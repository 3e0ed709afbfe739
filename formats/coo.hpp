// Coordinate format: (row, col, value) triplets in any order; duplicates allowed (conversions
// sum them, see coo_to_csr.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"

namespace bsrflow {

template <class T>
struct CooView {
  int rows = 0;
  int cols = 0;
  std::int64_t nnz = 0;
  const int* row_idx = nullptr;
  const int* col_idx = nullptr;
  T* values = nullptr;  // may be null for a pattern-only view
};

template <class T>
struct HostCoo {
  int rows = 0;
  int cols = 0;
  std::vector<int> row_idx;
  std::vector<int> col_idx;
  std::vector<T> values;

  std::int64_t nnz() const { return static_cast<std::int64_t>(row_idx.size()); }
};

template <class T>
class Coo {
 public:
  Coo() = default;
  Coo(int rows, int cols, DeviceBuffer<int> row_idx, DeviceBuffer<int> col_idx, DeviceBuffer<T> values)
      : rows_(rows), cols_(cols), row_idx_(std::move(row_idx)), col_idx_(std::move(col_idx)),
        values_(std::move(values)) {}

  static Coo from_host(const HostCoo<T>& h, cudaStream_t stream) {
    return Coo(h.rows, h.cols, DeviceBuffer<int>::from_host(h.row_idx, stream),
               DeviceBuffer<int>::from_host(h.col_idx, stream), DeviceBuffer<T>::from_host(h.values, stream));
  }
  HostCoo<T> to_host(cudaStream_t stream) const {
    return {rows_, cols_, row_idx_.to_host(stream), col_idx_.to_host(stream), values_.to_host(stream)};
  }

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  std::int64_t nnz() const { return static_cast<std::int64_t>(row_idx_.size()); }
  DeviceBuffer<int>& row_idx() { return row_idx_; }
  DeviceBuffer<int>& col_idx() { return col_idx_; }
  DeviceBuffer<T>& values() { return values_; }
  const DeviceBuffer<int>& row_idx() const { return row_idx_; }
  const DeviceBuffer<int>& col_idx() const { return col_idx_; }
  const DeviceBuffer<T>& values() const { return values_; }

  CooView<T> view() { return {rows_, cols_, nnz(), row_idx_.data(), col_idx_.data(), values_.data()}; }
  CooView<const T> view() const { return {rows_, cols_, nnz(), row_idx_.data(), col_idx_.data(), values_.data()}; }

 private:
  int rows_ = 0;
  int cols_ = 0;
  DeviceBuffer<int> row_idx_;
  DeviceBuffer<int> col_idx_;
  DeviceBuffer<T> values_;
};

}  // namespace bsrflow
