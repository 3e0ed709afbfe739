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

// How CsrToBsr::numeric writes the BSR values. Every variant gives the same bits; they differ in
// the memory traffic pattern (formats/detail_csr_to_bsr_numeric.cuh, detail_csr_to_bsr_staged.cuh).
enum class CsrToBsrNumeric {
  staged,   // the default: assemble each tile in shared memory, write it out once in 16-byte stores;
            // 32 KiB stage, 6 CTAs per SM. H100, 128^3 Poisson f64: 80 / 89 / 90% of the copy
            // bandwidth at blocks 3 / 16 / 32 (docs/perf_log_convert.md entry 1)
  scatter,  // zero-fill each tile in global memory, then scatter the CSR values into it
            // (33 / 45 / 56% there: the zero-fill and the 8-byte scattered stores)
  staged_wide,  // staged with a 64 KiB stage (3 CTAs per SM): fewer chunks per tile; within
                // +-5% of staged there
};

// What CsrToBsr::numeric runs unless told otherwise.
inline constexpr CsrToBsrNumeric kCsrToBsrNumericDefault = CsrToBsrNumeric::staged;

// Every variant, the default first (what benchmarks and tests iterate over).
inline constexpr CsrToBsrNumeric kCsrToBsrNumericVariants[] = {kCsrToBsrNumericDefault, CsrToBsrNumeric::scatter,
                                                               CsrToBsrNumeric::staged_wide};

// "scatter" / "staged" / "staged-wide".
const char* numeric_variant_name(CsrToBsrNumeric variant);

template <class T>
class CsrToBsr {
 public:
  // Symbolic phase: reads csr.row_ptr / csr.col_idx (values ignored, may be null), builds the
  // output structure, allocates its values and the scatter map. Allocates and synchronises
  // `stream`. Throws Error(invalid_argument) for a bad block shape / padding.
  // Also: Error(invalid_structure) with validate()'s message when row_ptr / col_idx are broken
  // (checked by the count pass as it reads them), Error(invalid_argument) for a negative nnz or
  // a null or host index array, Error(unsupported) for R > 4096 or a block row of more than
  // ~2^31 values. The output values are uninitialised until numeric() runs. Work after the one
  // synchronisation is stream-ordered: the input must stay valid until `stream` reaches it.
  CsrToBsr(CsrView<const T> csr, int R, int C, Padding padding, cudaStream_t stream);

  // Numeric phase: csr_values (nnz, same pattern as at construction) -> bsr_values
  // (output().nnzb() * R * C). No allocation, no synchronisation: capturable in a CUDA Graph.
  // bsr_values needs only sizeof(T) alignment. `variant` picks the kernel (same result).
  void numeric(const T* csr_values, T* bsr_values, cudaStream_t stream,
               CsrToBsrNumeric variant = kCsrToBsrNumericDefault) const;
  // Same, into output().values().
  void numeric(const T* csr_values, cudaStream_t stream, CsrToBsrNumeric variant = kCsrToBsrNumericDefault) {
    numeric(csr_values, out_.values().data(), stream, variant);
  }

  Bsr<T>& output() { return out_; }
  const Bsr<T>& output() const { return out_; }

 private:
  // Implementation-defined. Nothing here may point into the caller's input: the numeric phase
  // must work after the input view's structure arrays are gone.
  Bsr<T> out_;
  // The numeric phase works in tiles: runs of whole block rows (contiguous BSR values, contiguous
  // CSR entries). map_[e] is CSR entry e's value offset inside its tile; it is tile-relative so
  // that it stays int32 however many values the matrix has.
  DeviceBuffer<int> map_;         // nnz
  DeviceBuffer<int> tile_block_;  // tiles_ + 1: first block of each tile
  DeviceBuffer<int> tile_entry_;  // tiles_ + 1: first CSR entry of each tile
  int tiles_ = 0;
  int block_size_ = 1;            // R * C
  std::int64_t nnz_ = 0;
  std::int64_t value_count_ = 0;  // nnzb * R * C
};

}  // namespace bsrflow
