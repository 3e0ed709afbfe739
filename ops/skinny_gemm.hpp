// The skinny BSR GEMM (N <= 64, skinny_kernel.cuh) as the GEMM plan uses it: when it applies,
// what it needs at plan time (pieces of block rows, split-row workspace) and its launch.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/dense.hpp"
#include "bsrflow/ops/gemm_plan.hpp"
#include "bsrflow/ops/gemm_shapes.hpp"
#include "bsrflow/ops/sm90_schedule_build.hpp"

namespace bsrflow::skinny {

// The first reason the skinny kernel cannot take this GEMM, or "" if it can.
std::string rejection(const GemmBsrOperand& A, DType in, const DenseDesc& B, const DenseDesc& C,
                      const DeviceInfo& device);

// Printable configuration, e.g. "bsr_skinny_f16_r32c32_w16", "bsr_skinny_bf16_r64c64_w64_bcol" or
// "bsr_skinny_f16_r32c32_w64_h32" (warps own 32-column halves of the tile: warp_n_tiles).
std::string name(DType in, int R, int C, int width, int warp_nt, Layout b_layout);

struct Plan {
  sm90::PieceList pieces;          // one CTA each, longest first
  DeviceBuffer<int> split_of_slot;  // piece slot -> split row
  DeviceBuffer<int> counters;       // per split row: pieces finished in this run (reset to 0 by the last)
  DeviceBuffer<float> partials;     // [slot][R][width]
  int width = 16;
  int warp_nt = 2;  // n8 tiles of output per consumer warp (warp_n_tiles)
  int smem = 0;
  bool pdl = false;  // launched with programmatic dependent launch (tuning_skinny.hpp programmatic_launch)
};

// Pieces, workspace and the kernel's shared-memory limit for A's pattern (row_ptr on the
// device) and N = n columns on `sms` SMs; `split` = false keeps every block row whole;
// `allow_pdl` = false never launches with programmatic dependent launch (else the plan's rule).
// Allocates and synchronises `stream`. Throws Error(unsupported) when the library holds no code
// for this GPU.
Plan make_plan(const GemmBsrOperand& A, DType in, DType out, int n, Layout b_layout, int sms, bool split,
               bool allow_pdl, std::size_t smem_optin, cudaStream_t stream);

// C = alpha * A * B + beta * C; no allocation, no synchronisation (capturable). One plan runs
// one product at a time (its counters and partials are shared by its runs).
template <class TIn, class TOut>
void run(const Plan& plan, BsrView<const TIn> A, DenseView<const TIn> B, DenseView<TOut> C, float alpha, float beta,
         cudaStream_t stream);

}  // namespace bsrflow::skinny
