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

#include <cstdint>
#include <iterator>

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

// The team kernel (spmv_team_kernel.cuh): a team of lanes per block row, one stored block per
// lane, every load of a team's first pass issued before any is used, no shared memory and no
// CTA barrier. Its shape was chosen with a standalone probe (H100, 2026-11-23 session 9,
// docs/benchmarks/h100-2026-11-23-s9/spmv_probe.cu, % of the copy bandwidth): Poisson 128^3 f64
// 79.4% (teams of 8, 4 block rows in flight) vs the stream kernel's 65.5%, f32 74.9% vs 59.5%;
// 3x3 on 96^3 f64 94.1% (teams of 8, 1 block row in flight) vs 69.8%, f32 84.7%. Teams of 16 on
// those 7-block rows: 49-56% (1x1), 63-80% (3x3); 8 block rows in flight (1x1): 65-73%. The
// library kernel reaches 70% / 64% (Poisson f64 / f32) and 88% / 85% (3x3): perf_log_spmv.md
// entry 3 (the Poisson gap to the probe is not explained yet).
constexpr int kTeamSizes[] = {8, 16, 32};
constexpr int kTeamMaxBlockDim = 4;  // square blocks 1x1 .. 4x4 are instantiated (a lane holds R * C values)
// Automatic choice: blocks of at most this many bytes. Measured (H100, session 9, spmv_bench on
// the block Poisson matrices, % of copy, team vs stream): 2x2 f64 77 vs 62, f32 68 vs 50; 3x3 f64
// 88 vs 70, f32 85 vs 53; 4x4 f32 (64 bytes) 59 vs 53; 4x4 f64 (128 bytes) 62 vs 73.
constexpr int kTeamMaxBlockBytes = 72;
// Automatic choice: the team kernel when the longest block row needs at most this many passes of
// its team (each further pass is a dependent load round trip for that team; a row of thousands
// of blocks would serialise on one team). Not measured: a guard, not a tuned figure.
constexpr int kTeamMaxPasses = 8;
// Resident CTAs per SM of the team kernel (a __launch_bounds__ floor): 8 (32 registers, full
// occupancy) for f32 blocks of up to 9 values in teams of 8 or 16, 4 (64 registers) for f64
// blocks of more than 9 values (a lane holds them all), else 6 (40 registers); each the most
// that does not spill (ptxas -v, nvcc 13.0, sm_90a). Measured (H100, session 9, probe2): the
// same 1x1 code at different floors moves a lot and not monotonically - f32 8 CTAs 74%, 6 CTAs
// 71%, no floor (39 registers) 60%; f64 6 CTAs 77%, 8 CTAs 66%.
constexpr int team_min_ctas_per_sm(unsigned long value_size, int R, int C, int team, bool fused_dot) {
  int ctas = value_size == 4 ? (R * C <= 9 && team <= 16 ? 8 : 6) : (R * C > 9 ? 4 : 6);
  // The fused-dot form (warps looping over chunks) carries the loop's state too: f32 at 32
  // registers and f64 at 40 spill. Measured for f64 1x1 (H100, session 9, Poisson 128^3 SpMV +
  // dot): 4 CTAs / 4 rows in flight 0.147 ms, 6 CTAs / 2 rows 0.123 ms, 5 CTAs / 4 rows 0.119 ms
  // (the plain form: 0.094 ms).
  if (fused_dot) ctas = value_size == 8 ? (R * C > 1 ? 4 : 5) : (ctas == 8 ? 6 : ctas);
  return ctas;
}

// Block rows each team has in flight: 4 for 1x1 (one value per lane is too few bytes in flight),
// 1 for larger blocks (R * C values per lane already are); the same in the fused-dot form.
constexpr int team_rows_in_flight(int R, int C) { return R * C == 1 ? 4 : 1; }
// The narrowest team at least as wide as the mean blocks per block row.
constexpr int team_for_mean_blocks(std::int64_t nnzb, std::int64_t block_rows) {
  for (int team : kTeamSizes)
    if (static_cast<std::int64_t>(team) * block_rows >= nnzb) return team;
  return kTeamSizes[std::size(kTeamSizes) - 1];
}


// The bulk kernel (spmv_bulk_kernel.cuh, sm_90): one producer lane copies each tile's row_ptr,
// col_idx and values into a ring of shared-memory stages with cp.async.bulk on mbarriers; 8
// consumer warps compute one element row per thread from shared memory. Its shape was chosen with
// a standalone probe (H100, 2026-11-24 session 11, docs/benchmarks/h100-2026-11-24-s11/
// spmv_bulk_probe.cu, % of the copy bandwidth, Poisson 128^3, team kernel 79.5% f64 / 75.0% f32
// in the same process): 2048 values x 256 rows per stage, 3 stages, 8 consumer warps 87.9% f64
// (2 CTAs per SM) / 83.2% f32 (3 CTAs); 4 stages 86.0 / 82.0; 4096 x 512 x 3 stages with 16
// warps (1 CTA) 88.3 / 82.2; 1024 x 128 with 4 warps 85.3 / 81.3 (4 stages), 77.7 / 79.9 (6).
constexpr int kBulkConsumerWarps = 8;
constexpr int kBulkThreads = (kBulkConsumerWarps + 1) * 32;  // + the producer warp
constexpr int kBulkStages = 3;
// Values per stage (a tile's blocks x R x C): 2048, i.e. 16 KiB of f64. f32 blocks larger than
// 1x1 take 4096, the same 16 KiB: with 2048 a 3x3 f32 stage held 32 block rows, i.e. 96 element
// rows for the 256 consumer threads, and half the bytes per stage handshake (perf_log_spmv.md
// entry 5). f32 1x1 keeps 2048: its 7-value rows reach kBulkRows first (1792 values).
constexpr int kBulkValues = 2048;
constexpr int bulk_values(int R, int C, unsigned long value_size) {
  return value_size == 4 && R * C > 1 ? 2 * kBulkValues : kBulkValues;
}
constexpr int kBulkRows = 256;  // element rows per tile (one per consumer thread)
constexpr int kBulkMaxBlockDim = 4;  // square blocks 1x1 .. 4x4 are instantiated
// Automatic choice: every block shape the bulk kernel is instantiated for (spmv_choose.cpp takes it
// for any of them with short rows), since it measured ahead on each (H100, session 11 call 7,
// spmv_bench on the dense-block Poisson matrices, % of copy; team / stream from the same binary in
// call 5): 1x1 f64 87.5 (team 77.4), f32 82.9 (71.2); 2x2 f64 88.5 (77.5); 3x3 f64 92.9 (88.6);
// 4x4 f64 91.1 (stream 73.2). f32 blocks with 4096-value stages (session 12, perf_log_spmv.md
// entry 5; H100 / H200): 2x2 82 / 76 (team 69 / 56), 3x3 86.2 / 76.6 (team 85.5 / 75.3; with the
// fused dot, H200: 67.5 against 63.8), 4x4 91.3 / 84.5 (team 60 / 43).
// Blocks of a row whose x gathers one consumer thread has in flight together (8 values' worth).
constexpr int bulk_batch(int C) { return C >= 8 ? 1 : 8 / C; }
// Automatic choice: the bulk kernel when one thread walks the longest element row in at most this
// many rounds of gathers (one thread per element row: a long row is a chain of dependent L2 round
// trips, and a stage of 2048 values then holds few rows for the 256 threads). Measured (H100,
// session 11): 7-block rows (1-4 rounds) 82-93% of copy; fem_solve's 27-block 3x3 rows (14
// rounds) cost its elasticity PCG 1.3-1.4x time per iteration against the team kernel. A guard
// between those, not a tuned figure; SpmvOptions::kernel = bulk takes rows up to one stage.
constexpr int kBulkMaxRounds = 4;
constexpr bool bulk_rows_short(std::int64_t max_row_blocks, int C) {
  return max_row_blocks <= static_cast<std::int64_t>(kBulkMaxRounds) * bulk_batch(C);
}
constexpr int bulk_min_ctas_per_sm(unsigned long value_size) { return value_size == 4 ? 3 : 2; }

}  // namespace bsrflow::spmv_tuning
