// COO -> CSR on the GPU, split into a symbolic phase (pattern -> CSR structure + gather map)
// and a numeric phase (COO values -> CSR values).
//
// Semantics are those of host::coo_to_csr (host_convert.hpp), bit for bit: entries sorted by
// (row, column); duplicates summed in accumulator_t<T> (f32 for the 16-bit types, f64 for f64)
// in their order of appearance in the input, starting from the first one, then rounded once to
// T; explicit zeros kept.
#pragma once

#include <cstdint>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/formats/coo.hpp"
#include "bsrflow/formats/csr.hpp"

namespace bsrflow {

template <class T>
class CooToCsr {
 public:
  // Symbolic phase: reads coo.row_idx / coo.col_idx (values ignored, may be null), sorts the
  // pattern (stable radix sort), builds the CSR structure and the gather map, allocates the
  // output values. Allocates and synchronises `stream`; the work after the synchronisation is
  // stream-ordered, so the input must stay valid until `stream` gets past it.
  // Throws Error(invalid_argument) for a negative shape / nnz or a null or host index array,
  // Error(invalid_structure) (validate()'s message, e.g. "entry 5: row 9 out of range [0, 8)")
  // for an index outside the shape.
  CooToCsr(CooView<const T> coo, cudaStream_t stream);

  // Numeric phase: coo_values (nnz, same pattern as at construction) -> csr_values
  // (output().nnz()). No allocation, no synchronisation: capturable in a CUDA Graph.
  void numeric(const T* coo_values, T* csr_values, cudaStream_t stream) const;
  // Same, into output().values().
  void numeric(const T* coo_values, cudaStream_t stream) { numeric(coo_values, out_.values().data(), stream); }

  Csr<T>& output() { return out_; }
  const Csr<T>& output() const { return out_; }

 private:
  Csr<T> out_;
  // CSR entry s sums the COO values at order_[segment_[s] .. segment_[s + 1]), in that order.
  DeviceBuffer<int> order_;    // in_nnz_: COO positions sorted by (row, col), stable
  DeviceBuffer<int> segment_;  // out_nnz_ + 1
  std::int64_t in_nnz_ = 0;
  std::int64_t out_nnz_ = 0;
};

}  // namespace bsrflow
