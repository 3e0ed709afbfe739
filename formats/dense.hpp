// Dense matrices as bsrflow sees them: a pointer, a shape, a leading dimension and a layout.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "bsrflow/core/host_device.hpp"

namespace bsrflow {

enum class Layout : std::uint8_t { row_major, col_major };

// Non-owning, trivially copyable. Element (i, j) lives at data[i * ld + j] (row-major) or
// data[j * ld + i] (column-major). T may be const-qualified.
template <class T>
struct DenseView {
  T* data = nullptr;
  int rows = 0;
  int cols = 0;
  std::int64_t ld = 0;
  Layout layout = Layout::row_major;

  BSRFLOW_HD std::int64_t offset(std::int64_t i, std::int64_t j) const {
    return layout == Layout::row_major ? i * ld + j : j * ld + i;
  }
  BSRFLOW_HD T& operator()(std::int64_t i, std::int64_t j) const { return data[offset(i, j)]; }
  // Smallest legal leading dimension for this shape and layout.
  BSRFLOW_HD std::int64_t min_ld() const { return layout == Layout::row_major ? cols : rows; }
  // Mutable -> const view (only for non-const T: a const view converting to itself would be a
  // no-op conversion operator, which nvcc warns about).
  template <class U = T>
    requires(!std::is_const_v<U>)
  operator DenseView<const U>() const { return {data, rows, cols, ld, layout}; }
};

// Host-side dense matrix for I/O and tests (owning).
template <class T>
struct HostDense {
  int rows = 0;
  int cols = 0;
  std::int64_t ld = 0;
  Layout layout = Layout::row_major;
  std::vector<T> data;  // size >= (layout == row_major ? rows : cols) * ld

  HostDense() = default;
  HostDense(int r, int c, Layout l = Layout::row_major, std::int64_t leading = 0)
      : rows(r), cols(c), ld(leading > 0 ? leading : (l == Layout::row_major ? c : r)), layout(l),
        data(static_cast<std::size_t>((l == Layout::row_major ? r : c)) * static_cast<std::size_t>(ld)) {}

  DenseView<T> view() { return {data.data(), rows, cols, ld, layout}; }
  DenseView<const T> view() const { return {data.data(), rows, cols, ld, layout}; }
  T& operator()(std::int64_t i, std::int64_t j) { return data[view().offset(i, j)]; }
  const T& operator()(std::int64_t i, std::int64_t j) const { return data[view().offset(i, j)]; }
};

}  // namespace bsrflow
