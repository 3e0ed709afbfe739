// BSR transpose on the GPU, split into a symbolic phase (pattern -> transposed pattern + the
// source block of every output block) and a numeric phase (values -> transposed values).
//
// Semantics are those of host::bsr_transpose (host_convert.hpp): rows x cols with R x C blocks
// becomes cols x rows with C x R blocks, each block transposed (padding entries included, so a
// zero-filled partial edge block stays zero-filled), col_idx sorted within each new block row.
#pragma once

#include <cstdint>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/formats/bsr.hpp"

namespace bsrflow {

template <class T>
class BsrTranspose {
 public:
  // Symbolic phase: reads bsr.row_ptr / bsr.col_idx (values ignored, may be null), builds the
  // transposed structure (a stable radix sort of the blocks by block column) and allocates its
  // values. Allocates and synchronises `stream`; the work after the synchronisation is
  // stream-ordered. Throws Error(invalid_argument) for a bad shape / block shape or a null or
  // host index array; Error(invalid_structure) with validate()'s message for a broken pattern.
  BsrTranspose(BsrView<const T> bsr, cudaStream_t stream);

  // Numeric phase: in_values (nnzb * R * C, same pattern as at construction) -> out_values
  // (the same count). No allocation, no synchronisation: capturable in a CUDA Graph.
  void numeric(const T* in_values, T* out_values, cudaStream_t stream) const;
  // Same, into output().values().
  void numeric(const T* in_values, cudaStream_t stream) { numeric(in_values, out_.values().data(), stream); }

  Bsr<T>& output() { return out_; }
  const Bsr<T>& output() const { return out_; }

 private:
  Bsr<T> out_;
  DeviceBuffer<int> source_;  // nnzb: the input block each output block transposes
  int R_ = 1;                 // input block shape
  int C_ = 1;
  std::int64_t nnzb_ = 0;
};

}  // namespace bsrflow
