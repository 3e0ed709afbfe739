// The one struct that names a Hopper BSR GEMM kernel configuration. Everything that selects a
// kernel instantiation or sizes its launch is here; the printable name is derived from it
// (CUTLASS-profiler style), e.g. "bsr_sm90_f16_r64c64_swath256_s5",
// "bsr_sm90_f16_r16c16_swath512_s8_swap_bcol", "bsr_sm90_f16_r128c128_swath256_s4_pair" or
// "bsr_sm90_f16_r16c16_swath512_s12_swap_g4" ("_g4x2": two row-group items per stage).
#pragma once

#include <cstdint>
#include <string>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/formats/dense.hpp"

namespace bsrflow {

// Which operand goes on wgmma's M side.
//  direct: the BSR block rows are wgmma-M (64 per consumer warpgroup); needs R in {64, 128}.
//  swap:   "swap AB": the tile is computed transposed, the dense swath is wgmma-M and the R block
//          rows are wgmma-N (R in {16, 32, 64}); the choice for small blocks.
enum class GemmOrientation : std::uint8_t { direct, swap };

// The name part of a row-group geometry, shared by every configuration name (plans, tuned
// configurations, bsr_bench variants): "" for one block row per tile, "_g4" for row groups of 4,
// "_g4x2" with two items per ring stage.
inline std::string row_group_suffix(int row_group, int items_per_stage) {
  std::string s;
  if (row_group > 1) s += "_g" + std::to_string(row_group);
  if (items_per_stage > 1) s += "x" + std::to_string(items_per_stage);
  return s;
}

struct Sm90Config {
  DType in = DType::f16;  // f16 or bf16 (f32 accumulation)
  int R = 64;             // block height
  int C = 64;             // block width (the K extent of one stored block)
  int swath = 256;        // N columns of one output tile
  int stages = 4;         // shared-memory ring depth (one k-chunk of one block per stage)
  GemmOrientation orientation = GemmOrientation::direct;
  Layout b_layout = Layout::row_major;
  bool copy_only = false;  // speed-of-light probe: the same loads, no math, no stores
  int kc = 0;              // K extent of one stage; 0 = default_k_chunk()
  // CTAs per cluster (run time, like stages): 1, or 2 = a CTA pair on adjacent swaths of the
  // same block rows, each A chunk loaded once from L2 and multicast into both.
  int cluster = 1;
  // Block rows per tile: 1, or a row group of that many consecutive block rows (swap-AB, R in
  // {16, 32}, k-chunk = C): each stage brings one block column's B slice and the group's blocks in
  // that column, so rows sharing a column share its B load (sm90_row_groups.hpp).
  int row_group = 1;
  // Row groups: items per ring stage, 1 or 2 (16 x 16 only; tuning_sm90.hpp tuned_items_per_stage).
  int items_per_stage = 1;

  // Default K extent of one pipeline stage: a 128-wide block is cut into two 64-deep chunks so
  // that more stages fit in shared memory (and the 128-byte swizzle row holds 64 16-bit
  // elements). A smaller chunk (any of 16 / 32 / 64 dividing C) buys a deeper ring.
  constexpr int default_k_chunk() const { return C < 64 ? C : 64; }
  constexpr int k_chunk() const { return kc > 0 ? kc : default_k_chunk(); }
  constexpr int chunks_per_block() const { return C / k_chunk(); }
  constexpr bool swap() const { return orientation == GemmOrientation::swap; }

  std::string name() const {
    std::string s = "bsr_sm90_";
    s += dtype_name(in);
    s += "_r" + std::to_string(R) + "c" + std::to_string(C) + "_swath" + std::to_string(swath) + "_s" +
         std::to_string(stages);
    if (k_chunk() != default_k_chunk()) s += "_kc" + std::to_string(k_chunk());
    if (swap()) s += "_swap";
    if (b_layout == Layout::col_major) s += "_bcol";
    if (cluster == 2) s += "_pair";
    s += row_group_suffix(row_group, items_per_stage);
    if (copy_only) s += "_copy";
    return s;
  }

  friend constexpr bool operator==(const Sm90Config&, const Sm90Config&) = default;
};

}  // namespace bsrflow
