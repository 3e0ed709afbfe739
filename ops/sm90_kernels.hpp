// Host-side registry of the instantiated Hopper BSR GEMM kernels: which compile-time
// configurations exist, how much shared memory each needs, and how to launch one.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <span>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/ops/gemm_config.hpp"
#include "bsrflow/ops/sm90_gemm_params.hpp"

namespace bsrflow::sm90 {

// The compile-time part of an Sm90Config (stages is a run-time parameter).
struct KernelKey {
  DType in;
  int R;
  int k_chunk;
  int swath;
  bool swap;
  bool b_col_major;
  bool copy_only;
  int row_group;  // block rows per tile (1: one; > 1: a row-group kernel)
  int items_per_stage;  // row-group items per ring stage (1 or 2)
  friend constexpr bool operator==(const KernelKey&, const KernelKey&) = default;
};

constexpr KernelKey key_of(const Sm90Config& c) {
  return {c.in, c.R, c.k_chunk(), c.swath, c.swap(), c.b_layout == Layout::col_major, c.copy_only, c.row_group,
          c.items_per_stage};
}

struct KernelEntry {
  KernelKey key;
  const void* function;  // __global__ bsr_gemm_kernel<...>
  int stage_bytes;       // shared memory per ring stage
  int fixed_bytes;       // epilogue buffers + barriers + alignment slack
  int threads;
  int max_stages;  // the deepest ring its barrier array holds (KernelTraits::kMaxStages)
  bool tma_partials;  // TMA-stores split pieces' f32 partial tiles (direct orientation)
  int epi_rows;    // its chunk (C orientation): the box of the C tensor map
  int epi_cols;

  int smem_bytes(int stages) const { return stages * stage_bytes + fixed_bytes; }
};

// One table per translation unit (input dtype x B layout), defined in sm90_gemm_*.cu.
std::span<const KernelEntry> kernels_f16_brow();
std::span<const KernelEntry> kernels_f16_bcol();
std::span<const KernelEntry> kernels_bf16_brow();
std::span<const KernelEntry> kernels_bf16_bcol();

// nullptr when that configuration is not instantiated.
const KernelEntry* find_kernel(const KernelKey& key);

// Every instantiated kernel (for tests and the benchmark).
std::span<const KernelEntry> all_kernels();

// Raises the kernel's dynamic shared-memory limit to `bytes` (plan time). Plans pass the device's
// opt-in maximum, so that a later plan with a shallower ring never lowers the limit under an
// earlier plan that needs more.
void prepare_kernel(const KernelEntry& entry, std::size_t bytes);

// How many clusters of `cluster` CTAs with a ring of `stages` can be resident at once (0: none).
int max_active_clusters(const KernelEntry& entry, int stages, int cluster);

// Launches `grid` persistent CTAs (a multiple of params.cluster, in clusters of that many).
// Throws Error(cuda) on a launch failure.
void launch_kernel(const KernelEntry& entry, const GemmParams& params, int grid, cudaStream_t stream);

}  // namespace bsrflow::sm90
