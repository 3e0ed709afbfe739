// Dense <-> BSR on the GPU.
//
// DenseToBsr: a block is stored when any of its in-range entries compares != 0 (NaN counts as
// non-zero, -0.0 as zero), exactly as host::dense_to_bsr. Because the pattern depends on the
// values, the symbolic phase reads them; the numeric phase then refreshes the values of the
// stored blocks only (the pattern is frozen: a later non-zero outside them is not picked up).
//
// bsr_to_dense: numeric only; stored blocks written, everything else zero, padding entries of
// partial edge blocks dropped (host::bsr_to_dense).
#pragma once

#include <cstdint>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/dense.hpp"
#include "bsrflow/formats/padding.hpp"

namespace bsrflow {

template <class T>
class DenseToBsr {
 public:
  // Symbolic phase: reads `dense` (any layout and leading dimension), builds the BSR structure
  // and allocates its values (uninitialised until numeric() runs). Allocates and synchronises
  // `stream`; the work after the synchronisation is stream-ordered. Throws
  // Error(invalid_argument) for a bad block shape / padding (check_block_shape), a negative
  // shape, a leading dimension below the minimum, a null or host data pointer.
  DenseToBsr(DenseView<const T> dense, int R, int C, Padding padding, cudaStream_t stream);

  // Numeric phase: dense_data (same shape, leading dimension and layout as at construction) ->
  // bsr_values (output().nnzb() * R * C; padding entries written as zero). No allocation, no
  // synchronisation: capturable in a CUDA Graph.
  void numeric(const T* dense_data, T* bsr_values, cudaStream_t stream) const;
  // Same, into output().values().
  void numeric(const T* dense_data, cudaStream_t stream) { numeric(dense_data, out_.values().data(), stream); }

  Bsr<T>& output() { return out_; }
  const Bsr<T>& output() const { return out_; }

 private:
  Bsr<T> out_;
  DeviceBuffer<int> block_coord_;  // 2 per stored block: block row, block column
  int rows_ = 0;
  int cols_ = 0;
  int R_ = 1;
  int C_ = 1;
  std::int64_t ld_ = 0;
  Layout layout_ = Layout::row_major;
  std::int64_t nnzb_ = 0;
};

// out = bsr as a dense matrix (out.rows == bsr.rows, out.cols == bsr.cols, any layout and
// leading dimension >= out.min_ld()). Stream-ordered, no allocation, no synchronisation:
// capturable. Throws Error(invalid_argument) on mismatched shapes, a bad block shape, a too
// small leading dimension or a null pointer. The BSR structure is trusted (validate() it first
// if in doubt); garbage indices cannot make it write outside `out`.
template <class T>
void bsr_to_dense(BsrView<const T> bsr, DenseView<T> out, cudaStream_t stream);

}  // namespace bsrflow
