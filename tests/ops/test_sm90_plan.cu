// CPU tests of the Hopper BSR GEMM's host side: configuration names, wgmma descriptor encoding,
// the kernel registry against the tuning table, the planner's choices and fallback reasons (on a
// fake H100), the split rule and the schedule, and plan_gemm's argument errors. No GPU needed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/gemm_config.hpp"
#include "bsrflow/ops/gemm_plan.hpp"
#include "bsrflow/ops/sm90_choose.hpp"
#include "bsrflow/ops/sm90_kernels.hpp"
#include "bsrflow/ops/sm90_schedule_build.hpp"
#include "bsrflow/ops/sm90_kernel_traits.cuh"
#include "bsrflow/ops/sm90_epilogue.cuh"
#include "bsrflow/ops/sm90_wgmma.cuh"
#include "bsrflow/ops/tma_swizzle.hpp"
#include "bsrflow/ops/tuning_sm90.hpp"
#include "support/fake_device.hpp"

using namespace bsrflow;

// `expr` throws bsrflow::Error with code `errc` and a message containing `text`.
#define SM90_CHECK_ERROR(expr, errc, text)                            \
  do {                                                                \
    CHECK_THROWS_WITH(expr, Catch::Contains(text));                   \
    try {                                                             \
      (void)(expr);                                                   \
      FAIL_CHECK("no bsrflow::Error from " #expr);                    \
    } catch (const ::bsrflow::Error& sm90_error_) {                   \
      CHECK(sm90_error_.code() == (errc));                            \
    }                                                                 \
  } while (0)

namespace {

using test::fake_h100;

int g_storage[4];
GemmBsrOperand pattern(int M, int K, int R, int C, std::int64_t nnzb = 1) {
  return {M, K, R, C, nnzb, &g_storage[0], &g_storage[1], &g_storage[2]};
}
DenseDesc dense(int rows, int cols, DType t = DType::f16, Layout l = Layout::row_major, std::int64_t ld = 0) {
  return {rows, cols, ld > 0 ? ld : (l == Layout::row_major ? cols : rows), l, t};
}

}  // namespace

TEST_CASE("Sm90Config names derive from the configuration", "[ops][sm90]") {
  Sm90Config c;
  c.in = DType::f16;
  c.R = 64;
  c.C = 64;
  c.swath = 256;
  c.stages = 5;
  CHECK(c.name() == "bsr_sm90_f16_r64c64_swath256_s5");
  c.orientation = GemmOrientation::swap;
  c.in = DType::bf16;
  c.R = 16;
  c.C = 128;
  CHECK(c.name() == "bsr_sm90_bf16_r16c128_swath256_s5_swap");
  CHECK(c.k_chunk() == 64);
  CHECK(c.chunks_per_block() == 2);
  c.b_layout = Layout::col_major;
  c.copy_only = true;
  CHECK(c.name() == "bsr_sm90_bf16_r16c128_swath256_s5_swap_bcol_copy");
  c.kc = 32;
  CHECK(c.name() == "bsr_sm90_bf16_r16c128_swath256_s5_kc32_swap_bcol_copy");
  c.copy_only = false;
  c.kc = 0;
  c.cluster = 2;
  CHECK(c.name() == "bsr_sm90_bf16_r16c128_swath256_s5_swap_bcol_pair");
  c.cluster = 1;
  c.row_group = 4;
  CHECK(c.name() == "bsr_sm90_bf16_r16c128_swath256_s5_swap_bcol_g4");
  c.row_group = 1;
  c.C = 32;
  CHECK(c.k_chunk() == 32);
  CHECK(c.chunks_per_block() == 1);
}

TEST_CASE("wgmma shared-memory descriptors encode address, strides and swizzle", "[ops][sm90]") {
  using namespace bsrflow::sm90;
  // K-major chunks at shared address 0x400, as CUTLASS's make_gmma_desc prints them:
  // 128-byte rows (k-chunk 64): SBO 1024; 64-byte rows: SBO 512; 32-byte rows: SBO 256; LBO 16.
  CHECK(make_smem_desc(0x400, 16, 1024, SmemSwizzle::b128) == 0x4000004000010040ull);
  CHECK(make_smem_desc(0x400, 16, 512, SmemSwizzle::b64) == 0x8000002000010040ull);
  CHECK(make_smem_desc(0x400, 16, 256, SmemSwizzle::b32) == 0xC000001000010040ull);
  // MN-major 128-byte swizzle for a 64-deep chunk: LBO = 64 * 128 bytes between 64-wide MN chunks.
  const std::uint64_t mn = make_smem_desc(0x2000, 64 * 128, 1024, SmemSwizzle::b128);
  CHECK((mn & 0x3FFF) == 0x200);
  CHECK(((mn >> 16) & 0x3FFF) == 512);
  CHECK(((mn >> 32) & 0x3FFF) == 64);
  CHECK((mn >> 62) == 1);
  CHECK(swizzle_for_row_bytes(128) == SmemSwizzle::b128);
  CHECK(swizzle_for_row_bytes(64) == SmemSwizzle::b64);
  CHECK(swizzle_for_row_bytes(32) == SmemSwizzle::b32);
}

TEST_CASE("wgmma descriptors moved by adding to their low word equal descriptors built at the address",
          "[ops][sm90]") {
  using namespace bsrflow::sm90;
  // The consumers build each descriptor as a stage-0 low word plus (stage, block, k-step) offset / 16
  // beside a constant high word (sm90_consumer.cuh stage_descriptors, mma_stage).
  using K16 = KernelTraits<__half, 16, 16, 512, true, false, false, 4>;  // 32-byte K rows, MN-major B
  using K64 = KernelTraits<__nv_bfloat16, 64, 64, 256, false, true, false>;  // 128-byte rows, K-major B
  for (std::uint32_t base : {0x400u, 0x2000u, 0x10400u}) {
    for (std::uint32_t offset : {0u, 32u, 512u, 0x4800u, 8u * 0x4800u + 3u * 512u}) {  // all below 227 KiB
      CAPTURE(base, offset);
      const auto lo16 = static_cast<std::uint32_t>(K16::desc_k_major(base));
      CHECK(desc_from_words(lo16 + offset / 16, K16::kDescHiK) == K16::desc_k_major(base + offset));
      const auto lo16b = static_cast<std::uint32_t>(K16::desc_b(base));
      CHECK(desc_from_words(lo16b + offset / 16, K16::kDescHiB) == K16::desc_b(base + offset));
      CHECK(K16::desc_b(base) == make_smem_desc(base, 16 * 128, 1024, SmemSwizzle::b128));
      const auto lo64b = static_cast<std::uint32_t>(K64::desc_b(base));
      CHECK(desc_from_words(lo64b + offset / 16, K64::kDescHiB) == K64::desc_b(base + offset));
      CHECK(K64::desc_b(base) == make_smem_desc(base, 16, 1024, SmemSwizzle::b128));
    }
  }
  // The largest shared address a stage can reach keeps the start-address field from carrying.
  CHECK(static_cast<std::uint32_t>(K16::desc_k_major(227u * 1024u)) >> 16 == 1u);
}

TEST_CASE("Epilogue chunks: the stagers' per-lane swizzle keys are the tensor map's swizzle", "[ops][sm90]") {
  using namespace bsrflow::sm90;
  // The plan swizzles a TMA-stored chunk by the width of its contiguous dimension where TMA can.
  CHECK(epilogue_swizzle_bytes(128) == 128);  // f32 rows at R = 128, 16-bit columns of 64 rows
  CHECK(epilogue_swizzle_bytes(64) == 64);    // f32 rows at R = 64
  CHECK(epilogue_swizzle_bytes(32) == 32);
  CHECK(epilogue_swizzle_bytes(256) == 0);    // f32 columns of 64 rows: none
  CHECK(epilogue_swizzle_bytes(16) == 0);
  CHECK(epilogue_swizzle_bytes(0) == 0);
  // sm90_epilogue.cuh's stagers place value e of accumulator pair i of lane `lane` in warp `warp`
  // (wgmma fragment: row warp * 16 + lane / 4 + 8 ((i / 2) % 2), column 8 (i / 4) + 2 (lane % 4) + e)
  // with a key taken from the lane alone; here against swizzled_offset over a whole chunk, every byte
  // of the chunk written exactly once.
  for (int cols : {16, 32}) {  // KernelTraits::kEpiCols at R = 64 / 128: f32 rows of 64 / 128 bytes
    CAPTURE(cols);
    const int row_bytes = cols * 4;
    std::vector<int> f32_seen(64 * row_bytes, 0), c16_seen(cols * 128, 0);
    for (int warp = 0; warp < 4; ++warp)
      for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < cols / 2; i += 2) {
          const int row = warp * 16 + lane / 4 + 8 * ((i >> 1) & 1);
          const int col = 8 * (i >> 2) + 2 * (lane & 3);
          const std::uint32_t f = staged_f32_pair(row_bytes, warp, lane, i);
          CHECK(f == swizzled_offset(static_cast<std::uint32_t>(row * row_bytes + col * 4), row_bytes));
          for (int b = 0; b < 8; ++b) ++f32_seen[f + b];  // the pair: 8 bytes
          for (int e = 0; e < 2; ++e) {
            const std::uint32_t c = staged_col16_value(warp, lane, i, e);
            CHECK(c == swizzled_offset(static_cast<std::uint32_t>((col + e) * 128 + row * 2), 128));
            for (int b = 0; b < 2; ++b) ++c16_seen[c + b];
          }
        }
    CHECK(std::count(f32_seen.begin(), f32_seen.end(), 1) == static_cast<long>(f32_seen.size()));
    CHECK(std::count(c16_seen.begin(), c16_seen.end(), 1) == static_cast<long>(c16_seen.size()));
  }
}

TEST_CASE("Every tuned configuration is instantiated and fits an H100", "[ops][sm90]") {
  const DeviceInfo h100 = fake_h100();
  for (DType in : {DType::f16, DType::bf16})
    for (Layout bl : {Layout::row_major, Layout::col_major})
      for (int R : {16, 32, 64, 128})
        for (int C : {16, 32, 64, 128}) {
          CAPTURE(dtype_name(in), bl == Layout::row_major, R, C);
          // 2 of the 16 blocks stored: 12.5%, the density the row-group rule reads.
          const sm90::Choice choice =
              sm90::choose(pattern(4 * R, 4 * C, R, C, 2), in, dense(4 * C, 256, in, bl, bl == Layout::row_major ? 256 : 4 * C),
                           dense(4 * R, 256, DType::f32), GemmOptions{}, h100);
          REQUIRE(choice.use_sm90);
          CHECK(choice.reason.empty());
          REQUIRE(choice.entry != nullptr);
          CHECK(choice.config.stages >= sm90::kMinStages);
          CHECK(choice.entry->smem_bytes(choice.config.stages) <= static_cast<int>(h100.smem_per_block_optin));
          // 16 x 16 and 32 x 32 at 12.5%, either B layout: row groups of 4 at swath 512 / 256
          // (12 stages of 18 KiB / 8 of 24 KiB); 16 x 16 at any N.
          const bool grouped = (R == 16 || R == 32) && C == R;
          const int one_row_swath = sm90::tuned_for(R, C, bl, 256, true).swath;
          CHECK(choice.config.swath == (grouped ? sm90::row_group_swath(R) : one_row_swath));
          CHECK(choice.config.orientation == sm90::tuned_for(R, C, bl, 256, true).orientation);
          CHECK(one_row_swath == (R <= 32 ? 512 : 256));  // N = 256: no 1024-wide swath
          CHECK(choice.config.row_group == (grouped ? 4 : 1));
          CHECK(choice.config.items_per_stage == 1);  // one item per stage on the H100's 3.35 TB/s
          if (grouped) CHECK(choice.config.stages == (R == 16 ? 12 : 8));
          // One row per tile takes swath 1024 (six 32 KiB stages) at 16 x 16 for N > 512 with row-major B.
          if (R == 16 && C == 16 && bl == Layout::row_major) {
            const sm90::Choice wide = sm90::choose(pattern(4 * R, 4 * C, R, C, 2), in, dense(4 * C, 1024, in, bl, 1024),
                                                   dense(4 * R, 1024, DType::f32), GemmOptions{}, h100);
            REQUIRE(wide.use_sm90);
            CHECK(wide.config.row_group == 4);
            CHECK(wide.config.swath == 512);
            GemmOptions one_row;
            one_row.row_group = 1;
            const sm90::Choice single = sm90::choose(pattern(4 * R, 4 * C, R, C, 2), in, dense(4 * C, 1024, in, bl, 1024),
                                                     dense(4 * R, 1024, DType::f32), one_row, h100);
            REQUIRE(single.use_sm90);
            CHECK(single.config.swath == 1024);
            CHECK(single.config.stages == 6);
            CHECK(sm90::tuned_for(R, C, bl, 513, true).swath == 1024);
            CHECK(sm90::tuned_for(R, C, bl, 512, true).swath == 512);
            // A caller's geometry names a one-row kernel.
            GemmOptions named;
            named.swath = 512;
            CHECK(sm90::choose(pattern(4 * R, 4 * C, R, C, 2), in, dense(4 * C, 1024, in, bl, 1024),
                               dense(4 * R, 1024, DType::f32), named, h100)
                      .config.row_group == 1);
          }
          CHECK(choice.config.cluster == (R >= 64 ? 2 : 1));
          // Tuned chunks (tuned_k_chunk) with row-major B: 32 at R <= 32 for C >= 64.
          const bool row = bl == Layout::row_major;
          const int tuned_kc = row && R <= 32 && C >= 64 ? 32 : std::min(C, 64);
          CHECK(choice.config.k_chunk() == tuned_kc);
        }
  // Registry entries are unique, and every one fits at least the minimum ring.
  std::set<std::string> names;
  for (const sm90::KernelEntry& e : sm90::all_kernels()) {
    Sm90Config c;
    c.in = e.key.in;
    c.R = e.key.R;
    c.C = e.key.k_chunk;
    c.swath = e.key.swath;
    c.orientation = e.key.swap ? GemmOrientation::swap : GemmOrientation::direct;
    c.b_layout = e.key.b_col_major ? Layout::col_major : Layout::row_major;
    c.copy_only = e.key.copy_only;
    c.row_group = e.key.row_group;
    c.items_per_stage = e.key.items_per_stage;
    CHECK(names.insert(c.name()).second);
    CHECK(sm90::max_stages(e, h100) >= sm90::kMinStages);
    CHECK(e.function != nullptr);
  }
}

TEST_CASE("64-row blocks: the 512-wide swath for near-equal rows, row-major B, C >= 32, N >= 1024", "[ops][sm90]") {
  const DeviceInfo h100 = fake_h100();
  // The row rule: the longest row at most twice the average.
  CHECK(sm90::wide_swath_rows(16, 16 * 128, 128));       // uniform rows
  CHECK(sm90::wide_swath_rows(32, 16 * 128, 128));       // exactly twice the average
  CHECK_FALSE(sm90::wide_swath_rows(33, 16 * 128, 128));
  CHECK_FALSE(sm90::wide_swath_rows(0, 0, 128));         // no blocks
  // Where the rows matter at all.
  CHECK(sm90::wide_swath_candidate(64, 64, Layout::row_major, 1024));
  CHECK(sm90::wide_swath_candidate(64, 32, Layout::row_major, 8192));
  CHECK_FALSE(sm90::wide_swath_candidate(64, 16, Layout::row_major, 8192));
  CHECK_FALSE(sm90::wide_swath_candidate(64, 64, Layout::col_major, 8192));
  CHECK_FALSE(sm90::wide_swath_candidate(64, 64, Layout::row_major, 1016));
  CHECK_FALSE(sm90::wide_swath_candidate(128, 128, Layout::row_major, 8192));
  CHECK_FALSE(sm90::wide_swath_candidate(32, 32, Layout::row_major, 8192));
  for (const int C : {32, 64, 128}) {
    CAPTURE(C);
    CHECK(sm90::tuned_for(64, C, Layout::row_major, 8192, true).swath == 512);
    CHECK(sm90::tuned_for(64, C, Layout::row_major, 8192, false).swath == 256);
    CHECK(sm90::tuned_for(64, C, Layout::row_major, 8192, true).orientation == GemmOrientation::direct);
  }
  CHECK(sm90::tuned_for(64, 16, Layout::row_major, 8192, true).swath == 256);
  CHECK(sm90::tuned_for(64, 64, Layout::col_major, 8192, true).swath == 256);
  CHECK(sm90::tuned_for(64, 64, Layout::row_major, 512, true).swath == 256);
  CHECK(sm90::tuned_for(128, 128, Layout::row_major, 8192, true).swath == 256);
  // The planner's choice with the rows measured near-equal: the wide kernel exists for both
  // input dtypes (row-major B), 5 stages of 36 KiB, in pairs.
  for (const DType in : {DType::f16, DType::bf16}) {
    const sm90::Choice wide = sm90::choose(pattern(4 * 64, 4 * 64, 64, 64), in, dense(4 * 64, 1024, in),
                                           dense(4 * 64, 1024, DType::f32), GemmOptions{}, h100, true);
    REQUIRE(wide.use_sm90);
    CHECK(wide.config.name() == "bsr_sm90_" + std::string(dtype_name(in)) + "_r64c64_swath512_s5_kc32_pair");
    const sm90::Choice standard = sm90::choose(pattern(4 * 64, 4 * 64, 64, 64), in, dense(4 * 64, 1024, in),
                                               dense(4 * 64, 1024, DType::f32), GemmOptions{}, h100, false);
    REQUIRE(standard.use_sm90);
    CHECK(standard.config.name() == "bsr_sm90_" + std::string(dtype_name(in)) + "_r64c64_swath256_s5_pair");
  }
  // Options that fix the k-chunk, the orientation or the swath make the rows irrelevant: the
  // standard swath (or the asked one), no error even when the rows were measured near-equal.
  const GemmBsrOperand a64 = pattern(4 * 64, 4 * 64, 64, 64);
  const DenseDesc b1024 = dense(4 * 64, 1024);
  CHECK(sm90::choice_reads_rows(a64, b1024, GemmOptions{}));
  CHECK_FALSE(sm90::choice_reads_rows(a64, dense(4 * 64, 512), GemmOptions{}));
  CHECK_FALSE(sm90::choice_reads_rows(pattern(4 * 128, 4 * 128, 128, 128), b1024, GemmOptions{}));
  GemmOptions chunk64;
  chunk64.k_chunk = 64;
  GemmOptions direct;
  direct.orientation = GemmOrientation::direct;
  for (const GemmOptions& fixed : {chunk64, direct}) {
    CHECK_FALSE(sm90::choice_reads_rows(a64, b1024, fixed));
    const sm90::Choice c = sm90::choose(a64, DType::f16, b1024, dense(4 * 64, 1024), fixed, h100, true);
    REQUIRE(c.use_sm90);
    CHECK(c.config.swath == 256);
    CHECK(c.config.k_chunk() == 64);
  }
  // An explicit swath 512 at R = 64 takes the 32-deep kernel too.
  GemmOptions sw512;
  sw512.swath = 512;
  const sm90::Choice asked = sm90::choose(pattern(4 * 64, 4 * 64, 64, 64), DType::f16, dense(4 * 64, 1024),
                                          dense(4 * 64, 1024), sw512, h100);
  REQUIRE(asked.use_sm90);
  CHECK(asked.config.k_chunk() == 32);
}

TEST_CASE("The planner says why the reference kernel runs", "[ops][sm90]") {
  const DeviceInfo h100 = fake_h100();
  const GemmOptions automatic;
  auto why = [&](const GemmBsrOperand& a, DType in, const DenseDesc& b, const DenseDesc& c,
                 const DeviceInfo& d) {
    const sm90::Choice choice = sm90::choose(a, in, b, c, automatic, d);
    CHECK_FALSE(choice.use_sm90);
    return choice.reason;
  };
  CHECK(why(pattern(64, 64, 16, 16), DType::f32, dense(64, 64, DType::f32), dense(64, 64, DType::f32), h100) ==
        "the sm90 kernel takes f16/bf16 inputs, not f32");
  DeviceInfo a100 = h100;
  a100.name = "NVIDIA A100";
  a100.cc_major = 8;
  CHECK(why(pattern(64, 64, 16, 16), DType::f16, dense(64, 64), dense(64, 64), a100) ==
        "GPU NVIDIA A100 is sm_80; the sm90 kernel needs sm_90");
  CHECK(why(pattern(63, 63, 3, 3), DType::f16, dense(63, 64), dense(63, 64), h100) ==
        "block shape 3 x 3: the sm90 kernel takes R, C in {16, 32, 64, 128}");
  CHECK(why(pattern(64, 64, 16, 8), DType::f16, dense(64, 64), dense(64, 64), h100) ==
        "block shape 16 x 8: the sm90 kernel takes R, C in {16, 32, 64, 128}");
  CHECK(why(pattern(64, 64, 16, 16), DType::f16, dense(64, 60), dense(64, 60), h100) ==
        "N (60) is not a multiple of 8");
  CHECK(why(pattern(64, 64, 16, 16), DType::f16, dense(64, 64, DType::f16, Layout::row_major, 68), dense(64, 64),
            h100) == "ldb (68) is not a multiple of 8 (TMA needs 16-byte aligned rows)");
  CHECK(why(pattern(64, 60, 16, 16), DType::f16, dense(60, 64, DType::f16, Layout::col_major), dense(64, 64), h100) ==
        "ldb (60) is not a multiple of 8 (TMA needs 16-byte aligned rows)");
  CHECK(why(pattern(60, 64, 16, 16), DType::f16, dense(64, 64), dense(60, 64, DType::f32, Layout::col_major), h100) ==
        "ldc (60) is not a multiple of 8 (vector stores need it)");
  GemmOptions no_such;
  no_such.swath = 384;
  const sm90::Choice odd = sm90::choose(pattern(64, 64, 64, 64), DType::f16, dense(64, 512), dense(64, 512), no_such, h100);
  CHECK_FALSE(odd.use_sm90);
  CHECK_THAT(odd.reason, Catch::StartsWith("no sm90 kernel is instantiated for bsr_sm90_f16_r64c64_swath384"));
  GemmOptions reference;
  reference.kernel = GemmOptions::Choice::reference;
  CHECK(sm90::choose(pattern(64, 64, 64, 64), DType::f16, dense(64, 64), dense(64, 64), reference, h100).reason ==
        "GemmOptions asked for the reference kernel");
}

TEST_CASE("The planner honours and checks explicit choices", "[ops][sm90]") {
  const DeviceInfo h100 = fake_h100();
  GemmOptions forced;
  forced.kernel = GemmOptions::Choice::sm90;
  SM90_CHECK_ERROR(sm90::choose(pattern(63, 63, 3, 3), DType::f16, dense(63, 64), dense(63, 64), forced, h100),
                   Errc::unsupported,
                   "GemmOptions asked for the sm90 kernel, but block shape 3 x 3: the sm90 kernel takes R, C in "
                   "{16, 32, 64, 128}");
  forced.stages = 9;
  SM90_CHECK_ERROR(sm90::choose(pattern(64, 64, 64, 64), DType::f16, dense(64, 64), dense(64, 64), forced, h100),
                   Errc::invalid_argument, "GemmOptions::stages (9) must be in [2, ");
  forced.stages = 3;
  forced.swath = 128;
  forced.orientation = GemmOrientation::direct;
  const sm90::Choice c =
      sm90::choose(pattern(128, 128, 128, 128), DType::f16, dense(128, 128), dense(128, 128), forced, h100);
  CHECK(c.use_sm90);
  // Pairs (tuned); no 32-deep swath-128 kernel, so the default chunk.
  CHECK(c.config.name() == "bsr_sm90_f16_r128c128_swath128_s3_pair");
  // A shallower k-chunk buys a deeper ring (and is named).
  GemmOptions kc32;
  kc32.k_chunk = 32;
  const sm90::Choice deep =
      sm90::choose(pattern(128, 128, 128, 128), DType::f16, dense(128, 256), dense(128, 256), kc32, h100);
  CHECK(deep.config.name() == "bsr_sm90_f16_r128c128_swath256_s8_kc32_pair");
  CHECK(deep.config.chunks_per_block() == 4);
  kc32.k_chunk = 48;
  SM90_CHECK_ERROR(sm90::choose(pattern(128, 128, 128, 128), DType::f16, dense(128, 256), dense(128, 256), kc32, h100),
                   Errc::invalid_argument, "GemmOptions::k_chunk (48) must be 16, 32 or 64 and divide C (128)");
  kc32.k_chunk = 64;
  SM90_CHECK_ERROR(sm90::choose(pattern(128, 96, 128, 32), DType::f16, dense(96, 256), dense(128, 256), kc32, h100),
                   Errc::invalid_argument, "GemmOptions::k_chunk (64) must be 16, 32 or 64 and divide C (32)");
  // The tuned cluster size and k-chunk: pairs for R >= 64; 128-row blocks take the default
  // 64-deep chunks (4 stages; 32-deep ones lost once the output was held, perf_log entry 54).
  CHECK(sm90::tuned_cluster(128) == 2);
  CHECK(sm90::tuned_cluster(64) == 2);
  CHECK(sm90::tuned_cluster(32) == 1);
  CHECK(sm90::tuned_k_chunk(128, 128, Layout::row_major, 256) == 0);
  CHECK(sm90::tuned_k_chunk(128, 128, Layout::col_major, 256) == 0);
  CHECK(sm90::tuned_k_chunk(128, 32, Layout::row_major, 256) == 0);
  CHECK(sm90::tuned_k_chunk(64, 64, Layout::row_major, 256) == 0);
  // Swap-AB blocks at least 64 wide: 32-deep chunks with row-major B only.
  CHECK(sm90::tuned_k_chunk(16, 64, Layout::row_major, 512) == 32);
  CHECK(sm90::tuned_k_chunk(16, 128, Layout::row_major, 512) == 32);
  CHECK(sm90::tuned_k_chunk(16, 32, Layout::row_major, 512) == 0);
  CHECK(sm90::tuned_k_chunk(32, 128, Layout::row_major, 512) == 32);
  CHECK(sm90::tuned_k_chunk(32, 64, Layout::row_major, 512) == 32);
  CHECK(sm90::tuned_k_chunk(16, 64, Layout::col_major, 512) == 0);
  CHECK(sm90::tuned_k_chunk(16, 16, Layout::row_major, 512) == 0);
  CHECK(sm90::tuned_k_chunk(32, 16, Layout::row_major, 512) == 0);
  CHECK(sm90::tuned_k_chunk(64, 128, Layout::row_major, 256) == 0);
  // 64-row blocks at swath 512 (near-equal rows): 32-deep chunks, pairs or not, row-major B.
  CHECK(sm90::tuned_k_chunk(64, 64, Layout::row_major, 512) == 32);
  CHECK(sm90::tuned_k_chunk(64, 128, Layout::row_major, 512) == 32);
  CHECK(sm90::tuned_k_chunk(64, 32, Layout::row_major, 512) == 32);
  CHECK(sm90::tuned_k_chunk(64, 64, Layout::col_major, 512) == 0);
  CHECK(sm90::choose(pattern(64, 256, 16, 64, 1), DType::f16, dense(256, 1024), dense(64, 1024), GemmOptions{}, h100)
            .config.name() == "bsr_sm90_f16_r16c64_swath512_s6_kc32_swap");
  CHECK(sm90::choose(pattern(64, 256, 32, 128, 1), DType::bf16, dense(256, 1024, DType::bf16), dense(64, 1024),
                     GemmOptions{}, h100)
            .config.name() == "bsr_sm90_bf16_r32c128_swath512_s6_kc32_swap");
  CHECK(sm90::choose(pattern(64, 256, 16, 64, 1), DType::f16, dense(256, 1024, DType::f16, Layout::col_major, 256),
                     dense(64, 1024), GemmOptions{}, h100)
            .config.name() == "bsr_sm90_f16_r16c64_swath512_s3_swap_bcol");
  CHECK(sm90::choose(pattern(128, 128, 128, 128, 1), DType::f16, dense(128, 256), dense(128, 256), GemmOptions{}, h100)
            .config.name() == "bsr_sm90_f16_r128c128_swath256_s4_pair");
  CHECK(sm90::choose(pattern(128, 64, 128, 64, 1), DType::bf16, dense(64, 256, DType::bf16, Layout::col_major, 64),
                     dense(128, 256), GemmOptions{}, h100)
            .config.name() == "bsr_sm90_bf16_r128c64_swath256_s4_bcol_pair");
  GemmOptions pairs;
  pairs.cluster = 1;
  CHECK(sm90::choose(pattern(128, 128, 128, 128), DType::f16, dense(128, 256), dense(128, 256), pairs, h100)
            .config.name() == "bsr_sm90_f16_r128c128_swath256_s4");
  pairs.k_chunk = 64;
  pairs.cluster = 2;
  CHECK(sm90::choose(pattern(128, 128, 128, 128), DType::f16, dense(128, 256), dense(128, 256), pairs, h100)
            .config.name() == "bsr_sm90_f16_r128c128_swath256_s4_pair");
  pairs.cluster = 3;
  SM90_CHECK_ERROR(sm90::choose(pattern(128, 128, 128, 128), DType::f16, dense(128, 256), dense(128, 256), pairs, h100),
                   Errc::invalid_argument, "GemmOptions::cluster (3) must be 0 (tuned), 1 or 2");
  // Direct orientation cannot take 16-row blocks.
  forced.stages = 0;
  forced.swath = 0;
  SM90_CHECK_ERROR(sm90::choose(pattern(64, 64, 16, 16), DType::f16, dense(64, 64), dense(64, 64), forced, h100),
                   Errc::unsupported, "no sm90 kernel is instantiated for bsr_sm90_f16_r16c16_swath512_s0");
}

TEST_CASE("Split limit and schedule: longest rows first, long rows cut evenly", "[ops][sm90]") {
  // Uniform rows (8 blocks each, 64 rows, 32 swaths, 132 CTAs): never split.
  CHECK(sm90::split_limit(512, 64, 32, 132, 2) == 62);
  CHECK(sm90::split_limit(512, 64, 32, 132, 8) == 32);  // 4 x the average row: the 128-row fraction
  CHECK(sm90::split_per_cta_fraction(128) == 8);
  CHECK(sm90::split_per_cta_fraction(64) == 2);
  CHECK(sm90::split_limit(0, 64, 32, 132, 2) == 0);
  CHECK(sm90::pieces_for(8, 62) == 1);
  CHECK(sm90::pieces_for(100, 0) == 1);
  CHECK(sm90::pieces_for(100, 16) == 7);

  // Rows: 0 -> 3 blocks, 1 -> 0, 2 -> 40, 3 -> 3, 4 -> 17 blocks.
  const std::vector<int> row_ptr = {0, 3, 3, 43, 46, 63};
  const sm90::HostPieceList h = sm90::build_pieces_host(row_ptr, 16);
  // Order: row 2 (40 -> 3 pieces), row 4 (17 -> 2 pieces), rows 0 and 3 (ties keep row order), row 1.
  std::vector<int> rows;
  for (const sm90::Piece& p : h.pieces) rows.push_back(p.row);
  CHECK(rows == std::vector<int>{2, 2, 2, 4, 4, 0, 3, 1});
  REQUIRE(h.split_rows.size() == 2);
  CHECK(h.split_rows[0].row == 2);
  CHECK(h.split_rows[0].first_slot == 0);
  CHECK(h.split_rows[0].count == 3);
  CHECK(h.split_rows[1].row == 4);
  CHECK(h.split_rows[1].first_slot == 3);
  CHECK(h.split_rows[1].count == 2);
  CHECK(h.num_slots == 5);
  // Pieces of a row tile its blocks in k order; unsplit rows have slot -1.
  CHECK(h.pieces[0].kb_begin == 3);
  CHECK(h.pieces[0].kb_end == 16);
  CHECK(h.pieces[1].kb_begin == 16);
  CHECK(h.pieces[2].kb_end == 43);
  CHECK(h.pieces[2].slot == 2);
  CHECK(h.pieces[5].slot == -1);
  CHECK(h.pieces[7].kb_begin == h.pieces[7].kb_end);  // the empty row still gets its tile (C = beta C)
  std::int64_t covered = 0;
  for (const sm90::Piece& p : h.pieces) covered += p.kb_end - p.kb_begin;
  CHECK(covered == row_ptr.back());
  // No limit: one piece per row.
  CHECK(sm90::build_pieces_host(row_ptr, 0).pieces.size() == 5);
}

namespace {

// Every stored block of every (block row, swath group) is in exactly one tile; each cluster's
// tiles sit in swath-group order; split pieces own distinct partial tiles that the split records
// name; returns the largest cluster cost over the average.
double check_covering(const std::vector<int>& row_ptr, const sm90::HostSchedule& h, const sm90::ScheduleShape& s) {
  const int rows = static_cast<int>(row_ptr.size()) - 1;
  REQUIRE(h.cluster_begin.size() == static_cast<std::size_t>(s.clusters) + 1);
  REQUIRE(h.cluster_begin.back() == static_cast<int>(h.tiles.size()));
  std::vector<int> seen(static_cast<std::size_t>(row_ptr.back()) * s.groups, 0);
  std::vector<int> tiles_of(static_cast<std::size_t>(rows) * s.groups, 0);
  std::set<int> slots;
  std::vector<long long> cost(static_cast<std::size_t>(s.clusters), 0);
  for (int c = 0; c < s.clusters; ++c) {
    int last_group = 0;
    for (int t = h.cluster_begin[c]; t < h.cluster_begin[c + 1]; ++t) {
      const sm90::Tile& tile = h.tiles[t];
      CHECK(tile.group >= last_group);
      last_group = tile.group;
      CHECK(tile.kb_begin >= row_ptr[tile.row]);
      CHECK(tile.kb_end <= row_ptr[tile.row + 1]);
      for (int kb = tile.kb_begin; kb < tile.kb_end; ++kb) ++seen[static_cast<std::size_t>(kb) * s.groups + tile.group];
      ++tiles_of[static_cast<std::size_t>(tile.row) * s.groups + tile.group];
      if (tile.slot >= 0) {
        CHECK(tile.slot % s.cluster_size == 0);
        CHECK(tile.slot + s.cluster_size <= h.num_partials);
        CHECK(slots.insert(tile.slot).second);
      }
      cost[c] += sm90::tile_cost(sm90::Piece{tile.row, tile.kb_begin, tile.kb_end, tile.slot}, s);
    }
  }
  CHECK(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
  CHECK(std::all_of(tiles_of.begin(), tiles_of.end(), [](int n) { return n >= 1; }));  // empty rows: C = beta C
  std::size_t named = 0;
  for (const sm90::SplitTile& st : h.splits) {
    CHECK(tiles_of[static_cast<std::size_t>(st.row) * s.groups + st.group] == st.count);
    for (int q = 0; q < st.count; ++q) CHECK(slots.count(st.first_slot + q * s.cluster_size) == 1);
    named += static_cast<std::size_t>(st.count);
  }
  CHECK(named == slots.size());
  const long long total = std::accumulate(cost.begin(), cost.end(), 0LL);
  return static_cast<double>(*std::max_element(cost.begin(), cost.end())) * s.clusters / static_cast<double>(total);
}

std::vector<int> row_ptr_of(const std::vector<int>& lengths) {
  std::vector<int> row_ptr(1, 0);
  for (int n : lengths) row_ptr.push_back(row_ptr.back() + n);
  return row_ptr;
}

}  // namespace

TEST_CASE("Tile assignment: least-loaded cluster first, in swath-group order", "[ops][sm90]") {
  // Rows of 5, 3, 2 and 0 blocks, 2 swath groups, 2 clusters; cost = blocks + 2 (the default).
  const std::vector<int> row_ptr = row_ptr_of({3, 5, 0, 2});
  const sm90::HostPieceList pieces = sm90::build_pieces_host(row_ptr, 0);
  sm90::ScheduleShape s;
  s.groups = 2;
  s.clusters = 2;
  const sm90::HostSchedule h = sm90::assign_tiles_host(pieces, {}, s);
  // Each group in the order row 1 (cost 7), 0 (5), 3 (4), 2 (2). Group 0: row 1 -> c0 (7), row 0 ->
  // c1 (5), row 3 -> c1 (9), row 2 -> c0 (9). Group 1 starts from a tie, which the lower index
  // takes: row 1 -> c0 (16), row 0 -> c1 (14), row 3 -> c1 (18), row 2 -> c0 (18).
  std::vector<std::pair<int, int>> c0, c1;
  for (int t = h.cluster_begin[0]; t < h.cluster_begin[1]; ++t) c0.emplace_back(h.tiles[t].row, h.tiles[t].group);
  for (int t = h.cluster_begin[1]; t < h.cluster_begin[2]; ++t) c1.emplace_back(h.tiles[t].row, h.tiles[t].group);
  CHECK(c0 == std::vector<std::pair<int, int>>{{1, 0}, {2, 0}, {1, 1}, {2, 1}});
  CHECK(c1 == std::vector<std::pair<int, int>>{{0, 0}, {3, 0}, {0, 1}, {3, 1}});
  CHECK(h.splits.empty());
  CHECK(h.num_partials == 0);
  CHECK(check_covering(row_ptr, h, s) == Approx(1.0));
}

TEST_CASE("Tile assignment: a tile's overhead depends on the block height and on split pieces", "[ops][sm90]") {
  CHECK(sm90::tile_overhead(128).whole == 1);
  CHECK(sm90::tile_overhead(128).split == 3);
  for (int r : {16, 32, 64}) CHECK((sm90::tile_overhead(r).whole == 2 && sm90::tile_overhead(r).split == 2));
  sm90::ScheduleShape s;
  s.overhead = sm90::tile_overhead(128);
  CHECK(sm90::tile_cost(sm90::Piece{0, 0, 4, -1}, s) == 5);  // a whole row writes C
  CHECK(sm90::tile_cost(sm90::Piece{0, 0, 4, 0}, s) == 7);   // a split piece writes an f32 partial tile
  // Rows of 5 and 4 blocks cut at 3 (pieces of 2 + 3 and 2 + 2 blocks) and two empty rows, one
  // swath group, 2 clusters. With 1 / 3 the split pieces cost 5, 6, 5, 5 and the empty rows 1
  // each: c0 5, c1 6, c0 10, c1 11, c0 11, then the tie at 11 goes to c0 - 4 tiles and 2. With
  // 2 / 2 (costs 4, 5, 4, 4, 2, 2) the empty rows split 3 and 3.
  const std::vector<int> row_ptr = row_ptr_of({5, 4, 0, 0});
  const sm90::HostPieceList pieces = sm90::build_pieces_host(row_ptr, 3);
  REQUIRE(pieces.pieces.size() == 6);
  s.groups = 1;
  s.clusters = 2;
  const sm90::HostSchedule h = sm90::assign_tiles_host(pieces, {}, s);
  check_covering(row_ptr, h, s);
  CHECK(h.cluster_begin == std::vector<int>{0, 4, 6});
  s.overhead = sm90::TileOverhead{2, 2};
  CHECK(sm90::assign_tiles_host(pieces, {}, s).cluster_begin == std::vector<int>{0, 3, 6});
}

TEST_CASE("Tile assignment: short pieces walk backwards on odd swath groups", "[ops][sm90]") {
  // Rows of 12, 3 and 2 blocks (average 6): with the factor-2 limit (12) every piece qualifies;
  // with a limit of 5 the 12-block row keeps the forward walk.
  static_assert(sm90::kReverseAverageFactor == 2, "the limits below assume a factor of 2");
  const std::vector<int> row_ptr = row_ptr_of({3, 12, 2});
  CHECK(sm90::reverse_limit(row_ptr.back(), 3) == 2 * ((17 + 2) / 3));
  CHECK(sm90::reverse_limit(0, 3) == 0);
  CHECK(sm90::reverse_limit(17, 0) == 0);
  const sm90::HostPieceList pieces = sm90::build_pieces_host(row_ptr, 0);
  sm90::ScheduleShape s;
  s.groups = 3;
  s.clusters = 2;
  for (int limit : {sm90::reverse_limit(row_ptr.back(), 3), 5, 0}) {
    CAPTURE(limit);
    s.reverse_max = limit;
    const sm90::HostSchedule h = sm90::assign_tiles_host(pieces, {}, s);
    REQUIRE(h.tiles.size() == 9);
    for (const sm90::Tile& t : h.tiles) {
      const int length = t.kb_end - t.kb_begin;
      CHECK(t.reverse == ((t.group % 2 == 1 && length <= limit) ? 1 : 0));
    }
  }
}

TEST_CASE("Tile assignment: tail groups take finer pieces; pairs own two partial tiles per piece", "[ops][sm90]") {
  // The bench's power-law shape at 128x128 blocks (64 block rows, 512 blocks, 32 swaths, the
  // tile overheads of 128-row blocks): the rule splits the tail, and the longest-processing-time
  // lists come out balanced within 8% (6.3%; 15.5% without the tail).
  std::vector<int> lengths = {64, 60, 40, 30, 24, 20, 17, 15, 13, 12, 11, 10, 9, 9, 8, 7, 7, 7, 6, 6};
  while (std::accumulate(lengths.begin(), lengths.end(), 0) < 512) lengths.push_back(lengths.size() % 3 == 0 ? 5 : 4);
  lengths.resize(64, 0);
  const std::vector<int> row_ptr = row_ptr_of(lengths);
  const std::int64_t nnzb = row_ptr.back();
  const int limit = sm90::split_limit(nnzb, 64, 32, 132, sm90::split_per_cta_fraction(128));
  const sm90::HostPieceList pieces = sm90::build_pieces_host(row_ptr, limit);
  const sm90::TailSplit tail = sm90::tail_split(nnzb, 64, 32, 132, std::min(64, limit));
  CHECK(tail.limit == std::max<std::int64_t>({sm90::kTailMinBlocks, sm90::kTailAverageFactor * ((nnzb + 63) / 64),
                                              nnzb / 132}));
  REQUIRE(tail.groups > 0);
  CHECK(tail.groups == (132 * std::min(64, limit) + 2 * nnzb - 1) / (2 * nnzb));
  const sm90::HostPieceList fine = sm90::build_pieces_host(row_ptr, tail.limit);
  sm90::ScheduleShape s;
  s.overhead = sm90::tile_overhead(128);
  s.groups = 32;
  s.tail_groups = tail.groups;
  s.clusters = 132;
  const sm90::HostSchedule h = sm90::assign_tiles_host(pieces, fine, s);
  CHECK(h.num_partials == (32 - tail.groups) * pieces.num_slots + tail.groups * fine.num_slots);
  CHECK(check_covering(row_ptr, h, s) < 1.08);
  // Without the tail the same lists are further apart.
  s.tail_groups = 0;
  CHECK(check_covering(row_ptr, sm90::assign_tiles_host(pieces, {}, s), s) > 1.1);

  // CTA pairs: a slot per piece and rank; the split records step by the pair.
  s.groups = 16;
  s.tail_groups = 3;
  s.clusters = 66;
  s.cluster_size = 2;
  const sm90::HostSchedule pairs = sm90::assign_tiles_host(pieces, fine, s);
  CHECK(pairs.num_partials == 2 * (13 * pieces.num_slots + 3 * fine.num_slots));
  // The bench's plan (66 pairs, 16 groups, 3 in the tail): 4.1%. (Handing the tail out piece-major
  // evens the model to 1.3%, but measured 1% slower at 128 x 128: perf_log entry 55.)
  CHECK(check_covering(row_ptr, pairs, s) < 1.05);
}

TEST_CASE("Cluster count for tiles of one cost: the fullest last round within the trim bound", "[ops][sm90]") {
  // The bench's uniform shapes on a 132-SM GPU (66 pairs / 132 CTAs) and the shapes off them
  // that were measured (perf_log entry 38), with tiles 1024 deep in K (12.5% density).
  CHECK(sm90::balanced_clusters(1024, 1024, 66) == 64);
  CHECK(sm90::balanced_clusters(2048, 1024, 66) == 64);
  CHECK(sm90::balanced_clusters(4096, 1024, 132) == 128);
  CHECK(sm90::balanced_clusters(992, 1024, 66) == 62);
  CHECK(sm90::balanced_clusters(960, 1024, 66) == 64);   // 60 would fill it too, but lie past the bound
  CHECK(sm90::balanced_clusters(1000, 1024, 66) == 63);  // 1008 slots; none in [62, 66] has fewer
  // A tie keeps the larger count: 130 and 128 clusters both take 8320 slots.
  CHECK(sm90::balanced_clusters(8320, 1024, 132) == 130);
  // Already full, or no more tiles than clusters: every cluster.
  CHECK(sm90::balanced_clusters(66 * 7, 1024, 66) == 66);
  CHECK(sm90::balanced_clusters(50, 1024, 66) == 66);
  CHECK(sm90::balanced_clusters(0, 1024, 66) == 66);
  CHECK(sm90::balanced_clusters(5, 1024, 1) == 1);
  // The bound: most - most / 16, so nothing below 16 clusters is trimmed.
  CHECK(sm90::balanced_clusters(36, 1024, 15) == 15);
  CHECK(sm90::balanced_clusters(36, 1024, 16) == 15);
  CHECK(sm90::balanced_clusters(36, 1024, 32) == 30);
  // Short tiles keep every cluster: below 512 deep in K (3% density's 2 blocks of 128).
  CHECK(sm90::balanced_clusters(1024, 256, 66) == 66);
  CHECK(sm90::balanced_clusters(1024, 511, 66) == 66);
  CHECK(sm90::balanced_clusters(1024, 512, 66) == 64);
}

TEST_CASE("Tail split rule and schedule limits", "[ops][sm90]") {
  // Uniform rows of 8 blocks (64 rows, 132 clusters): nothing to absorb.
  CHECK(sm90::tail_split(512, 64, 32, 132, 8).groups == 0);
  CHECK(sm90::tail_split(0, 64, 32, 132, 8).groups == 0);
  // At most every group.
  CHECK(sm90::tail_split(40, 10, 2, 132, 30).groups == 2);
  sm90::ScheduleShape s;
  s.groups = 1;
  s.clusters = sm90::kMaxClusters + 1;
  const sm90::HostPieceList one = sm90::build_pieces_host({0, 1}, 0);
  SM90_CHECK_ERROR(sm90::assign_tiles_host(one, {}, s), Errc::unsupported, "at most 256 are supported");
  s.clusters = 1;
  s.tail_groups = 2;
  SM90_CHECK_ERROR(sm90::assign_tiles_host(one, {}, s), Errc::invalid_argument, "inconsistent swath groups");
}

TEST_CASE("plan_gemm rejects inconsistent operands before touching the GPU", "[ops][sm90]") {
  const GemmBsrOperand a = pattern(64, 96, 16, 32, 4);
  SM90_CHECK_ERROR(plan_gemm(a, DType::f16, dense(100, 48), dense(64, 48)), Errc::invalid_argument,
                   "B has 100 rows, expected A.cols = 96");
  SM90_CHECK_ERROR(plan_gemm(a, DType::f16, dense(96, 48, DType::bf16), dense(64, 48)), Errc::invalid_argument,
                   "B holds bf16 but A holds f16");
  SM90_CHECK_ERROR(plan_gemm(a, DType::f16, dense(96, 48), dense(64, 48, DType::f64)), Errc::unsupported,
                   "no GEMM kernel takes f16 inputs with f64 output");
  SM90_CHECK_ERROR(plan_gemm(a, DType::bf16, dense(96, 48, DType::bf16), dense(64, 48, DType::f16)), Errc::unsupported,
                   "no GEMM kernel takes bf16 inputs with f16 output");
  // A pattern-only view (values == nullptr) is enough to plan.
  GemmOptions reference;
  reference.kernel = GemmOptions::Choice::reference;
  GemmBsrOperand pattern_only = a;
  pattern_only.values = nullptr;
  const GemmPlan plan = plan_gemm(pattern_only, DType::f16, dense(96, 48), dense(64, 48, DType::f32), reference);
  CHECK(plan.kernel() == GemmKernel::reference);
  CHECK(plan.name() == "bsr_reference_f16_r16c32");
  CHECK(plan.fallback_reason() == "GemmOptions asked for the reference kernel");
  const GemmPlan empty;
  SM90_CHECK_ERROR(empty.name(), Errc::invalid_argument, "GemmPlan is empty");
}
