// GPU tests of the Hopper BSR GEMM through its public plan API.
//
// - Every instantiated configuration (the registry, so also every one the planner may choose)
//   on integer-valued data, compared bit for bit with the reference kernel over C's whole
//   storage: leading-dimension padding and a guard tail must come back as they went in, and with
//   beta == 0 C starts as NaN (0xFF bytes) so an unwritten element or a read of C cannot pass.
//   B's padding is NaN too, so a load outside B's shape would poison the result.
// - Hostile patterns: empty matrix, empty rows, a single block, full density, power-law rows
//   (split across CTAs), one very long row, K == 0, M == 0, N == 0.
// - Random real data against the fp64 product of the rounded inputs; run-to-run bitwise
//   identity; capture into a CUDA Graph; run-time argument errors.
#include <catch2/catch.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/dense.hpp"
#include "bsrflow/ops/cpu_gemm.hpp"
#include "bsrflow/ops/gemm_plan.hpp"
#include "bsrflow/ops/gemm_tunables.hpp"
#include "bsrflow/ops/reference_gemm.hpp"
#include "bsrflow/ops/sm90_kernels.hpp"
#include "bsrflow/ops/sm90_schedule_build.hpp"
#include "bsrflow/ops/tuning_cache.hpp"
#include "support/gpu.hpp"
#include "support/gemm_problem.hpp"
#include "support/patterns.hpp"
#include "support/temp_dir.hpp"

using namespace bsrflow;
using namespace bsrflow::test::gemm;

namespace {

GemmOptions options_for(const sm90::KernelEntry& e) {
  GemmOptions o;
  o.kernel = GemmOptions::Choice::sm90;
  o.swath = e.key.swath;
  o.orientation = e.key.swap ? GemmOrientation::swap : GemmOrientation::direct;
  o.copy_only = e.key.copy_only;
  o.row_group = e.key.row_group;
  o.items_per_stage = e.key.items_per_stage;
  return o;
}

template <class TIn>
void check_entry(const sm90::KernelEntry& e) {
  const GemmOptions o = options_for(e);
  const int R = e.key.R;
  const Layout bl = e.key.b_col_major ? Layout::col_major : Layout::row_major;
  // Block widths with this k-chunk: 16, 32, 64 and 128 (two chunks per block).
  std::vector<int> widths = {e.key.k_chunk};
  if (e.key.k_chunk == 64) widths.push_back(128);
  for (int C : widths) {
    Case c;
    c.R = R;
    c.C = C;
    c.M = 5 * R + R / 2;               // partial last block row
    c.K = 6 * C + C / 2;               // partial last block column: B rows >= K are TMA zero-fill
    c.N = e.key.swath + 72;            // two swaths, the second partial
    c.b_layout = bl;
    c.seed = static_cast<std::uint32_t>(R * 1000 + C);
    // Seven combinations of output dtype, C layout, ld padding and beta (0: the TMA-store
    // epilogue - in the swap-AB orientation for 16-bit output only - else the general one; also 0
    // with the general one forced).
    GemmOptions generic = o;
    generic.tma_store_epilogue = false;
    c.c_layout = Layout::row_major, c.padded = false, c.beta = 0.0f;
    check_exact<TIn, TIn>(c, o);
    c.c_layout = Layout::col_major, c.padded = true, c.beta = -3.0f;
    check_exact<TIn, float>(c, o);
    c.c_layout = Layout::row_major, c.padded = true, c.beta = 1.0f;
    check_exact<TIn, float>(c, o);
    c.c_layout = Layout::col_major, c.padded = false, c.beta = 0.0f;
    check_exact<TIn, TIn>(c, o);
    c.c_layout = Layout::row_major, c.padded = true, c.beta = 0.0f;
    check_exact<TIn, float>(c, generic);
    c.c_layout = Layout::col_major, c.padded = true, c.beta = 0.0f;
    check_exact<TIn, float>(c, o);
    check_exact<TIn, TIn>(c, o);
  }
  if (!e.key.b_col_major) {
    // N % 64 == 0: a row-major B stage arrives as one 3-D box (the default; the last swath is
    // partial, so panels past N are zero-filled) or as one box per 64-column panel.
    Case c;
    c.R = R;
    c.C = e.key.k_chunk;
    c.M = 3 * R + R / 2, c.K = 5 * c.C + c.C / 2, c.N = e.key.swath + 64;
    c.seed = static_cast<std::uint32_t>(R * 7 + c.C);
    c.padded = true;  // ldb > N: the panels' 128-byte stride is independent of the row stride
    check_exact<TIn, TIn>(c, o);
    c.padded = false;
    GemmOptions panels = o;
    panels.single_box_b = false;
    c.c_layout = Layout::col_major, c.beta = -3.0f;
    check_exact<TIn, float>(c, panels);
  }
  if (e.key.row_group == 1) {  // CTA pairs (A chunks multicast): two swaths (one pair), then three (a phantom fourth)
    GemmOptions pairs = o;
    pairs.cluster = 2;
    Case c;
    c.R = R;
    c.C = e.key.k_chunk;
    c.M = 4 * R + R / 2, c.K = 5 * c.C + c.C / 2, c.N = 2 * e.key.swath;
    c.b_layout = bl;
    c.seed = static_cast<std::uint32_t>(R * 11 + c.C);
    check_exact<TIn, TIn>(c, pairs);
    c.N = 2 * e.key.swath + 72;
    c.c_layout = Layout::col_major, c.beta = 2.0f;
    check_exact<TIn, float>(c, pairs);
  }
  if (e.key.k_chunk < 64 && e.key.row_group == 1) {  // a shallower chunk than the block: 4 stages per block
    GemmOptions shallow = o;
    shallow.k_chunk = e.key.k_chunk;
    Case c;
    c.R = R;
    c.C = 4 * e.key.k_chunk;
    c.M = 3 * R + R / 2, c.K = 4 * c.C + c.C / 2, c.N = e.key.swath + 8;
    c.b_layout = bl;
    c.beta = 0.0f;
    check_exact<TIn, TIn>(c, shallow);
    c.c_layout = Layout::col_major, c.beta = -3.0f;
    check_exact<TIn, float>(c, shallow);
  }
}

}  // namespace

TEST_CASE("sm90 GEMM: every instantiated configuration is exact against the reference", "[ops][sm90][gpu]") {
  BSRFLOW_REQUIRE_HOPPER();
  int tested = 0;
  for (const sm90::KernelEntry& e : sm90::all_kernels()) {
    if (e.key.copy_only) continue;  // writes nothing; see the probe test
    CAPTURE(e.key.R, e.key.k_chunk, e.key.swath, e.key.swap, e.key.b_col_major, dtype_name(e.key.in));
    if (e.key.in == DType::f16) check_entry<__half>(e);
    else check_entry<__nv_bfloat16>(e);
    ++tested;
  }
  CHECK(tested >= 48);
}

namespace {

// The name of the plan the planner makes for `c` with `options` (on the device's pattern).
template <class TIn>
std::string planned_name(const Case& c, const GemmOptions& options) {
  Stream stream;
  const Problem<TIn, TIn> p = integer_problem<TIn, TIn>(c);
  DeviceProblem<TIn, TIn> d(p, true, stream);
  return plan_gemm(std::as_const(d.A).view(), describe(cview_of(d.B, p.B)), describe(view_of(d.C, p.C)), options,
                   stream)
      .name();
}

}  // namespace

TEST_CASE("sm90 GEMM: 64-row blocks take the 512-wide swath on near-equal rows only", "[ops][sm90][gpu]") {
  BSRFLOW_REQUIRE_HOPPER();
  const GemmOptions automatic;
  Case c;
  c.R = 64;
  c.C = 64;
  c.M = 6 * 64 + 32, c.K = 8 * 64 + 16, c.N = 2 * 1024 + 72;  // two pairs of swaths, the last partial
  c.pattern = Pattern::random_half;  // rows of 0-9 blocks, ~4 on average
  SECTION("near-equal rows: swath 512, 32-deep chunks, exact") {
    CHECK(planned_name<__half>(c, automatic) == "bsr_sm90_f16_r64c64_swath512_s5_kc32_pair");
    CHECK(planned_name<__nv_bfloat16>(c, automatic) == "bsr_sm90_bf16_r64c64_swath512_s5_kc32_pair");
    check_exact<__half, __half>(c, automatic);
    c.c_layout = Layout::col_major, c.beta = -3.0f, c.padded = true;
    check_exact<__nv_bfloat16, float>(c, automatic);
    c.C = 32;  // the block's own width as the chunk
    c.K = 8 * 32 + 16;
    CHECK(planned_name<__half>(c, automatic) == "bsr_sm90_f16_r64c32_swath512_s5_pair");
    check_exact<__half, float>(c, automatic);
  }
  SECTION("otherwise swath 256") {
    c.pattern = Pattern::one_long_row;  // the longest row far above the average
    CHECK(planned_name<__half>(c, automatic) == "bsr_sm90_f16_r64c64_swath256_s5_pair");
    check_exact<__half, __half>(c, automatic);
    c.pattern = Pattern::random_half;
    GemmOptions chunk64;
    chunk64.k_chunk = 64;  // a chunk the wide swath does not have: the standard swath, no error
    CHECK(planned_name<__half>(c, chunk64) == "bsr_sm90_f16_r64c64_swath256_s5_pair");
    c.b_layout = Layout::col_major;
    CHECK(planned_name<__half>(c, automatic) == "bsr_sm90_f16_r64c64_swath256_s5_bcol_pair");
    c.b_layout = Layout::row_major;
    c.N = 1016;  // under 1024 columns
    CHECK(planned_name<__half>(c, automatic) == "bsr_sm90_f16_r64c64_swath256_s5_pair");
    c.N = 2 * 1024;
    c.C = 16;  // 16-wide blocks
    c.K = 8 * 16;
    CHECK(planned_name<__half>(c, automatic) == "bsr_sm90_f16_r64c16_swath256_s8_pair");
  }
}

TEST_CASE("sm90 GEMM: the tuned plan is exact on hostile patterns", "[ops][sm90][gpu]") {
  BSRFLOW_REQUIRE_HOPPER();
  // The tuned plan, and the same with CTA pairs (N = 136: one swath, so one CTA of each pair
  // computes a phantom swath).
  for (int cluster : {0, 2})
  for (int b : {16, 32, 64, 128}) {
    GemmOptions automatic;
    automatic.cluster = cluster;
    const std::string name = "cluster " + std::to_string(cluster) + ", block " + std::to_string(b);
    Case c;
    c.R = c.C = b;
    c.M = 9 * b;
    c.K = 9 * b;
    c.N = 136;
    SECTION(name + ": patterns") {
      for (Pattern p : {Pattern::none, Pattern::empty_rows, Pattern::single_block, Pattern::full,
                        Pattern::one_long_row}) {
        c.pattern = p;
        c.beta = 0.0f;
        check_exact<__half, float>(c, automatic);
        c.beta = -3.0f;
        check_exact<__half, __half>(c, automatic);
      }
    }
    SECTION(name + ": rows of every length, whole and split") {
      // Rows of 0, 1, 2, ... blocks: every position of a row's end against the producer's 32-block
      // column-index batches and the tile boundaries around it (a dynamic-schedule prototype
      // mixed up two batches there, perf_log entry 36).
      c.M = (b == 128 ? 40 : 72) * b;
      c.K = c.M;
      c.pattern = Pattern::staircase;
      GemmOptions no_split = automatic;
      no_split.split_long_rows = false;
      check_exact<__half, float>(c, no_split);
      c.beta = 1.0f;
      check_exact<__half, __half>(c, automatic);
      // 16-bit row-major output with beta == 0 (R = 64 / 128): each tile's part is held in
      // registers and stored a chunk per ring stage of the CTA's next tile, or after that tile's
      // main loop where it has fewer stages than chunks (empty and one-block rows here). On 4
      // CTAs each walks many tiles of every length, whole and split.
      c.beta = 0.0f;
      GemmOptions few_ctas = automatic;
      few_ctas.max_ctas = 4;
      check_exact<__half, __half>(c, few_ctas);
      check_exact<__nv_bfloat16, __nv_bfloat16>(c, automatic);
    }
    SECTION(name + ": rows of one length on a few clusters fewer") {
      // 36 tiles of one cost (one swath group), 512 deep in K, on at most 32 CTAs: 30 CTAs (or
      // 15 pairs) fill both rounds (sm90::balanced_clusters), and the plan launches that many.
      c.M = 36 * b;
      c.K = 512;
      c.pattern = Pattern::full;
      GemmOptions capped = automatic;
      capped.max_ctas = 32;
      capped.row_group = 1;  // 36 block rows (16 x 16 would take 9 groups of 4: 9 tiles)
      Stream stream;
      const Problem<__half, float> p = integer_problem<__half, float>(c);
      DeviceProblem<__half, float> d(p, true, stream);
      const GemmPlan plan =
          plan_gemm(std::as_const(d.A).view(), describe(cview_of(d.B, p.B)), describe(view_of(d.C, p.C)), capped, stream);
      CHECK(plan.ctas() == 30);
      check_exact<__half, float>(c, capped);
      c.beta = -3.0f;
      check_exact<__half, __half>(c, capped);
    }
    SECTION(name + ": power-law rows split across CTAs") {
      c.M = 48 * b;
      c.K = 40 * b;
      c.pattern = Pattern::powerlaw;
      Stream stream;
      const Problem<__half, float> p = integer_problem<__half, float>(c);
      DeviceProblem<__half, float> d(p, true, stream);
      const GemmPlan plan =
          plan_gemm(std::as_const(d.A).view(), describe(cview_of(d.B, p.B)), describe(view_of(d.C, p.C)), automatic, stream);
      CHECK(plan.split_rows() > 0);
      CHECK(plan.workspace_bytes() > 0);
      check_exact<__half, float>(c, automatic);
      c.beta = 1.0f;
      c.c_layout = Layout::col_major;
      check_exact<__half, __half>(c, automatic);
      {  // the fix-up's row-major vectors reading C (beta != 0), f32 and bf16 out
        Case rows = c;
        rows.c_layout = Layout::row_major;
        rows.beta = -3.0f;
        check_exact<__half, float>(rows, automatic);
        check_exact<__nv_bfloat16, __nv_bfloat16>(rows, automatic);
      }
      GemmOptions no_split = automatic;
      no_split.split_long_rows = false;
      check_exact<__half, float>(c, no_split);
      // The partial tiles written by the consumer threads instead of TMA stores (R = 64 / 128;
      // the swap-AB kernels always write them so).
      GemmOptions thread_stores = automatic;
      thread_stores.tma_store_epilogue = false;
      check_exact<__half, float>(c, thread_stores);
      // Several swath groups: on odd ones the short pieces walk backwards and the long (split)
      // ones forward (Tile::reverse).
      c.N = 3 * 512 + 136;
      c.beta = 0.0f;
      c.c_layout = Layout::row_major;
      check_exact<__half, __half>(c, automatic);
    }
  }
  SECTION("K == 0, M == 0 and N == 0") {
    GemmOptions automatic;
    automatic.kernel = GemmOptions::Choice::sm90;  // N = 64 would go to the skinny kernel
    Case c;
    c.R = c.C = 64;
    c.M = 128, c.K = 0, c.N = 64, c.pattern = Pattern::none;
    c.beta = 0.0f;
    check_exact<__half, float>(c, automatic);  // C = 0
    c.beta = -3.0f;
    check_exact<__half, float>(c, automatic);  // C = beta C
    c.M = 0, c.K = 128;
    check_exact<__half, float>(c, automatic);
    c.M = 128, c.N = 0;
    check_exact<__half, float>(c, automatic);
  }
}

TEST_CASE("sm90 GEMM: device schedule matches the host rule", "[ops][sm90][gpu]") {
  BSRFLOW_REQUIRE_HOPPER();
  Stream stream;
  const auto pattern = block_pattern(Pattern::powerlaw, 300, 200, 5);
  std::vector<int> row_ptr(1, 0);
  for (const auto& r : pattern) row_ptr.push_back(row_ptr.back() + static_cast<int>(r.size()));
  DeviceBuffer<int> d_row_ptr = DeviceBuffer<int>::from_host(row_ptr, stream);
  int longest_row = 0;
  for (const auto& r : pattern) longest_row = std::max(longest_row, static_cast<int>(r.size()));
  CHECK(sm90::longest_row(d_row_ptr.data(), 300, stream) == longest_row);
  // Limits, and the skinny plan's last wave (rows from position 250 on cut into three, the
  // shortest of them - power-law rows include empty ones - into one piece per block at most).
  struct Cut {
    int limit;
    sm90::LastWave last;
  };
  for (const Cut& cut : {Cut{0, {}}, Cut{16, {}}, Cut{40, {}}, Cut{0, {250, 3}}, Cut{16, {290, 2}}}) {
    const int limit = cut.limit;
    CAPTURE(limit, cut.last.first, cut.last.pieces);
    const sm90::PieceList s = sm90::build_pieces(d_row_ptr.data(), 300, limit, stream, cut.last);
    const sm90::HostPieceList h = sm90::build_pieces_host(row_ptr, limit, cut.last);
    const std::vector<sm90::Piece> pieces = s.pieces.to_host(stream);
    const std::vector<sm90::SplitRow> splits = s.split_rows.to_host(stream);
    REQUIRE(pieces.size() == h.pieces.size());
    REQUIRE(splits.size() == h.split_rows.size());
    CHECK(s.num_slots == h.num_slots);
    CHECK(std::memcmp(pieces.data(), h.pieces.data(), pieces.size() * sizeof(sm90::Piece)) == 0);
    CHECK((splits.empty() || std::memcmp(splits.data(), h.split_rows.data(), splits.size() * sizeof(sm90::SplitRow)) == 0));
    int longest = 0;
    for (const sm90::Piece& p : h.pieces) longest = std::max(longest, p.kb_end - p.kb_begin);
    CHECK(s.longest >= longest);
    if (limit == 16 || cut.last.pieces > 1) CHECK(s.num_split_rows > 0);
  }
  // Tile lists: one warp's greedy pass against the host loop, with and without a tail, single
  // CTAs and pairs, fewer and more clusters than tiles, and the full 256 clusters.
  const sm90::PieceList main_d = sm90::build_pieces(d_row_ptr.data(), 300, 40, stream);
  const sm90::PieceList tail_d = sm90::build_pieces(d_row_ptr.data(), 300, 8, stream);
  const sm90::HostPieceList main_h = sm90::build_pieces_host(row_ptr, 40);
  const sm90::HostPieceList tail_h = sm90::build_pieces_host(row_ptr, 8);
  struct Shape {
    int groups, tail_groups, clusters, cluster_size;
  };
  for (const Shape& sh : {Shape{3, 0, 132, 1}, Shape{3, 1, 132, 1}, Shape{5, 2, 66, 2}, Shape{1, 1, 7, 1},
                          Shape{2, 0, 256, 2}, Shape{4, 4, 131, 1}}) {
    CAPTURE(sh.groups, sh.tail_groups, sh.clusters, sh.cluster_size);
    sm90::ScheduleShape shape;
    shape.groups = sh.groups;
    shape.tail_groups = sh.tail_groups;
    shape.clusters = sh.clusters;
    shape.cluster_size = sh.cluster_size;
    shape.reverse_max = 10;  // some pieces walk backwards on odd groups, longer ones not
    const sm90::Schedule d = sm90::assign_tiles(main_d, tail_d, shape, stream);
    const sm90::HostSchedule h = sm90::assign_tiles_host(main_h, tail_h, shape);
    const std::vector<sm90::Tile> tiles = d.tiles.to_host(stream);
    const std::vector<int> begin = d.cluster_begin.to_host(stream);
    const std::vector<sm90::SplitTile> splits = d.splits.to_host(stream);
    REQUIRE(tiles.size() == h.tiles.size());
    CHECK(begin == h.cluster_begin);
    CHECK(std::memcmp(tiles.data(), h.tiles.data(), tiles.size() * sizeof(sm90::Tile)) == 0);
    REQUIRE(splits.size() == h.splits.size());
    CHECK((splits.empty() || std::memcmp(splits.data(), h.splits.data(), splits.size() * sizeof(sm90::SplitTile)) == 0));
    CHECK(d.num_partials == h.num_partials);
    CHECK(d.num_tiles == static_cast<int>(h.tiles.size()));
  }
}

TEST_CASE("sm90 GEMM: random data against fp64, bitwise repeatable", "[ops][sm90][gpu]") {
  BSRFLOW_REQUIRE_HOPPER();
  for (int b : {16, 64, 128}) {
    Case c;
    c.R = c.C = b;
    c.M = 12 * b + 5;
    c.K = 10 * b + 3;
    c.N = 264;
    c.beta = 0.5f;
    c.pattern = Pattern::powerlaw;
    c.seed = 42;
    for (int cluster : {1, 2}) {
      GemmOptions o;
      o.cluster = cluster;
      check_dtypes_against_fp64(c, o, [&](const GemmPlan& plan) {
        REQUIRE(plan.kernel() == GemmKernel::sm90);
        CHECK((plan.name().find("_pair") != std::string::npos) == (cluster == 2));
      });
    }
  }
}

TEST_CASE("sm90 GEMM: run is capturable into a CUDA Graph", "[ops][sm90][gpu]") {
  BSRFLOW_REQUIRE_HOPPER();
  Case c;
  c.R = c.C = 32;
  c.M = 40 * 32, c.K = 30 * 32, c.N = 200;
  c.pattern = Pattern::powerlaw;  // with split rows: two kernels in the graph
  c.beta = 1.0f;
  Stream stream;
  const Problem<__half, float> p = integer_problem<__half, float>(c);
  DeviceProblem<__half, float> d(p, false, stream);
  GemmOptions o;
  SECTION("single CTAs") { o.cluster = 1; }
  SECTION("CTA pairs (a cluster launch)") { o.cluster = 2; }
  const GemmPlan plan =
      plan_gemm(std::as_const(d.A).view(), describe(cview_of(d.B, p.B)), describe(view_of(d.C, p.C)), o, stream);
  REQUIRE(plan.kernel() == GemmKernel::sm90);
  const std::vector<float> eager = run_plan(plan, d, p, 2.0f, 1.0f, stream);
  for (const std::vector<float>& replayed : replay_in_graph(plan, d, p, 2.0f, 1.0f, 2, stream))
    CHECK(test::bitwise_equal(eager, replayed));
}

// The split fix-up runs beside the GEMM kernel (programmatic dependent launch) and waits for each
// split tile's partials through counters it resets at the end of a run. Runs issued back to back,
// alternating two A's of one pattern, must each give their own exact result: a fix-up that read
// partial tiles before this run's pieces wrote them would return the other A's sums, and one that
// finished before the GEMM kernel could let the copy of C after it miss the kernel's tiles.
TEST_CASE("sm90 GEMM: split rows stay exact in back-to-back runs (the fix-up overlaps the kernel)",
          "[ops][sm90][gpu]") {
  BSRFLOW_REQUIRE_HOPPER();
  Case c;
  c.pattern = Pattern::powerlaw;
  c.N = 512;
  SECTION("32 x 32 (swap-AB: partial tiles written by the threads)") { c.R = c.C = 32; }
  SECTION("128 x 128 (direct: partial tiles stored by TMA)") { c.R = c.C = 128; }
  c.M = 48 * c.R;
  c.K = 40 * c.C;
  GemmOptions o;
  const int cluster = GENERATE(1, 2);
  o.cluster = cluster;
  CAPTURE(describe(c), cluster);
  Stream stream;
  const Problem<__half, float> p = integer_problem<__half, float>(c);
  DeviceProblem<__half, float> d(p, true, stream);
  HostBsr<__half> other = p.A;  // the same pattern, other values
  for (__half& v : other.values) v = __float2half(-__half2float(v) + 1.0f);
  const Bsr<__half> A2 = Bsr<__half>::from_host(other, stream);
  const GemmPlan plan =
      plan_gemm(std::as_const(d.A).view(), describe(cview_of(d.B, p.B)), describe(view_of(d.C, p.C)), o, stream);
  REQUIRE(plan.kernel() == GemmKernel::sm90);
  REQUIRE(plan.split_rows() > 0);
  auto run = [&](int i) {
    plan.run<__half, float>(i % 2 == 0 ? std::as_const(d.A).view() : A2.view(), cview_of(d.B, p.B),
                             view_of(d.C, p.C), 1.0f, 0.0f, stream);
  };
  std::vector<std::vector<float>> expect;
  for (int i = 0; i < 2; ++i) {
    d.reset_c(stream);
    run(i);
    expect.push_back(d.C.to_host(stream));
  }
  constexpr int kRuns = 8;
  std::vector<DeviceBuffer<float>> copies;
  for (int i = 0; i < kRuns; ++i) {
    run(i);
    copies.emplace_back(d.C.size(), stream);
    BSRFLOW_CUDA(cudaMemcpyAsync(copies.back().data(), d.C.data(), d.C.bytes(), cudaMemcpyDeviceToDevice, stream));
  }
  for (int i = 0; i < kRuns; ++i) {
    CAPTURE(i);
    CHECK(test::bitwise_equal(copies[i].to_host(stream), expect[i % 2]));
  }
  CHECK_FALSE(test::bitwise_equal(expect[0], expect[1]));
}

TEST_CASE("sm90 GEMM: the copy-only probe loads and writes nothing", "[ops][sm90][gpu]") {
  BSRFLOW_REQUIRE_HOPPER();
  // Every tunable configuration has its probe (the autotuner compares against it), so count the
  // block heights covered rather than the probes.
  std::set<int> heights;
  for (const sm90::KernelEntry& e : sm90::all_kernels()) {
    if (!e.key.copy_only) continue;
    Case c;
    c.R = e.key.R;
    c.C = e.key.k_chunk;
    c.M = 20 * c.R, c.K = 20 * c.C, c.N = 2 * e.key.swath;
    Stream stream;
    const Problem<__half, float> p = integer_problem<__half, float>(c);
    DeviceProblem<__half, float> d(p, true, stream);
    const GemmPlan plan =
        plan_gemm(std::as_const(d.A).view(), describe(cview_of(d.B, p.B)), describe(view_of(d.C, p.C)), options_for(e), stream);
    CHECK_THAT(plan.name(), Catch::EndsWith("_copy"));
    const std::vector<float> out = run_plan(plan, d, p, 1.0f, 0.0f, stream);
    std::vector<float> init = d.c_init;
    init.resize(d.c_init.size() + kGuard);
    std::memset(static_cast<void*>(init.data() + d.c_init.size()), 0xFF, kGuard * sizeof(float));
    CHECK(test::bitwise_equal(out, init));
    heights.insert(c.R);
  }
  CHECK(heights == std::set<int>{16, 32, 64, 128});
}

TEST_CASE("sm90 GEMM: run-time argument errors", "[ops][sm90][gpu]") {
  BSRFLOW_REQUIRE_HOPPER();
  Case c;
  c.R = c.C = 64;
  c.M = 256, c.K = 256, c.N = 128;
  Stream stream;
  const Problem<__half, float> p = integer_problem<__half, float>(c);
  DeviceProblem<__half, float> d(p, true, stream);
  const DenseView<const __half> B = cview_of(d.B, p.B);
  const DenseView<float> C = view_of(d.C, p.C);
  const GemmPlan plan = plan_gemm(std::as_const(d.A).view(), describe(B), describe(C), GemmOptions{}, stream);
  REQUIRE(plan.kernel() == GemmKernel::sm90);
  auto expect = [](auto&& fn, Errc code, const std::string& text) {
    CHECK_THROWS_WITH(fn(), Catch::Contains(text));
    try {
      fn();
    } catch (const Error& e) {
      CHECK(e.code() == code);
    }
  };
  DenseView<const __half> shifted{B.data + 1, B.rows, B.cols, B.ld, B.layout};
  expect([&] { plan.run<__half, float>(std::as_const(d.A).view(), shifted, C, 1.0f, 0.0f, stream); }, Errc::invalid_argument,
         "B.data is not 16-byte aligned");
  DenseView<float> c_shifted{C.data + 2, C.rows, C.cols, C.ld, C.layout};
  expect([&] { plan.run<__half, float>(std::as_const(d.A).view(), B, c_shifted, 1.0f, 0.0f, stream); }, Errc::invalid_argument,
         "C.data is not 16-byte aligned");
  DenseView<const __half> other_ld{B.data, B.rows, B.cols, B.ld + 8, B.layout};
  expect([&] { plan.run<__half, float>(std::as_const(d.A).view(), other_ld, C, 1.0f, 0.0f, stream); }, Errc::invalid_argument,
         "but the plan was made for 256 x 128 row-major with ld 128");
  BsrView<const __half> fewer = std::as_const(d.A).view();
  fewer.nnzb -= 1;
  expect([&] { plan.run<__half, float>(fewer, B, C, 1.0f, 0.0f, stream); }, Errc::invalid_argument,
         "but the plan was made for 256 x 256 in 64 x 64 blocks with ");
  std::vector<__half> cc(static_cast<std::size_t>(C.rows) * C.ld);
  DeviceBuffer<__half> c16 = DeviceBuffer<__half>::from_host(cc, stream);
  expect([&] {
    plan.run<__half, __half>(std::as_const(d.A).view(), B, DenseView<__half>{c16.data(), C.rows, C.cols, C.ld, C.layout}, 1.0f,
                             0.0f, stream);
  },
         Errc::invalid_argument, "the plan was made for f16 -> f32, run was called with f16 -> f16");
  // A CTA pair needs two CTAs; a tuned pair default would quietly run one CTA instead.
  GemmOptions pair_of_one;
  pair_of_one.cluster = 2;
  pair_of_one.max_ctas = 1;
  expect([&] { (void)plan_gemm(std::as_const(d.A).view(), describe(B), describe(C), pair_of_one, stream); },
         Errc::invalid_argument, "GemmOptions::cluster = 2 needs at least 2 CTAs, but max_ctas is 1");
  pair_of_one.max_ctas = 3;  // an odd limit: one pair
  const GemmPlan one_pair = plan_gemm(std::as_const(d.A).view(), describe(B), describe(C), pair_of_one, stream);
  CHECK(one_pair.ctas() == 2);
  CHECK_THAT(one_pair.name(), Catch::EndsWith("_pair"));
}

TEST_CASE("sm90 GEMM: small problems, both epilogues, for the sanitizers", "[ops][sm90][gpu][sm90small]") {
  // Quick enough to run under compute-sanitizer memcheck / racecheck / synccheck: each tuned
  // block height, the TMA-store (beta == 0; both C layouts, 16-bit and f32 output) and general
  // (beta != 0) epilogues, a split row (its partial tiles TMA-stored and thread-stored), per-panel
  // (N = 72) and one-box (N = 128) B stages, single CTAs and CTA pairs, loads with and without the
  // L2 evict-last priority, odd swath groups (short pieces walked backwards).
  BSRFLOW_REQUIRE_HOPPER();
  for (int b : {16, 32, 64, 128}) {
    Case c;
    c.R = c.C = b;
    c.M = 6 * b + b / 2, c.K = 20 * b, c.N = 72;  // the long row: 20 blocks > the 16-block split floor
    c.pattern = Pattern::one_long_row;
    GemmOptions split;
    split.max_ctas = 4;  // few CTAs: the long row is cut across them
    c.beta = 0.0f;
    check_exact<__half, __half>(c, split);  // partial tiles TMA-stored (R = 64 / 128)
    GemmOptions split_thread_stores = split;
    split_thread_stores.tma_store_epilogue = false;
    check_exact<__half, __half>(c, split_thread_stores);  // ... and written by the threads
    check_exact<__half, float>(c, split);  // f32 chunks TMA-stored into row-major C (swizzled rows)
    c.c_layout = Layout::col_major;
    check_exact<__half, __half>(c, split);  // 16-bit chunks TMA-stored into column-major C (swizzled)
    check_exact<__half, float>(c, split);   // f32 ones (256-byte columns: not swizzled)
    c.beta = 2.0f;
    c.N = 128;  // N % 64 == 0: row-major B stages as one 3-D box
    check_exact<__half, float>(c, GemmOptions{});
    // CTA pairs: two pairs share the split row; with one swath, rank 1 of each pair computes a
    // phantom swath (never stored).
    GemmOptions pairs = split;
    pairs.cluster = 2;
    c.beta = 0.0f;
    c.c_layout = Layout::row_major;
    check_exact<__half, __half>(c, pairs);
    // Loads without the L2 evict-last priority (the measuring switch).
    GemmOptions normal_priority = pairs;
    normal_priority.l2_evict_last = false;
    check_exact<__half, __half>(c, normal_priority);
    // Two swath groups of pairs (on the second the short rows walk backwards) with the split row.
    c.N = 4 * 256 + 72;
    check_exact<__half, __half>(c, pairs);
  }
  // 64-row blocks at swath 512 (32-deep chunks, 64 x 256 outputs per warpgroup, tuned for
  // near-equal rows): the split row in pairs over two swath groups, both epilogues.
  Case c;
  c.R = c.C = 64;
  c.M = 6 * 64 + 32, c.K = 20 * 64, c.N = 2 * 1024 + 72;
  c.pattern = Pattern::one_long_row;
  GemmOptions wide;
  wide.swath = 512;
  wide.max_ctas = 4;
  wide.cluster = 2;
  check_exact<__half, __half>(c, wide);
  c.c_layout = Layout::col_major;
  c.beta = 2.0f;
  check_exact<__half, float>(c, wide);
}

// ---- Autotuner: every configuration it may pick, and the exhaustive -> cached round trip ------

TEST_CASE("sm90 GEMM: every tunable configuration is exact against the reference", "[ops][sm90][gpu][tuning]") {
  BSRFLOW_REQUIRE_HOPPER();
  const DeviceInfo device = device_info();
  int tested = 0;
  for (const DType in : {DType::f16, DType::bf16})
    for (const Layout bl : {Layout::row_major, Layout::col_major})
      for (const int R : {16, 32, 64, 128})
        for (const int C : {16, 32, 64, 128}) {
          for (const GemmTunedConfig& cfg : tunable_configs(in, R, C, bl, device)) {
            CAPTURE(dtype_name(in), R, C, bl == Layout::row_major, cfg.name());
            // One 24-block row among short ones: long enough to be split (limit 16 blocks here),
            // so split and no-split schedules both run; N spans a partial last swath.
            Case c;
            c.R = R;
            c.C = C;
            c.M = 9 * R + R / 2;
            c.K = 24 * C;
            c.N = 1096;
            c.b_layout = bl;
            c.pattern = Pattern::one_long_row;
            c.seed = static_cast<std::uint32_t>(R * 1000 + C);
            const GemmOptions o = options_for(cfg);
            c.beta = 0.0f;
            if (in == DType::f16) check_exact<__half, float>(c, o);
            else check_exact<__nv_bfloat16, float>(c, o);
            c.c_layout = Layout::col_major;
            c.beta = -2.0f;
            if (in == DType::f16) check_exact<__half, __half>(c, o);
            else check_exact<__nv_bfloat16, __nv_bfloat16>(c, o);
            ++tested;
          }
        }
  CHECK(tested >= 128);
}

TEST_CASE("sm90 GEMM: exhaustive tuning stores a winner that a cached plan then uses", "[ops][sm90][gpu][tuning]") {
  BSRFLOW_REQUIRE_HOPPER();
  const test::TempDir dir("bsrflow_tuning_gpu");
  std::vector<std::string> warnings;
  TuningCache cache(dir.path, [&](const std::string& w) { warnings.push_back(w); });

  Case c;
  c.R = c.C = 64;
  c.M = c.K = 2048;
  c.N = 1024;
  c.pattern = Pattern::powerlaw;
  Stream stream;
  const Problem<__half, __half> p = integer_problem<__half, __half>(c);
  DeviceProblem<__half, __half> d(p, true, stream);
  const auto A = std::as_const(d.A).view();
  const DenseDesc Bd = describe(cview_of(d.B, p.B)), Cd = describe(view_of(d.C, p.C));

  GemmOptions o;
  o.tuning_cache = &cache;
  o.tuning = GemmTuning::cached;
  const GemmPlan miss = plan_gemm(A, Bd, Cd, o, stream);
  CHECK(miss.tuning_source() == TuningSource::heuristic);
  CHECK(miss.tuning_note().find("cache miss for ") == 0);

  o.tuning = GemmTuning::exhaustive;
  const GemmPlan tuned = plan_gemm(A, Bd, Cd, o, stream);
  CAPTURE(tuned.tuning_note());
  CHECK(tuned.tuning_source() == TuningSource::tuned);
  REQUIRE(tuned.kernel() == GemmKernel::sm90);
  const std::vector<TuningEntry> entries = cache.entries();
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].tuned_ms > 0);
  CHECK(entries[0].tuned_ms <= entries[0].heuristic_ms);
  CHECK(entries[0].key.environment.gpu == device_info().name);
  CHECK(entries[0].config.variant.swath == tuned.config().swath);
  CHECK(entries[0].config.stages == tuned.config().stages);

  o.tuning = GemmTuning::cached;
  const GemmPlan hit = plan_gemm(A, Bd, Cd, o, stream);
  CAPTURE(hit.tuning_note());
  CHECK(hit.tuning_source() == TuningSource::cache);
  // Same kernel: when the heuristic wins, `tuned` keeps the heuristic's kc = 0 (default k-chunk)
  // while the cached plan comes from options_for, which names the k-chunk explicitly; compare
  // with the k-chunk resolved.
  Sm90Config hit_config = hit.config(), tuned_config = tuned.config();
  hit_config.kc = hit_config.k_chunk();
  tuned_config.kc = tuned_config.k_chunk();
  CHECK(hit_config == tuned_config);
  CHECK(hit.name() == tuned.name());

  // Both plans are exact on the user's data (the tuner ran on its own scratch operands).
  const std::vector<__half> want = run_reference(d, p, c.alpha, c.beta, stream);
  CHECK(test::bitwise_equal(run_plan(tuned, d, p, c.alpha, c.beta, stream), want));
  CHECK(test::bitwise_equal(run_plan(hit, d, p, c.alpha, c.beta, stream), want));

  // Options that fix the configuration are never overridden.
  o.swath = 256;
  const GemmPlan fixed = plan_gemm(A, Bd, Cd, o, stream);
  CHECK(fixed.tuning_source() == TuningSource::options);
  CHECK(fixed.tuning_note() == "tuning not applied: GemmOptions fixes the configuration");
  CHECK(warnings.empty());
}
