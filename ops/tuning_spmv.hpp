// Defaults of the BSR SpMV (spmv.hpp) on Hopper, with what each number rests on.
//
// NOTES: these are predictions, not yet measurements (no GPU on the machine they were written
// on); docs/perf_log_spmv.md holds the reasoning and spmv_bench --variants measures 4, 8 and 16
// items per thread side by side. Replace the reasoning below with the measurement once taken.
//  - 256 threads per CTA: 8 CTAs of 256 threads fill an SM's 2048 thread slots when a kernel
//    stays at or below 32 registers, and a CTA of 256 keeps the row-team reduction in 8 warps.
//  - Resident CTAs per SM (min_ctas_per_sm, a __launch_bounds__ floor): f32 fits 32 registers
//    without spills (ptxas -v, nvcc 13.0, sm_90a), so 8 (full occupancy); f64 needs 40 (it
//    spills 92+ bytes at 32), so 6 (1536 threads, 75%).
//  - 8 values per thread (2048 per CTA, 16 KiB of f64 products): Poisson's 7-entry rows give
//    ~292 rows per CTA before the row limit, so groups end at 256 rows (1792 values, 88% of the
//    capacity used); the 3x3 Poisson's 63-value block rows give 32 block rows (2016 values).
//    Loads are issued 4 per thread at a time, so 8 is two batches; 16 halves the CTA count and
//    the shared-memory round trips per byte but doubles the stall at the CTA's one barrier.
//  - 256 element rows per CTA: one lane per row in the reduction when rows are short.
#pragma once

namespace bsrflow::spmv_tuning {

constexpr int kThreads = 256;
constexpr int kDefaultItemsPerThread = 8;
constexpr int kDefaultMaxRowsPerCta = 256;
constexpr int kMaxRowsPerCta = 1 << 16;  // SpmvOptions bound (keeps the kernel's team sizing in int)
// The instantiated kernels (spmv.cu): any other items_per_thread is rejected at plan time.
constexpr int kSupportedItems[] = {4, 8, 16};
constexpr int kMaxBlockDim = 8;  // 1 <= R, C <= 8

constexpr int min_ctas_per_sm(unsigned long value_size) { return value_size == 4 ? 8 : 6; }

}  // namespace bsrflow::spmv_tuning
