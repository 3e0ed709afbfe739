// Jacobi and block-Jacobi preconditioners of a square BSR matrix (R == C <= 8): the inverse of
// its diagonal (one value per row) or of its diagonal blocks (one R x R inverse per block row),
// computed on the device in double (Gauss-Jordan with partial pivoting) and stored in T.
//
// Applying one is elementwise-local, so solvers fuse it into their vector kernels
// (JacobiApply::at); the setup is a plan-time step (it synchronises to report a bad matrix), and
// refresh() recomputes the inverse in place after the matrix values changed (same pattern).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/host_device.hpp"
#include "bsrflow/formats/bsr.hpp"

namespace bsrflow {

enum class Preconditioner : std::uint8_t { none, jacobi, block_jacobi };

const char* preconditioner_name(Preconditioner p) noexcept;

// The device-side view: z_i = (M^-1 r)_i for one element row i.
template <class T>
struct JacobiApply {
  Preconditioner kind = Preconditioner::none;
  int b = 1;                 // block size (block_jacobi)
  const T* inverse = nullptr;  // jacobi: n values; block_jacobi: (n / b) blocks of b*b, row-major

  BSRFLOW_HD T at(const T* r, std::int64_t i) const {
    if (kind == Preconditioner::jacobi) return inverse[i] * r[i];
    if (kind == Preconditioner::block_jacobi) {
      const std::int64_t block = i / b;
      const int row = static_cast<int>(i - block * b);
      const T* inv = inverse + (block * b + row) * b;  // row `row` of block `block`'s inverse
      const T* rb = r + block * b;
      T sum = T(0);
      for (int j = 0; j < b; ++j) sum += inv[j] * rb[j];
      return sum;
    }
    return r[i];
  }
};

template <class T>
class JacobiPreconditioner {
 public:
  JacobiPreconditioner() = default;
  // Throws Error(invalid_argument) for a non-square matrix or block, a missing diagonal block,
  // a zero diagonal entry (jacobi) or a singular diagonal block (block_jacobi) - naming the row
  // - and Error(unsupported) for blocks over 8 or, with block_jacobi, rows not a multiple of R.
  JacobiPreconditioner(BsrView<const T> A, Preconditioner kind, cudaStream_t stream);

  // Recomputes the inverse from A's current values (same pattern); synchronises `stream`.
  void refresh(BsrView<const T> A, cudaStream_t stream);

  JacobiApply<T> apply() const { return {kind_, b_, inverse_.data()}; }
  Preconditioner kind() const { return kind_; }
  const DeviceBuffer<T>& inverse() const { return inverse_; }

 private:
  Preconditioner kind_ = Preconditioner::none;
  int b_ = 1;
  DeviceBuffer<T> inverse_;
  DeviceBuffer<int> status_;  // first bad block row (INT_MAX when none) and its kind
};

}  // namespace bsrflow
