// The skinny BSR x dense GEMM kernel: C = alpha * A_bsr * B + beta * C for N <= 64 (a tile of
// 16, 32 or 64 columns covers all of N), where the product is bound by streaming A's blocks, not
// by math. One CTA per piece of a block row (sm90::build_pieces), eight consumer warps and two
// producer warps that take alternate stages:
//
// - Loads: a producer's first lane issues, per stored block, one TMA box of A (two for
//   128-wide blocks) and one of the C x width slice of B under its block column (zero-filled past
//   K and N by TMA) into a kStages-deep ring on mbarriers (full: transaction bytes; empty: one
//   arrival per consumer warp). Small blocks share a stage (blocks_per_stage). Where the issue
//   path bounds (many small blocks, 64-wide tiles: skinny::lane_producer) each lane issues one
//   block's boxes instead and a full stage's A blocks come as one box. Each box lands
//   with the swizzle of its row width, so ldmatrix reads it without bank conflicts. (The first
//   version issued 16-byte cp.async copies from every thread: the address arithmetic made it
//   instruction-bound, docs/perf_log.md entries 15 and 17.)
// - Math: mma.sync m16n8k16 (f16/bf16 in, f32 accumulate). A warp owns one 16-row strip of the
//   block row times WNT n8 tiles (the whole width, or one 32-column half of a 64-wide tile:
//   skinny::warp_n_tiles); the warps that own the same strip and columns split its k16 steps
//   round-robin and add their accumulators through shared memory in warp order afterwards
//   (deterministic). Eight warps: the kernel is latency-bound, not math-bound, so it wants threads.
// - Output: a whole row writes C directly; pieces of a split row write raw f32 partial tiles,
//   and the CTA that finishes its row last (a ticket counter, which it resets) sums them in slot
//   order and writes C. One launch, no atomics on values: runs are bitwise reproducible.
// - Launch: every CTA lets the next grid in the stream start at its entry and, launched early
//   itself (programmatic dependent launch, where the plan says: tuning_skinny.hpp
//   programmatic_launch), waits for the previous grid after its set-up, before any operand.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/ops/mma_sm80.cuh"
#include "bsrflow/ops/sm90_tma.cuh"
#include "bsrflow/ops/skinny_params.hpp"
#include "bsrflow/ops/tma_swizzle.hpp"
#include "bsrflow/ops/tuning_skinny.hpp"

namespace bsrflow::skinny {

__device__ __forceinline__ int log2_of(int power_of_two) { return 31 - __clz(power_of_two); }

// v, held in a register from here on: ptxas cannot recompute an asm's output, so a loop-invariant
// address part pinned before the main loop is not rematerialised inside it (perf_log entry 58:
// ptxas sank the consumer's per-lane address parts into the k-step loop's preheader, ~37
// instructions again at every stage).
__device__ __forceinline__ std::uint32_t pinned(std::uint32_t v) {
  asm volatile("" : "+r"(v));
  return v;
}

template <class TOut>
__device__ __forceinline__ void store_c(const Params& p, int row, int col, float acc) {
  TOut* c = static_cast<TOut*>(p.c);
  const std::int64_t at = p.c_col_major ? static_cast<std::int64_t>(col) * p.ldc + row
                                        : static_cast<std::int64_t>(row) * p.ldc + col;
  float v = p.alpha * acc;
  if (p.beta != 0.0f) v += p.beta * widen(c[at]);  // C is not read when beta == 0
  c[at] = narrow<TOut>(v);
}

// The C x W slice of B under a block whose first column of A is B's row k0 (row-major B: one box
// of W x C at row k0 >> b_shift - b_shift 2 / 1 where B is packed into 128-byte rows at W = 16 /
// 32, else 0; column-major: min(C, 64)-deep boxes), into shared address `dst` on barrier `bar`.
template <bool BColMajor, int W>
__device__ __forceinline__ void load_b_slice(const Params& p, std::uint32_t dst, std::uint32_t bar, int k0, int C,
                                             int cb, int b_shift, std::uint64_t policy) {
  if constexpr (BColMajor) {
    for (int c0 = 0; c0 < C; c0 += cb) sm90::tma_load_2d(dst + c0 * W * 2, &p.tmap_b, bar, k0 + c0, 0, policy);
  } else {
    sm90::tma_load_2d(dst, &p.tmap_b, bar, 0, k0 >> b_shift, policy);
  }
}

// A's stored blocks first .. first + count - 1 (consecutive in A's values) into shared address
// `dst`, on `bar`: box (c0, 0, first) of `map` (tmap_a: one block; tmap_a_stage: a stage of them),
// c0 stepping over a 128-wide block's two min(C, 64)-wide halves. The same for A's blocks as
// 128-byte rows (a_rows_packed, C <= 32: one box).
__device__ __forceinline__ void load_a_blocks(const Params& p, const CUtensorMap* map, std::uint32_t dst,
                                              std::uint32_t bar, int first, int cb, std::uint64_t policy) {
  for (int c0 = 0; c0 < p.C; c0 += cb) sm90::tma_load_3d(dst + c0 * p.R * 2, map, bar, c0, 0, first, policy);
}

template <class TIn, class TOut, bool BColMajor, int NT, int WNT>
__global__ void __launch_bounds__(kThreads, min_ctas_per_sm(WNT)) skinny_gemm_kernel(const __grid_constant__ Params p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap();  // TMA: never launched there (skinny::rejection)
#else
  constexpr int W = NT * 8;  // tile width
  static_assert(NT == 2 || NT == 4 || NT == 8, "tile widths 16, 32, 64");
  static_assert(WNT == NT || WNT * 2 == NT, "a warp owns the whole width or half of it");
  constexpr int kColParts = NT / WNT;  // warps side by side across the width
  extern __shared__ unsigned char smem_raw[];
  __shared__ std::uint64_t full[kStages], empty[kStages];
  __shared__ int last_of_row;
  const std::uint32_t raw = sm90::smem_addr(smem_raw);
  unsigned char* const smem = smem_raw + (((raw + 1023u) & ~1023u) - raw);
  const std::uint32_t ring = sm90::smem_addr(smem);

  const int tid = static_cast<int>(threadIdx.x), warp = tid >> 5, lane = tid & 31;
  const int R = p.R, C = p.C, bps = p.blocks_per_stage;
  const int cb = C < 64 ? C : 64;  // columns of one A box (a 128-wide block takes two)
  const std::uint32_t a_bytes = static_cast<std::uint32_t>(R * C * 2);
  const std::uint32_t b_bytes = static_cast<std::uint32_t>(C * W * 2);

  // The next kernel in the stream may launch now, if it was launched to (programmatic dependent
  // launch): its CTAs take SMs as this grid's free them (tuning_skinny.hpp programmatic_launch).
  if (tid == 0) sm90::grid_launch_dependents();
  if (tid == 0) {
    sm90::tma_prefetch_map(&p.tmap_a);
    sm90::tma_prefetch_map(&p.tmap_b);
    if (p.lane_producer) sm90::tma_prefetch_map(&p.tmap_a_stage);
    for (int s = 0; s < kStages; ++s) {
      sm90::mbar_init(&full[s], 1);        // the producer's arrive_expect_tx
      sm90::mbar_init(&empty[s], kWarps);  // one arrival per consumer warp
    }
    sm90::mbar_fence_init();
  }
  // The piece record (DRAM after a flush) is read after the maps' prefetch and the barriers'
  // initialisation are issued, so that they run under its load: read first, ptxas put the stage
  // count's division ahead of thread 0's block, which then waited for it (perf_log entry 61: +0.9%).
  const sm90::Piece piece = p.pieces[blockIdx.x];
  __syncthreads();  // the only CTA-wide barrier: the producer warps leave when their loads are issued
  // The barriers' shared addresses, once: ptxas otherwise rebuilt them (S2UR of the CTA's shared
  // window and two LEAs) inside every wait's retry loop and before every release.
  const std::uint32_t full0 = pinned(sm90::smem_addr(full)), empty0 = pinned(sm90::smem_addr(empty));
  const int nstages = (piece.kb_end - piece.kb_begin + bps - 1) / bps;
  // Launched early behind another grid (plan.pdl), wait for it before any operand is touched: A,
  // B and C may be its output or input, the workspace and counters the previous run's. Nothing
  // before this line reads more than the kernel parameters and the plan's piece record. Returns
  // at once otherwise.
  sm90::grid_dependency_wait();

  if (warp >= kWarps) {  // producers: the A blocks of each stage and the B slice under each
    // Producer warp pw issues stages pw, pw + P, ...: one thread issues only ~5.4 TMA boxes a
    // microsecond (perf_log entry 60 part 10). A slot's stages all belong to one warp (P divides
    // kStages), so each warp waits on its own slots. The lanes hold a stage's block columns (one
    // each; kMaxBlocksPerStage <= 32) two of the warp's stages ahead: no load on the issue path.
    // A and B boxes go out block by block: issuing a stage's A boxes first measured 8-45% slower
    // (perf_log entry 17).
    const int pw = warp - kWarps;
    constexpr int P = kProducerWarps;
    static_assert(kStages % P == 0, "a slot's stages belong to one producer warp");
    const int kb_end = piece.kb_end;
    auto column = [&](int kb) { return kb < kb_end ? __ldg(p.col_idx + kb) : 0; };
    // A streams through once; B's slices are re-read by every piece with a block in that column.
    const std::uint64_t policy_a = sm90::l2_load_policy(sm90::L2Priority::evict_first);
    const std::uint64_t policy_b = sm90::l2_load_policy(sm90::L2Priority::evict_last);
    // Shared addresses of the ring and this lane's B slot, and B's row shift, once:
    // the producer's instructions per stage pace 64-wide tiles of small blocks (perf_log entry 59:
    // ~40 more a stage cost 18-32% at 32 x 32, N = 64).
    const std::uint32_t ring_base = pinned(ring), stage_stride = pinned(static_cast<std::uint32_t>(p.stage_bytes));
    const int b_shift = p.b_rows_packed ? (W == 16 ? 2 : 1) : 0;  // (b_rows_packed: W is 16 or 32)
    auto stage_column = [&](int s) { return lane < bps ? column(piece.kb_begin + s * bps + lane) : 0; };
    // Lane j holds block j's column and, where the lanes issue (lane_producer), issues block j's
    // boxes: ptxas turns the divergent issues into one loop over the active lanes (~6 instructions
    // a box), where one lane spent ~45 per block on a column window, a shuffle and two single-lane
    // issues (entry 57) - which bound many small blocks (16 x 16 / 16 x 32 at N = 16: +86% /
    // +38%) and 64-wide tiles (32 x 32 at N = 64: +6-12%, with the stage box), but cost 2-5% where
    // the stream of bytes bounds (all A boxes of a stage then all B slices: perf_log entries 17
    // and 57), so the other plans issue from lane 0, block by block.
    const std::uint32_t b_lane = pinned(static_cast<std::uint32_t>(p.stage_a_bytes) + lane * b_bytes);
    const std::uint32_t a_lane = pinned(lane * a_bytes);
    static_assert((kStages & (kStages - 1)) == 0, "a power-of-two ring");
    // Stage s, whose blocks start at A's stored block `first`; `col` is this lane's block column.
    // A's boxes go out before anything reads `col`: they need none, and the first stages' columns
    // land one DRAM latency after the piece record (perf_log entry 61: -1.3 to +6.7%, +1.4% over
    // the 22 cases measured).
    auto issue_stage = [&](int s, int first, int col) {
      const std::uint32_t slot = static_cast<std::uint32_t>(s) & (kStages - 1);
      const std::uint32_t phase = (static_cast<std::uint32_t>(s) / kStages) & 1;
      const int count = min(bps, kb_end - first);
      sm90::mbar_wait(empty0 + slot * 8, phase ^ 1);  // a fresh barrier passes parity 1
      const std::uint32_t a_dst = ring_base + slot * stage_stride, bar = full0 + slot * 8;
      if (lane == 0) sm90::mbar_arrive_expect_tx(bar, static_cast<std::uint32_t>(count) * (a_bytes + b_bytes));
      if (p.lane_producer) {
        __syncwarp();
        // A full stage's blocks are consecutive in A's values: one box (C <= 64, the plan's rule).
        if (count == bps) {
          if (lane == 0) sm90::tma_load_3d(a_dst, &p.tmap_a_stage, bar, 0, 0, first, policy_a);
        } else if (lane < count) {
          sm90::tma_load_3d(a_dst + a_lane, &p.tmap_a, bar, 0, 0, first + lane, policy_a);
        }
        if (lane < count) load_b_slice<BColMajor, W>(p, a_dst + b_lane, bar, col * C, C, cb, b_shift, policy_b);
        return;
      }
      for (int blk = 0; blk < count; ++blk) {
        if (lane == 0) load_a_blocks(p, &p.tmap_a, a_dst + blk * a_bytes, bar, first + blk, cb, policy_a);
        const int k0 = __shfl_sync(0xffffffffu, col, blk) * C;
        const std::uint32_t b_dst = a_dst + static_cast<std::uint32_t>(p.stage_a_bytes) + blk * b_bytes;
        if (lane == 0) load_b_slice<BColMajor, W>(p, b_dst, bar, k0, C, cb, b_shift, policy_b);
      }
    };
    // The warp's stages two at a time, each with its own column register reloaded right after its
    // stage is out (for the stage 2 P later): no register copy waits on a column's load, which a
    // rotating pair of registers made ptxas place before the A boxes.
    int col_even = stage_column(pw), col_odd = stage_column(pw + P);
    for (int s = pw; s < nstages; s += 2 * P) {
      issue_stage(s, piece.kb_begin + s * bps, col_even);
      col_even = stage_column(s + 2 * P);
      if (s + P >= nstages) break;
      issue_stage(s + P, piece.kb_begin + (s + P) * bps, col_odd);
      col_odd = stage_column(s + 3 * P);
    }
    return;
  }

  // Consumers: one strip of 16 rows and one column part each; the warps of a (strip, column part)
  // (k-groups) split its k16 steps.
  static_assert(kWarps == 8, "R <= 128: at most eight strips, one per warp");
  const int strips = R >> 4;
  const int tiles = strips * kColParts;  // (strip, column part) warp tiles: at most kWarps (warp_n_tiles)
  if (tiles > kWarps) __trap();  // never launched so (warp_n_tiles keeps whole widths at R = 128)
  const int kgroups = kWarps / tiles;
  const int strip = warp % strips;
  const int colpart = (warp / strips) % kColParts;
  const int kgroup = warp / tiles;
  const int log_ksteps = log2_of(C) - 4;
  const int ksteps = 1 << log_ksteps;
  // ldmatrix lane addressing: row within a 16-row (or 16-k) group, and which 8-wide half.
  const int lane_row = (lane & 7) + ((lane >> 3) & 1) * 8;
  const int lane_half = static_cast<int>(pinned(static_cast<std::uint32_t>(lane >> 4)));
  const int lane_n = (lane & 7) + (lane >> 4) * 8;  // column-major B: n row within a tile pair
  const int lane_khalf = (lane >> 3) & 1;
  // Loop-invariant parts of the ldmatrix addresses, so that a k16 step adds only its block's,
  // chunk's and step's offsets (perf_log entry 58: with the swizzle computed per step and a
  // division by the run-time chunk count, a step at width 64 was ~90 SASS instructions for 8 mma,
  // and the consumers bounded the 32 x 32 blocks at N = 64). Every box lands with the swizzle of
  // its row width: the 16-byte chunk index is XORed with the row's key (tma_swizzle.hpp
  // swizzle_key), and the rows a lane reads at every step share it - a step moves by whole
  // 16-row groups, rows 1024 bytes apart (512 at 32-byte rows).
  const int chunks_cb = cb / 8;  // 16-byte chunks per row of an A (or column-major B) box: 2, 4 or 8
  const int log_chunks_cb = log2_of(chunks_cb);
  const std::uint32_t box_row_bytes = static_cast<std::uint32_t>(cb * 2);
  // A's row a_m of this lane is, in 128-byte rows (a_rows_packed), part a_m % per of row a_m / per:
  // its chunks start at chunk (a_m % per) * chunks_cb of that row, under that row's key.
  const int a_m = strip * 16 + lane_row;
  const int a_per = p.a_rows_packed ? 64 / C : 1;  // A rows per 128-byte row
  const std::uint32_t a_row_bytes = p.a_rows_packed ? 128u : box_row_bytes;
  const std::uint32_t a_line0 = static_cast<std::uint32_t>(a_m / a_per) * a_row_bytes;
  const std::uint32_t a_line = pinned(a_line0);
  const std::uint32_t a_key = pinned(swizzle_key(a_line0, a_row_bytes));
  const int a_chunk_mask = static_cast<int>(a_row_bytes / 16) - 1;
  // The lane's first chunk: its part of a packed row, plus its 8-wide half (ldmatrix addressing).
  const int a_chunk_lane = static_cast<int>(pinned(static_cast<std::uint32_t>((a_m % a_per) * chunks_cb + lane_half)));
  const std::uint32_t a_box_bytes = static_cast<std::uint32_t>(R) * box_row_bytes;  // 128-wide blocks: two boxes
  // Row-major B: rows of W * 2 bytes; this lane reads row ks * 16 + lane_row, chunk bpair * 2 +
  // lane_half: its offset within a step's 16 rows, per n-tile pair.
  constexpr std::uint32_t kBRowBytes = W * 2;
  // Packed B (b_rows_packed) is the same bytes in 128-byte rows: the 128-byte swizzle of the
  // unswizzled offset. A step moves 16 * kBRowBytes = 512 (W = 16) or 1024 bytes; at 512 odd steps
  // flip bit 2 of the key (b_flip), at 1024 the key holds.
  std::uint32_t b_lane[WNT / 2];
  {
    const std::uint32_t b_line = static_cast<std::uint32_t>(lane_row) * kBRowBytes;
    const std::uint32_t b_key = swizzle_key(b_line, kBRowBytes);
#pragma unroll
    for (int pair = 0; pair < WNT / 2; ++pair) {
      const std::uint32_t chunk = static_cast<std::uint32_t>((colpart * (WNT / 2) + pair) * 2 + lane_half);
      const std::uint32_t offset = b_line + (chunk << 4);
      const std::uint32_t lane_offset =
          p.b_rows_packed ? offset ^ (swizzle_key(offset, 128) << 4) : b_line + ((chunk ^ b_key) << 4);
      b_lane[pair] = BColMajor ? 0u : pinned(lane_offset);
    }
  }
  const std::uint32_t b_flip = W == 16 ? pinned(p.b_rows_packed ? 64u : 0u) : 0u;
  // Column-major B: (k, n) boxes of cb-deep rows, one per n; this lane reads n row
  // bpair * 16 + lane_n, chunk k_chunk of it.
  const std::uint32_t bc_line0 = static_cast<std::uint32_t>(colpart * WNT * 8 + lane_n) * box_row_bytes;
  const std::uint32_t bc_line = BColMajor ? pinned(bc_line0) : 0u;
  const std::uint32_t bc_key = BColMajor ? pinned(swizzle_key(bc_line0, box_row_bytes)) : 0u;
  const std::uint32_t bc_box_bytes = static_cast<std::uint32_t>(W) * box_row_bytes;
  // The ring's base and the block sizes too (ptxas recomputed the 1024-byte alignment per stage).
  const std::uint32_t ring_base = pinned(ring), block_a_bytes = pinned(a_bytes), block_b_bytes = pinned(b_bytes);

  float acc[WNT][4];
#pragma unroll
  for (int j = 0; j < WNT; ++j)
#pragma unroll
    for (int e = 0; e < 4; ++e) acc[j][e] = 0.0f;

#pragma unroll 1
  for (int s = 0; s < nstages; ++s) {
    const int slot = s % kStages;
    const int first = piece.kb_begin + s * bps;
    const int count = min(bps, piece.kb_end - first);
    const std::uint32_t a_stage = ring_base + static_cast<std::uint32_t>(slot * p.stage_bytes);
    const std::uint32_t b_stage = a_stage + static_cast<std::uint32_t>(p.stage_a_bytes);
    sm90::mbar_wait(full0 + slot * 8, (s / kStages) & 1);
    // This warp's k16 steps of the stage: those whose index along the piece is kgroup modulo
    // kgroups (a fixed order: bitwise reproducible).
    const int step0 = (first - piece.kb_begin) << log_ksteps;
#pragma unroll 1
    for (int f = (kgroup - step0) & (kgroups - 1); f < (count << log_ksteps); f += kgroups) {
      const int blk = f >> log_ksteps, ks = f & (ksteps - 1);
      const int a_chunk = ks * 2 + a_chunk_lane;  // 16-byte chunk along the block row (or packed row)
      const std::uint32_t a_addr = a_stage + blk * block_a_bytes + ((ks * 2) >> log_chunks_cb) * a_box_bytes + a_line +
                                   (((a_chunk & a_chunk_mask) ^ a_key) << 4);
      std::uint32_t a[4];
      sm80::ldmatrix_x4(a, a_addr);
      const std::uint32_t b_base = b_stage + blk * block_b_bytes;
      const int k_chunk = ks * 2 + lane_khalf;  // column-major B: 16-byte chunk along k
      const std::uint32_t b_step = BColMajor ? b_base + (k_chunk >> log_chunks_cb) * bc_box_bytes + bc_line
                                             : b_base + static_cast<std::uint32_t>(ks) * (16 * kBRowBytes);
#pragma unroll
      for (int pair = 0; pair < WNT / 2; ++pair) {
        std::uint32_t b[4];  // b0, b1 of n-tile 2 * pair, then of 2 * pair + 1
        if constexpr (BColMajor) {
          sm80::ldmatrix_x4(b, b_step + pair * 16 * box_row_bytes + (((k_chunk & (chunks_cb - 1)) ^ bc_key) << 4));
        } else {
          sm80::ldmatrix_x4_trans(b, b_step + (b_lane[pair] ^ ((ks & 1) ? b_flip : 0u)));
        }
        sm80::mma_m16n8k16<std::is_same_v<TIn, __nv_bfloat16>>(acc[2 * pair], a, b[0], b[1]);
        sm80::mma_m16n8k16<std::is_same_v<TIn, __nv_bfloat16>>(acc[2 * pair + 1], a, b[2], b[3]);
      }
    }
    __syncwarp();
    if (lane == 0) sm90::mbar_arrive(empty0 + slot * 8);  // this warp is done reading the slot
  }

  // From here on only the consumer warps synchronise (named barrier 1). Every load of the piece
  // has landed (each warp waited for all of them), so the ring is free for the reduction once all
  // warps have finished reading it.
  sm90::named_barrier_sync(1, 32 * kWarps);
  float* red = reinterpret_cast<float*>(smem);
  constexpr int kFrag = WNT * 4 * 32;  // one warp's accumulators of one warp tile
  const int wtile = warp % tiles;       // (strip, column part)
  if (kgroups > 1) {
    if (kgroup > 0) {
      float* dst = red + ((kgroup - 1) * tiles + wtile) * kFrag;
#pragma unroll
      for (int j = 0; j < WNT; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) dst[(j * 4 + e) * 32 + lane] = acc[j][e];
    }
    sm90::named_barrier_sync(1, 32 * kWarps);
    if (kgroup == 0)
      for (int g = 1; g < kgroups; ++g) {
        const float* src = red + ((g - 1) * tiles + wtile) * kFrag;
#pragma unroll
        for (int j = 0; j < WNT; ++j)
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[j][e] += src[(j * 4 + e) * 32 + lane];
      }
  }
  // Accumulator (j, e) of lane: local row strip * 16 + lane / 4 + 8 * (e / 2), column
  // (colpart * WNT + j) * 8 + 2 * (lane % 4) + e % 2.
  const int row0 = piece.row * R;
  const int col0 = colpart * WNT * 8;
  if (piece.slot < 0) {
    if (kgroup != 0) return;
#pragma unroll
    for (int j = 0; j < WNT; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int row = row0 + strip * 16 + (lane >> 2) + (e >> 1) * 8;
        const int col = col0 + j * 8 + (lane & 3) * 2 + (e & 1);
        if (row < p.m && col < p.n) store_c<TOut>(p, row, col, acc[j][e]);
      }
    return;
  }

  float* part = p.partials + static_cast<std::int64_t>(piece.slot) * (R * W);
  if (kgroup == 0) {
#pragma unroll
    for (int j = 0; j < WNT; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int lr = strip * 16 + (lane >> 2) + (e >> 1) * 8;
        part[lr * W + col0 + j * 8 + (lane & 3) * 2 + (e & 1)] = acc[j][e];
      }
  }
  sm90::named_barrier_sync(1, 32 * kWarps);  // every partial write of the CTA before the ticket
  const int split = p.split_of_slot[piece.slot];
  const sm90::SplitRow sr = p.split_rows[split];
  if (tid == 0) last_of_row = sm90::atomic_add_acq_rel_gpu(p.counters + split, 1) == sr.count - 1;
  sm90::named_barrier_sync(1, 32 * kWarps);
  if (!last_of_row) return;
  // The row's sum: four consecutive elements per thread (float4), slot by slot in slot order
  // (bitwise reproducible), the slots' loads unrolled so that several are in flight at once.
  const int quads = R * W / 4;
  const float4* first = reinterpret_cast<const float4*>(p.partials + static_cast<std::int64_t>(sr.first_slot) * (R * W));
  for (int qd = tid; qd < quads; qd += 32 * kWarps) {
    float4 sum = __ldcg(first + qd);
#pragma unroll 4
    for (int q = 1; q < sr.count; ++q) {
      const float4 v = __ldcg(first + static_cast<std::int64_t>(q) * quads + qd);
      sum.x += v.x;
      sum.y += v.y;
      sum.z += v.z;
      sum.w += v.w;
    }
    const int row = row0 + qd * 4 / W, col = qd * 4 % W;
    if (row >= p.m) continue;
    const float s4[4] = {sum.x, sum.y, sum.z, sum.w};
#pragma unroll
    for (int e = 0; e < 4; ++e)
      if (col + e < p.n) store_c<TOut>(p, row, col + e, s4[e]);
  }
  if (tid == 0) p.counters[split] = 0;  // ready for the next run
#endif
}

// Launches (or, with grid == 0, only prepares: raises the shared-memory limit) the instantiation
// for TIn, output f32 or TIn, B layout, tile width and n8 tiles per warp (warp_n_tiles).
// `pdl`: with programmatic stream serialization (tuning_skinny.hpp programmatic_launch).
template <class TIn>
void launch_for(const Params& p, bool out_f32, bool b_col_major, int width, int warp_nt, int grid, int smem, bool pdl,
                cudaStream_t stream);
// CTAs of that instantiation one SM holds at once with `smem` bytes of dynamic shared memory.
template <class TIn>
int resident_per_sm(bool out_f32, bool b_col_major, int width, int warp_nt, int smem);

}  // namespace bsrflow::skinny
