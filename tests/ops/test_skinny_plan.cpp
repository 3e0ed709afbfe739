// CPU tests of the skinny GEMM's planning rules: when it applies (and the reason when not),
// its names, tile widths, stage sizes, shared memory and piece limits.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "bsrflow/ops/gemm_plan.hpp"
#include "bsrflow/ops/skinny_gemm.hpp"
#include "bsrflow/ops/tuning_skinny.hpp"
#include "support/fake_device.hpp"

using namespace bsrflow;

namespace {

GemmBsrOperand a_of(int R, int C) {
  GemmBsrOperand a;
  a.rows = 4096;
  a.cols = 11008;
  a.R = R;
  a.C = C;
  return a;
}

DenseDesc dense(int rows, int cols, std::int64_t ld, DType t = DType::f16) {
  return {rows, cols, ld, Layout::row_major, t};
}

}  // namespace

TEST_CASE("skinny plan: where the kernel applies and why not", "[ops][skinny]") {
  const DeviceInfo h100 = test::fake_h100();
  const DenseDesc b = dense(11008, 16, 16), c = dense(4096, 16, 16);
  CHECK(skinny::rejection(a_of(32, 32), DType::f16, b, c, h100).empty());
  CHECK(skinny::rejection(a_of(16, 128), DType::bf16, b, c, h100).empty());
  CHECK(skinny::rejection(a_of(32, 32), DType::f32, b, c, h100) == "the skinny kernel takes f16/bf16 inputs, not f32");
  DeviceInfo old = h100;
  old.name = "Tesla V100";
  old.cc_major = 7;
  CHECK(skinny::rejection(a_of(32, 32), DType::f16, b, c, old) ==
        "GPU Tesla V100 is sm_70; the skinny kernel needs sm_90 or newer (TMA loads)");
  DeviceInfo ampere = h100;
  ampere.name = "NVIDIA A100";
  ampere.cc_major = 8;
  CHECK(skinny::rejection(a_of(32, 32), DType::f16, b, c, ampere) ==
        "GPU NVIDIA A100 is sm_80; the skinny kernel needs sm_90 or newer (TMA loads)");
  CHECK(skinny::rejection(a_of(3, 3), DType::f16, b, c, h100) ==
        "block shape 3 x 3: the skinny kernel takes R, C in {16, 32, 64, 128}");
  CHECK(skinny::rejection(a_of(32, 48), DType::f16, b, c, h100) ==
        "block shape 32 x 48: the skinny kernel takes R, C in {16, 32, 64, 128}");
  CHECK(skinny::rejection(a_of(32, 32), DType::f16, dense(11008, 72, 72), dense(4096, 72, 72), h100) ==
        "N (72) is above 64, the skinny kernel's widest tile");
  CHECK(skinny::rejection(a_of(32, 32), DType::f16, dense(11008, 12, 16), dense(4096, 12, 16), h100) ==
        "N (12) is not a multiple of 8");
  CHECK(skinny::rejection(a_of(32, 32), DType::f16, dense(11008, 16, 20), c, h100) ==
        "ldb (20) is not a multiple of 8 (TMA needs 16-byte row strides)");
  // C has no layout or ld requirement beyond the GEMM's own.
  CHECK(skinny::rejection(a_of(32, 32), DType::f16, b, dense(4096, 16, 17), h100).empty());
}

TEST_CASE("skinny plan: names, widths, stages, shared memory", "[ops][skinny]") {
  CHECK(skinny::name(DType::f16, 32, 32, 16, 2, Layout::row_major) == "bsr_skinny_f16_r32c32_w16");
  CHECK(skinny::name(DType::bf16, 64, 128, 64, 8, Layout::col_major) == "bsr_skinny_bf16_r64c128_w64_bcol");
  CHECK(skinny::tile_width(8) == 16);
  CHECK(skinny::tile_width(16) == 16);
  CHECK(skinny::tile_width(24) == 32);
  CHECK(skinny::tile_width(40) == 64);
  CHECK(skinny::tile_width(64) == 64);
  // ~16 KiB stages: 16x16 blocks with a 16-wide slice are 1 KiB each.
  CHECK(skinny::blocks_per_stage(16, 16, 16) == skinny::kMaxBlocksPerStage);
  CHECK(skinny::blocks_per_stage(32, 32, 16) == 5);   // 3 KiB per block
  CHECK(skinny::blocks_per_stage(64, 32, 64) == 2);   // 8 KiB
  // 6 KiB blocks at width 64: three (18 KiB), not two, a stage; at narrower widths two.
  CHECK(skinny::blocks_per_stage(32, 32, 64) == 3);
  CHECK(skinny::blocks_per_stage(32, 64, 16) == 2);
  CHECK(skinny::blocks_per_stage(64, 32, 32) == 2);
  CHECK(skinny::blocks_per_stage(16, 64, 32) == 2);
  CHECK(skinny::blocks_per_stage(64, 64, 16) == 1);   // 10 KiB
  CHECK(skinny::blocks_per_stage(128, 128, 64) == 1);  // 48 KiB: one block per stage
  const DeviceInfo h100 = test::fake_h100();
  for (int R : {16, 32, 64, 128})
    for (int C : {16, 32, 64, 128})
      for (int w : {16, 32, 64}) {
        CAPTURE(R, C, w);
        const int bps = skinny::blocks_per_stage(R, C, w);
        const int a_bytes = skinny::stage_a_bytes(R, C, w), stage = skinny::stage_bytes(R, C, w);
        // Swizzled TMA boxes start 1024-aligned: A region and stage are whole KiB.
        CHECK(a_bytes % 1024 == 0);
        CHECK(stage % 1024 == 0);
        CHECK(a_bytes >= bps * 2 * R * C);
        CHECK(stage - a_bytes >= bps * 2 * C * w);
        for (const bool whole_rows : {false, true}) {
          const int smem = skinny::smem_bytes(R, C, w, skinny::warp_n_tiles(R, C, w, whole_rows));
          CHECK(smem >= skinny::kStages * stage + 1024);  // + the alignment slack
          CHECK(static_cast<std::size_t>(smem) <= h100.smem_per_block_optin);
        }
        // Where blocks share a stage, its size leaves room for three CTAs per SM (228 KiB, 1 KiB
        // reserved per CTA): sharing does not cost the narrow and half-width kernels a CTA.
        if (bps > 1) CHECK(3 * (skinny::kStages * stage + 1024 + 1024) <= 228 * 1024);
      }
  // The cross-warp reduction of R = 16 at width 32 (eight k-groups): 7 x 4 x 128 floats; at width 64
  // two column halves of four k-groups each: 3 x 2 x 4 x 128 floats.
  CHECK(skinny::smem_bytes(16, 16, 32, 4) >= 7 * 4 * 128 * 4);
  CHECK(skinny::smem_bytes(16, 16, 64, 8) >= 7 * 8 * 128 * 4);
  CHECK(skinny::smem_bytes(16, 16, 64, 4) >= 3 * 2 * 4 * 128 * 4);
}

TEST_CASE("skinny plan: which warps own which columns, and how many CTAs fit", "[ops][skinny]") {
  // Whole widths, except 64-wide tiles of blocks of at most 32 rows and 64 columns whose rows stay
  // whole: two 32-column halves there (16 accumulators a warp, three CTAs per SM; perf_log entry 58).
  for (int R : {16, 32, 64, 128})
    for (int C : {16, 32, 64, 128}) {
      CAPTURE(R, C);
      const bool small = R <= 32 && C <= 64;
      CHECK(skinny::warp_n_tiles(R, C, 16, true) == 2);
      CHECK(skinny::warp_n_tiles(R, C, 32, true) == 4);
      CHECK(skinny::warp_n_tiles(R, C, 64, true) == (small ? 4 : 8));
      CHECK(skinny::warp_n_tiles(R, C, 64, false) == 8);
      // Every (strip, column part) has at least one warp of the eight.
      CHECK((R / 16) * (64 / 8 / skinny::warp_n_tiles(R, C, 64, true)) <= skinny::kWarps);
    }
  CHECK(skinny::min_ctas_per_sm(4) == 3);
  CHECK(skinny::min_ctas_per_sm(8) == 2);
  // Three halves CTAs' shared memory fits the H100 / H200's 227 KiB.
  for (int R : {16, 32})
    for (int C : {16, 32, 64}) {
      CAPTURE(R, C);
      CHECK(3 * (skinny::smem_bytes(R, C, 64, 4) + 1024) <= 228 * 1024);
    }
  // Rows stay whole when every SM has one and the average holds at most 128 KiB of A: the suite's
  // 11008 x 64 x 4096, 32 x 32 (344 rows, 64 / 128 KiB at 25% / 50%) and 4096-row 16 x 16 (256 rows,
  // 86 KiB); not 4096 x 64 x 11008, 32 x 32 (128 rows: fewer than the SMs) nor 64 KiB blocks' rows of 256 KiB.
  CHECK(skinny::rows_stay_whole(344 * 32, 344, 132, 2048));
  CHECK(skinny::rows_stay_whole(344 * 64, 344, 132, 2048));
  CHECK(skinny::rows_stay_whole(256 * 172, 256, 132, 512));
  CHECK_FALSE(skinny::rows_stay_whole(128 * 86, 128, 132, 2048));
  CHECK_FALSE(skinny::rows_stay_whole(172 * 8, 172, 132, 32768));
  CHECK(skinny::name(DType::f16, 32, 32, 64, 4, Layout::row_major) == "bsr_skinny_f16_r32c32_w64_h32");
}

TEST_CASE("skinny plan: which plans issue their loads one lane per block", "[ops][skinny]") {
  // Measured (perf_log entry 57, H200): many small blocks a stage and 64-wide tiles of blocks up to
  // 32 x 32 with more than one a stage gain; the suite's 32 x 32 / 64 x 64 at N = 16 / 32 keep one
  // issuing lane.
  CHECK(skinny::blocks_per_stage(16, 32, 16) == 8);
  CHECK(skinny::lane_producer(16, 32, 16));   // +38%
  CHECK(skinny::lane_producer(16, 16, 16));   // 16 blocks a stage: +86%
  CHECK(skinny::lane_producer(32, 32, 64));   // 3 a stage (2 when measured), 64 wide: +6-12%
  CHECK_FALSE(skinny::lane_producer(32, 32, 16));  // 5 a stage: 2-5% slower with it
  CHECK_FALSE(skinny::lane_producer(32, 32, 32));  // 4 a stage: 3.5% slower
  CHECK_FALSE(skinny::lane_producer(64, 64, 64));  // one block a stage: nothing to gain
  CHECK_FALSE(skinny::lane_producer(64, 64, 16));
  CHECK_FALSE(skinny::lane_producer(64, 32, 64));  // 2 a stage, but 4 KiB blocks: 1.4% slower
  CHECK(skinny::lane_producer(16, 16, 64));   // 6 a stage: +82%
  for (int R : {16, 32, 64, 128})
    for (int C : {16, 32, 64, 128})
      for (int w : {16, 32, 64}) {
        CAPTURE(R, C, w);
        // Either producer path: a producer warp's lanes hold a stage's block columns, one each
        // (and the lane producer issues one block per lane; a stage box's block dimension stays
        // within TMA's 256).
        CHECK(skinny::blocks_per_stage(R, C, w) <= 32);
        if (skinny::lane_producer(R, C, w)) CHECK(C <= 64);  // a full stage is one box of (C, R, blocks) elements
      }
  CHECK(skinny::kStages % skinny::kProducerWarps == 0);  // a slot's stages belong to one producer warp
}

TEST_CASE("skinny plan: which operands load as 128-byte rows", "[ops][skinny]") {
  // A's blocks where their rows are 32 / 64 bytes and a block spans whole 1024-byte swizzle periods.
  CHECK(skinny::a_rows_packed(32, 32, 16));   // 2 KiB blocks: 16 rows of 128 bytes
  CHECK(skinny::a_rows_packed(16, 32, 32));   // 1 KiB
  CHECK_FALSE(skinny::a_rows_packed(32, 32, 64));  // width 64: 0.995 of the 64-byte rows
  CHECK(skinny::a_rows_packed(128, 16, 16));  // 4 KiB
  CHECK_FALSE(skinny::a_rows_packed(16, 16, 16));  // 512-byte blocks: the key would change per block
  CHECK_FALSE(skinny::a_rows_packed(32, 64, 16));  // rows are 128 bytes already
  for (int R : {16, 32, 64, 128})
    for (int C : {16, 32})
      for (int w : {16, 32, 64}) {
        CAPTURE(R, C, w);
        if (!skinny::a_rows_packed(R, C, w)) continue;
        CHECK((R * C * 2) % 1024 == 0);
        CHECK(R * C / 64 <= 256);  // a box dimension: a block's 128-byte rows
      }
  // B row-major, packed (ld == n == width 16 / 32), whole 128-byte rows over K, slices of whole
  // swizzle periods.
  CHECK(skinny::b_rows_packed(32, 16, true, 16, 16, 4096));
  CHECK(skinny::b_rows_packed(16, 32, true, 32, 32, 4098));  // K * 32 a multiple of 64
  CHECK_FALSE(skinny::b_rows_packed(32, 16, true, 16, 16, 4098));  // K * 16 is not
  CHECK_FALSE(skinny::b_rows_packed(16, 16, true, 16, 16, 4096));  // 512-byte slices
  CHECK_FALSE(skinny::b_rows_packed(32, 16, true, 24, 16, 4096));  // padded ld
  CHECK_FALSE(skinny::b_rows_packed(32, 16, true, 16, 8, 4096));   // n < width: ld 16 is padding
  CHECK_FALSE(skinny::b_rows_packed(32, 16, false, 16, 16, 4096)); // column-major
  CHECK_FALSE(skinny::b_rows_packed(32, 64, true, 64, 64, 4096));  // 128-byte rows already
}

TEST_CASE("skinny plan: piece limits", "[ops][skinny]") {
  // Pieces of the average row fill one wave of resident CTAs (here 3 per SM on 132 SMs: 396);
  // 32 x 32 blocks are 2 KiB, 64 x 64 blocks 8 KiB.
  CHECK(skinny::piece_limit(22016, 128, 172, 396, 132, 2048) == 72);  // 4096 x 11008, 32 x 32, 50%: 3 per row
  CHECK(skinny::piece_limit(2752, 64, 43, 396, 132, 8192) == 9);      // 64 x 64, 25%: 6 per row (43 / 9 -> 5 pieces)
  CHECK(skinny::piece_limit(2752, 131, 21, 396, 132, 8192) == 9);     // one row short of the SMs: 3 per row
  // Every SM has a row and the average row holds at most 128 KiB: it stays whole (up to 1.25 x
  // the average).
  CHECK(skinny::piece_limit(22016, 344, 64, 396, 132, 2048) == 80);   // 344 rows of 128 KiB
  CHECK(skinny::piece_limit(2752, 172, 16, 396, 132, 8192) == 20);    // 172 rows of 128 KiB (2 per row before entry 42)
  CHECK(skinny::piece_limit(2772, 132, 21, 396, 132, 2048) == 27);    // exactly one row per SM
  // Longer rows are cut as before: 172 rows of 256 KiB, 2 per row.
  CHECK(skinny::piece_limit(5504, 172, 32, 396, 132, 8192) == 20);
  CHECK(skinny::piece_limit(2772, 132, 21, 396, 132, 8192) == 9);     // 168 KiB per row: 3 per row
  // Short rows stay whole; one huge row is cut into at most kMaxPiecesPerRow pieces.
  CHECK(skinny::piece_limit(200, 30, 40, 396, 132, 2048) == skinny::kMinPieceBlocks);
  CHECK(skinny::piece_limit(100000, 1, 100000, 396, 132, 2048) == 1563);
  CHECK(skinny::piece_limit(0, 0, 0, 396, 132, 2048) == skinny::kMinPieceBlocks);
  CHECK(skinny::piece_limit(1000, 10, 100, 0, 132, 2048) == 125);  // nothing resident: one piece per row (x 1.25)
}

TEST_CASE("skinny plan: the rows of a partial last wave are cut to fill it", "[ops][skinny]") {
  using W = sm90::LastWave;
  auto same = [](W a, W b) { return a.first == b.first && a.pieces == b.pieces; };
  CHECK(same(skinny::last_wave(344, 264), W{264, 3}));  // 11008 x 64 x 4096, 32 x 32 on an H100
  CHECK(skinny::last_wave(344, 264).min_blocks == skinny::kMinPieceBlocks);
  CHECK(same(skinny::last_wave(300, 264), W{264, 3}));  // 36 rows: 7 each would be best; at most 3
  CHECK(same(skinny::last_wave(400, 264), W{264, 2}));  // 136 rows: 2 each
  CHECK(same(skinny::last_wave(529, 264), W{528, 3}));  // one row in the third wave
  CHECK(same(skinny::last_wave(264, 264), W{}));        // one full wave
  CHECK(same(skinny::last_wave(200, 264), W{}));        // fewer rows than CTAs (the piece limit's case)
  CHECK(same(skinny::last_wave(1024, 264), W{}));       // 232 rows nearly fill the last wave
  CHECK(same(skinny::last_wave(10, 0), W{}));
  CHECK(skinny::kLastWaveMaxPieces == 3);

  // On the host twin of the piece builder: positions from `first` on, in longest-first order.
  const std::vector<int> row_ptr = {0, 5, 10, 12, 13, 13, 18};  // lengths 5 5 2 1 0 5
  const sm90::HostPieceList h = sm90::build_pieces_host(row_ptr, 0, W{3, 3});
  // Order: rows 0, 1, 5 (5 blocks, whole), then 2 (2 blocks: 2 pieces), 3 (1 block), 4 (empty).
  REQUIRE(h.pieces.size() == 7);
  CHECK(h.pieces[2].row == 5);
  CHECK(h.pieces[2].slot == -1);
  CHECK(h.pieces[3].row == 2);
  CHECK(h.pieces[3].kb_begin == 10);
  CHECK(h.pieces[3].kb_end == 11);
  CHECK(h.pieces[4].kb_begin == 11);
  CHECK(h.pieces[4].kb_end == 12);
  REQUIRE(h.split_rows.size() == 1);
  CHECK(h.split_rows[0].row == 2);
  CHECK(h.split_rows[0].count == 2);
  CHECK(h.pieces[5].row == 3);
  CHECK(h.pieces[5].slot == -1);
  CHECK(h.pieces[6].row == 4);
  CHECK(h.pieces[6].kb_begin == h.pieces[6].kb_end);

  // With pieces of at least 8 blocks: rows of 40, 20 and 12 blocks in the last wave get 3, 2 and 1.
  const std::vector<int> long_rows = {0, 50, 90, 110, 122};  // lengths 50 40 20 12
  const sm90::HostPieceList m = sm90::build_pieces_host(long_rows, 0, W{1, 3, 8});
  REQUIRE(m.pieces.size() == 1 + 3 + 2 + 1);
  REQUIRE(m.split_rows.size() == 2);
  CHECK(m.split_rows[0].row == 1);
  CHECK(m.split_rows[0].count == 3);
  CHECK(m.split_rows[1].row == 2);
  CHECK(m.split_rows[1].count == 2);
  CHECK(m.pieces.back().row == 3);
  CHECK(m.pieces.back().slot == -1);
}

TEST_CASE("skinny plan: programmatic dependent launch where the CTAs fill most of a wave", "[ops][skinny]") {
  CHECK(skinny::kPdlMinWavePercent == 85);
  // H200 waves of 396 (three CTAs per SM) and 264 (two): the llm suite's shapes.
  CHECK(skinny::programmatic_launch(384, 396));  // 4096 x N x 11008, 32 x 32 at N = 16
  CHECK(skinny::programmatic_launch(344, 396));  // 11008 x N x 4096, 32 x 32: 87%
  CHECK(skinny::programmatic_launch(256, 264));  // 4096 x 64 x 11008, 64 x 64
  CHECK(skinny::programmatic_launch(688, 396));  // more pieces than one wave
  CHECK(skinny::programmatic_launch(337, 396));  // 85.1%
  CHECK_FALSE(skinny::programmatic_launch(336, 396));  // 84.8%
  CHECK_FALSE(skinny::programmatic_launch(320, 396));  // 64 x 64 at N = 16
  CHECK_FALSE(skinny::programmatic_launch(256, 396));  // 256 whole rows of 16 x 16: 1.08-1.20 slower with it
  CHECK_FALSE(skinny::programmatic_launch(172, 264));
  CHECK_FALSE(skinny::programmatic_launch(0, 396));
  CHECK_FALSE(skinny::programmatic_launch(10, 0));
}
