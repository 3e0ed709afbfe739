// Compile-time shape of one Hopper BSR GEMM kernel instantiation: tile and stage geometry,
// shared-memory layout, the warpgroup split, and the wgmma operand descriptors. The producer,
// consumer and epilogue all read their constants from here so they cannot disagree.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "bsrflow/ops/sm90_gemm_params.hpp"
#include "bsrflow/ops/sm90_wgmma.cuh"
#include "bsrflow/ops/tuning_sm90.hpp"

namespace bsrflow::sm90 {

template <class TIn_, int R_, int KC_, int SW_, bool Swap_, bool BColMajor_, bool CopyOnly_, int G_ = 1,
          int ItemsPerStage_ = 1>
struct KernelTraits {
  using TIn = TIn_;
  static constexpr int R = R_;    // block height
  static constexpr int KC = KC_;  // K extent of one stage (a block or half of a 128-wide block)
  static constexpr int SW = SW_;  // swath: N columns of the output tile
  static constexpr bool kSwap = Swap_;
  static constexpr bool kBColMajor = BColMajor_;
  static constexpr bool kCopyOnly = CopyOnly_;
  static constexpr bool kBf16 = std::is_same_v<TIn, __nv_bfloat16>;
  // Row group: a tile covers G consecutive block rows, a stage kItemsPerStage items (an item is a
  // block column and the group's blocks in it, sm90_row_groups.hpp). G = 1: a tile is one block
  // row, a stage one chunk.
  static constexpr int G = G_;
  static constexpr bool kRowGroups = G > 1;
  // Row groups: items per stage, 1 or 2 (Sm90Config::items_per_stage). Two items (slots) per stage
  // pay the consumers' per-stage work (barrier wait, release, loop step) once per two items, in
  // ring slots twice as large (half as many fit): perf_log entries 50-51. Slot s's blocks start
  // kItemABytes * s into the A area, its B slice kItemBBytes * s into the B area.
  static constexpr int kItemsPerStage = ItemsPerStage_;

  static_assert(std::is_same_v<TIn, __half> || std::is_same_v<TIn, __nv_bfloat16>, "16-bit inputs only");
  static_assert(KC == 16 || KC == 32 || KC == 64, "k-chunk: one 32/64/128-byte swizzle row");
  static_assert(supported_swath(SW), "swath: 128, 256, 512 or 1024 columns");
  static_assert(kSwap ? (R == 16 || R == 32 || R == 64) : (R == 64 || R == 128),
                "direct orientation needs R in {64, 128}; swap-AB needs R in {16, 32, 64}");
  static_assert(!kRowGroups || (kSwap && G <= kMaxRowGroup && R * KC * 2 % 512 == 0),
                "row groups: swap-AB, at most kMaxRowGroup rows, blocks a whole number of swizzle patterns");
  static_assert(kItemsPerStage == 1 || (kRowGroups && kItemsPerStage == kMaxItemsPerStage),
                "two items per stage are a row-group form");

  // ---- Threads: warpgroup 0 = producer (one warp issues TMA), 1..2 = consumers ----------------
  static constexpr int kThreads = 384;
  static constexpr int kConsumers = kConsumerWarpgroups;
  // Warps of warpgroup 0 that issue loads, dealt stages in turn. Small blocks take a stage per
  // block (or per row-group item): one issuing thread's instruction stream bounded them (perf_log
  // entries 1-4, 49), so swap-AB kernels issue from two warps (two schedulers).
  static constexpr int kProducerWarps = kSwap && R <= 32 ? 2 : 1;
  // 384 threads x 168 registers (launch bounds) = 64512 at launch; the producer warpgroup gives
  // back 128 x 112, the consumers take 256 x 56: 56 * 128 + 224 * 256 = 64512. 56 rather than
  // the usual 40 leaves the producer loop room without relying on ptxas to squeeze it.
  static constexpr int kProducerRegs = 56;
  static constexpr int kConsumerRegs = 224;

  // ---- Per-consumer-warpgroup work ------------------------------------------------------------
  // direct, R = 128: warpgroup w owns rows [64w, 64w + 64) x all SW columns.
  // direct, R = 64:  warpgroup w owns all 64 rows x columns [w*SW/2, (w+1)*SW/2).
  // swap:            warpgroup w owns swath columns [w*SW/2, (w+1)*SW/2) as wgmma-M, in
  //                  64-column m-tiles, times all R rows as wgmma-N.
  static constexpr int kWgRows = kSwap ? R : 64;
  static constexpr int kWgCols = (!kSwap && R == 128) ? SW : SW / 2;
  static constexpr int kMmaN = kSwap ? R : kWgCols;            // wgmma N
  static constexpr int kMTiles = kSwap ? kWgCols / 64 : 1;       // wgmma issues per k16 step
  static constexpr int kAccPerTile = kMmaN / 2;                  // f32 accumulators per thread per tile
  static constexpr int kAccPerThread = G * kMTiles * kAccPerTile;  // one set per row of a group
  static_assert(kMmaN >= 16 && kMmaN <= 256, "wgmma N is 8..256");
  static_assert(kAccPerThread <= 128, "more than 128 accumulators per thread would spill");

  // ---- Shared memory, per stage ---------------------------------------------------------------
  // A: the (R, KC) block chunk, K-major, KC*2-byte swizzle rows; with row groups up to G whole
  //    blocks (KC = C), kBlockBytes apart, each swizzled as if it began the stage.
  // B: the (KC, SW) slice of the swath. Row-major B lands as SW/64 boxes of (KC rows, 64 cols),
  //    128-byte swizzle (MN-major for wgmma); column-major B as (SW rows = n, KC cols = k)
  //    K-major boxes of up to 256 rows.
  static constexpr int kRowBytesK = KC * 2;  // one K-major row of a chunk
  static constexpr SmemSwizzle kSwizzleK = swizzle_for_row_bytes(kRowBytesK);
  static constexpr int kBlockBytes = R * KC * 2;
  static constexpr int kItemABytes = G * kBlockBytes;  // at most (a row group's item may carry fewer)
  static constexpr int kItemBBytes = KC * SW * 2;
  static constexpr int kABytes = kItemsPerStage * kItemABytes;
  static constexpr int kAStride = (kABytes + 1023) / 1024 * 1024;  // swizzled tiles start 1024-aligned
  static constexpr int kBBytes = kItemsPerStage * kItemBBytes;
  static_assert(kItemBBytes % 1024 == 0 && kItemABytes % 512 == 0, "slots keep the swizzle alignment");
  static constexpr int kStageBytes = kAStride + kBBytes;
  static constexpr std::uint32_t kTxBytes = kABytes + kBBytes;  // what TMA delivers per stage (G = 1)
  static constexpr int kBBoxCols = kBColMajor ? (SW < 256 ? SW : 256) : 64;  // n extent of one box
  static constexpr int kBBoxes = SW / kBBoxCols;
  static constexpr int kBBoxBytes = kBBoxCols * KC * 2;
  // Row groups' stages are small (16 x 16: 18 KiB an item): 12 fit, as in the stand-alone program
  // that measured them (perf_log entry 48); with two items per stage, shared memory binds first.
  static constexpr int kMaxStages = kRowGroups ? kMaxStagesRowGroups : sm90::kMaxStages;

  // ---- Epilogue staging (per consumer warpgroup, after the ring) -------------------------------
  // The warpgroup's accumulators leave in chunks of kEpiRows x kEpiCols outputs (C orientation):
  //   direct: all 64 rows x 32 columns (R = 128) or 16 columns (R = 64, to keep a 5th stage),
  //           two buffers: with beta == 0 a chunk is staged in the output dtype and layout and
  //           TMA-stored while the next one is staged;
  //   swap:   all R rows x one 64-column m-tile (all four warps): the tiles of small blocks are
  //           short, so the fewest barriers per tile win (perf_log entry 2: half-m-tile chunks
  //           for TMA stores cost 10-20% at R = 16 / 32). With beta == 0 and 16-bit output a
  //           chunk is staged in C's dtype and layout by stmatrix into one of two buffers of
  //           kSwapChunkBytes and TMA-stored (epilogue_tma_swap); otherwise one f32 buffer.
  // The f32 path pads the row pitch and goes through copy_out (sm90_epilogue.cuh). Split pieces'
  // f32 partial tiles are TMA-stored in the direct orientation only (kTmaPartials); the swap
  // orientation's, whose f32 chunks would need twice its f32 buffer, leave straight from the
  // accumulators (epilogue_partials_swap).
  static constexpr bool kTmaPartials = !kSwap;
  static constexpr int kEpiRows = kSwap ? R : 64;
  static constexpr int kEpiCols = kSwap ? 64 : (R == 128 ? 32 : 16);
  static constexpr int kEpiChunks = kWgCols / kEpiCols;
  // 16-bit output into row-major C: the same buffer holds twice the columns (64 at R = 128, 32
  // at R = 64: 128- / 64-byte rows), written with the matching TMA swizzle so that the eight
  // rows of one fragment store fall in different banks; half as many chunks and barriers.
  static constexpr int kEpiCols16 = 2 * kEpiCols;
  static constexpr int kEpiRowBytes16 = kEpiCols16 * 2;
  static constexpr int kEpiPitch = kEpiCols + 4;  // floats; breaks the power-of-two row stride
  static constexpr int kEpiBufBytes = kEpiRows * kEpiCols * 4;  // one direct TMA-store chunk (f32 at most)
  // swap, 16-bit: one (R, 64) chunk with 128-byte rows (row-major C) or 2R-byte columns (column-major).
  static constexpr int kSwapChunkBytes = R * 64 * 2;
  static constexpr int kEpiF32Bytes = kEpiRows * kEpiPitch * 4;
  static constexpr int kEpiTmaBytes = kSwap ? 2 * kSwapChunkBytes : 2 * kEpiBufBytes;
  static constexpr int kEpiBytes = ((kEpiTmaBytes > kEpiF32Bytes ? kEpiTmaBytes : kEpiF32Bytes) + 127) / 128 * 128;
  // Warpgroup w's area starts w * kEpiStride after the ring: 1024-byte aligned, as swizzled TMA
  // sources need (the last area is not padded: 16 x 16 row groups fill 227 KiB to within 576 bytes).
  static constexpr int kEpiStride = (kEpiBytes + 1023) / 1024 * 1024;
  static_assert(kEpiBufBytes % 128 == 0, "TMA store sources stay 128-byte aligned");
  static_assert(kSwap || ((kEpiRowBytes16 == 64 || kEpiRowBytes16 == 128) && kEpiChunks % 2 == 0 &&
                          kEpiRows * kEpiRowBytes16 == kEpiBufBytes),
                "16-bit row-major chunks: a 64- or 128-byte swizzle row, filling one buffer");
  static_assert(kSwap || kEpiBufBytes % 1024 == 0, "swizzled TMA-store sources need 1024-byte alignment");
  static_assert(!kSwap || kSwapChunkBytes % 1024 == 0, "swizzled TMA-store sources need 1024-byte alignment");

  static constexpr int kBarrierBytes = 2 * kMaxStages * 8;  // full[] and empty[] mbarriers
  static constexpr int kAlignSlack = 1024;                  // dynamic smem is only 16-byte aligned
  // Bytes after the ring: epilogue areas, then barriers.
  static constexpr int kBarrierOffset = (kConsumers - 1) * kEpiStride + kEpiBytes;
  static constexpr int kFixedBytes = kBarrierOffset + kBarrierBytes + kAlignSlack;

  static constexpr int smem_bytes(int stages) { return stages * kStageBytes + kFixedBytes; }

  // ---- wgmma operand descriptors --------------------------------------------------------------
  // K-major chunk (rows of KC elements): 8-row groups are 8 * KC * 2 bytes apart.
  static constexpr std::uint64_t kDescK = make_smem_desc(0, 16, 8 * kRowBytesK, kSwizzleK);
  // MN-major row-major-B chunk: 64-wide MN chunks are KC * 128 bytes apart, 8 K-rows per 1024.
  static constexpr std::uint64_t kDescMN = make_smem_desc(0, KC * 128, 1024, SmemSwizzle::b128);
  // B's (K-major when B is column-major, MN-major when row-major).
  static constexpr std::uint64_t kDescB = kBColMajor ? kDescK : kDescMN;
  // Their high words (stride offset, swizzle) hold for every address.
  static constexpr std::uint32_t kDescHiK = static_cast<std::uint32_t>(kDescK >> 32);
  static constexpr std::uint32_t kDescHiB = static_cast<std::uint32_t>(kDescB >> 32);
  static BSRFLOW_SM90_HD constexpr std::uint64_t desc_k_major(std::uint32_t addr) { return desc_at(kDescK, addr); }
  static BSRFLOW_SM90_HD constexpr std::uint64_t desc_b(std::uint32_t addr) { return desc_at(kDescB, addr); }
  // Byte offset of swath column `col` (a multiple of 64) and of k16 step `ks` in a B stage.
  static __device__ __forceinline__ std::uint32_t b_offset(int col, int ks) {
    if constexpr (kBColMajor) return col * kRowBytesK + ks * 32;
    else return (col / 64) * (KC * 128) + ks * 2048;
  }
  static constexpr int kTransB = kBColMajor ? 0 : 1;  // row-major B is MN-major for wgmma
};

}  // namespace bsrflow::sm90
