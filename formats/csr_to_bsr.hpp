// CSR -> BSR on the GPU, split into a symbolic phase (pattern -> BSR structure + scatter map)
// and a numeric phase (CSR values -> BSR values).
//
// The BSR pattern is derived from the CSR *pattern*: a block is stored when any CSR entry falls
// into it, explicit zeros included, so that the numeric phase never changes the structure.
// Entries of a stored block that have no CSR entry are zero.
#pragma once

#include <cstdint>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/csr.hpp"
#include "bsrflow/formats/padding.hpp"

namespace bsrflow {

template <class T>
class CsrToBsr {
 public:
  // Symbolic phase: reads csr.row_ptr / csr.col_idx (values ignored, may be null), builds the
  // output structure, allocates its values and the scatter map. Allocates and synchronises
  // `stream`. Throws Error(invalid_argument) for a bad block shape / padding.
  CsrToBsr(CsrView<const T> csr, int R, int C, Padding padding, cudaStream_t stream);

  // Numeric phase: csr_values (nnz, same pattern as at construction) -> bsr_values
  // (output().nnzb() * R * C). No allocation, no synchronisation: capturable in a CUDA Graph.
  void numeric(const T* csr_values, T* bsr_values, cudaStream_t stream) const;
  // Same, into output().values().
  void numeric(const T* csr_values, cudaStream_t stream) { numeric(csr_values, out_.values().data(), stream); }

  Bsr<T>& output() { return out_; }
  const Bsr<T>& output() const { return out_; }

 private:
  // Implementation-defined. Nothing here may point into the caller's input: the numeric phase
  // must work after the input view's structure arrays are gone.
  Bsr<T> out_;
};

}  // namespace bsrflow
