// Defaults of the BSR SpMV (spmv.hpp) on Hopper, with what each number rests on.
//
// NOTES: written as predictions before any GPU run; docs/perf_log_spmv.md holds the reasoning
// and the first measurement (H100, 2026-11-23), which moved the default for blocks > 1x1 to 16
// items and 512 rows (below). spmv_bench --variants measures 4, 8 and 16 items side by side.
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
// Blocks larger than 1x1 default to 16 values per thread and 512 rows per CTA. Measured (H100,
// 2026-11-23, spmv_bench, 3D Poisson 96^3 with 3x3 f64 blocks): 16x512 69.9% of the copy
// bandwidth against 63.1% for 8x256 (docs/perf_log_spmv.md); on 1x1 (CSR) 8x256 stays ahead
// (65.9% vs 63.3% f64; f32 within 1%). Only 3x3 f64 was measured among the block shapes.
constexpr int kDefaultItemsPerThreadBlocks = 16;
constexpr int kDefaultMaxRowsPerCtaBlocks = 512;
constexpr int default_items_per_thread(int R, int C) {
  return R * C > 1 ? kDefaultItemsPerThreadBlocks : kDefaultItemsPerThread;
}
constexpr int default_max_rows_per_cta(int R, int C) {
  return R * C > 1 ? kDefaultMaxRowsPerCtaBlocks : kDefaultMaxRowsPerCta;
}
constexpr int kMaxRowsPerCta = 1 << 16;  // SpmvOptions bound (keeps the kernel's team sizing in int)
// The instantiated kernels (spmv.cu): any other items_per_thread is rejected at plan time.
constexpr int kSupportedItems[] = {4, 8, 16};
constexpr int kMaxBlockDim = 8;  // 1 <= R, C <= 8

constexpr int min_ctas_per_sm(unsigned long value_size) { return value_size == 4 ? 8 : 6; }

}  // namespace bsrflow::spmv_tuning
