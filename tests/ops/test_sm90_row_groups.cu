// Row-group kernels of the Hopper BSR GEMM (Sm90Config::row_group > 1, sm90_row_groups.hpp):
// - the item rule on the host (hand-checked groups) and the device builder against it;
// - the per-run gather against the swizzle rule;
// - the planner's options and errors (CPU, fake H100);
// - on a Hopper GPU, exact against the reference on hostile patterns (partial last group, empty
//   rows and groups, full density, one long row split across CTAs, power-law rows), random data
//   against fp64 with bitwise repeatability, CUDA Graph capture, and a small case for the
//   sanitizers. Every instantiated row-group kernel also runs in test_sm90_gemm.cu's registry test.
#include <catch2/catch.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/ops/gemm_plan.hpp"
#include "bsrflow/ops/sm90_choose.hpp"
#include "bsrflow/ops/sm90_row_groups.hpp"
#include "bsrflow/ops/tma_swizzle.hpp"
#include "bsrflow/ops/tuning_sm90.hpp"
#include "support/fake_device.hpp"
#include "support/gemm_problem.hpp"
#include "support/gpu.hpp"

using namespace bsrflow;
using namespace bsrflow::test::gemm;

namespace {

bool operator_eq(const sm90::RowGroupItem& a, const sm90::RowGroupItem& b) {
  return a.col == b.col && a.first == b.first && a.mask == b.mask;
}

bool same_items(const std::vector<sm90::RowGroupItem>& a, const std::vector<sm90::RowGroupItem>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!operator_eq(a[i], b[i])) return false;
  return true;
}

// row_ptr / col_idx of a block pattern.
void flatten(const std::vector<std::vector<int>>& rows, std::vector<int>& row_ptr, std::vector<int>& col_idx) {
  row_ptr.assign(1, 0);
  col_idx.clear();
  for (const auto& r : rows) {
    col_idx.insert(col_idx.end(), r.begin(), r.end());
    row_ptr.push_back(static_cast<int>(col_idx.size()));
  }
}


GemmOptions row_groups(int G = sm90::kRowGroupRows, int items_per_stage = 0) {
  GemmOptions o;
  o.kernel = GemmOptions::Choice::sm90;
  o.row_group = G;
  o.items_per_stage = items_per_stage;
  return o;
}

// Every row-group kernel: block size and items per stage (two at 16 x 16 only).
struct Form {
  int b;
  int items;
  std::string label() const { return "block " + std::to_string(b) + ", " + std::to_string(items) + " item(s) per stage"; }
  GemmOptions options() const { return row_groups(sm90::kRowGroupRows, items); }
  std::string suffix() const { return items > 1 ? "_g4x" + std::to_string(items) : "_g4"; }
};
constexpr Form kForms[] = {{16, 1}, {16, 2}, {32, 1}};

// Whether the row groups of this case's pattern are its rows sorted by length (the builder's
// rule, which the device builder is tested against), so that a test knows which grouping it ran.
bool grouped_by_length(const Case& c) {
  std::vector<int> row_ptr, col_idx;
  flatten(block_pattern(c.pattern, ceil_div(c.M, c.R), ceil_div(c.K, c.C), c.seed), row_ptr, col_idx);
  return sm90::build_row_groups_host(row_ptr, col_idx, sm90::kRowGroupRows, true).by_length;
}

int g_storage[4];
GemmBsrOperand pattern_of(int M, int K, int R, int C, std::int64_t nnzb = 1) {
  return {M, K, R, C, nnzb, &g_storage[0], &g_storage[1], &g_storage[2]};
}
DenseDesc dense(int rows, int cols, Layout l = Layout::row_major) {
  return {rows, cols, l == Layout::row_major ? cols : rows, l, DType::f16};
}

}  // namespace

TEST_CASE("row groups: items are the union of the group's columns, blocks in row order", "[ops][sm90][rowgroup]") {
  // Five block rows in groups of 2: {0: 1 4 | 1: 0 4 5}, {2: - | 3: 2}, {4: 3} (a partial group).
  const std::vector<std::vector<int>> rows = {{1, 4}, {0, 4, 5}, {}, {2}, {3}};
  std::vector<int> row_ptr, col_idx;
  flatten(rows, row_ptr, col_idx);
  const sm90::HostRowGroups h = sm90::build_row_groups_host(row_ptr, col_idx, 2, true);
  CHECK(h.item_ptr == std::vector<int>{0, 4, 5, 6});
  const std::vector<sm90::RowGroupItem> want = {
      {0, 0, 0b10, 0}, {1, 1, 0b01, 0}, {4, 2, 0b11, 0}, {5, 4, 0b10, 0},  // group 0: blocks 0-4
      {2, 5, 0b10, 0},                                                     // group 1: row 3 only
      {3, 6, 0b01, 0}};                                                    // group 2: row 4
  CHECK(same_items(h.items, want));
  // Gathered order: row 1's column 0 (stored block 2), row 0's 1 (0), rows 0 and 1's 4 (1, 3), ...
  CHECK(h.source == std::vector<int>{2, 0, 1, 3, 4, 5, 6});
  // Groups of rows sorted by length ({1, 0}, {3, 4}, {2}) would have as many items (6): consecutive.
  CHECK_FALSE(h.by_length);
  CHECK(h.rows == std::vector<int>{0, 1, 2, 3, 4, -1});
  // Groups of 1 are the rows themselves, in stored order.
  const sm90::HostRowGroups one = sm90::build_row_groups_host(row_ptr, col_idx, 1, true);
  CHECK(one.item_ptr == row_ptr);
  std::vector<int> identity(col_idx.size());
  std::iota(identity.begin(), identity.end(), 0);
  CHECK(one.source == identity);
}

TEST_CASE("row groups: rows sorted by length when that gives fewer items", "[ops][sm90][rowgroup]") {
  std::vector<int> row_ptr, col_idx;
  SECTION("long rows apart: grouped together") {
    // Rows 0 and 2 store columns 0-3, rows 1 and 3 one column each. Consecutive groups {0, 1},
    // {2, 3} have 5 + 5 items; sorted by length, {0, 2} shares all four B slices and {1, 3} has 2.
    flatten({{0, 1, 2, 3}, {6}, {0, 1, 2, 3}, {7}, {5}}, row_ptr, col_idx);
    const sm90::HostRowGroups h = sm90::build_row_groups_host(row_ptr, col_idx, 2, true);
    CHECK(h.by_length);
    CHECK(h.rows == std::vector<int>{0, 2, 1, 3, 4, -1});  // ties keep row order; the last group partial
    CHECK(h.item_ptr == std::vector<int>{0, 4, 6, 7});
    const std::vector<sm90::RowGroupItem> want = {
        {0, 0, 0b11, 0}, {1, 2, 0b11, 0}, {2, 4, 0b11, 0}, {3, 6, 0b11, 0},  // rows 0 and 2: blocks 0-7
        {6, 8, 0b01, 0}, {7, 9, 0b10, 0},                                    // row 1, then row 3
        {5, 10, 0b01, 0}};                                                   // row 4
    CHECK(same_items(h.items, want));
    // Gathered block j: row 0's column c (stored block c) then row 2's (stored 5 + c), ...
    CHECK(h.source == std::vector<int>{0, 5, 1, 6, 2, 7, 3, 8, 4, 9, 10});
    // Where sorted groups are not allowed (tuning_sm90.hpp row_groups_by_length), consecutive ones.
    const sm90::HostRowGroups consecutive = sm90::build_row_groups_host(row_ptr, col_idx, 2, false);
    CHECK_FALSE(consecutive.by_length);
    CHECK(consecutive.rows == std::vector<int>{0, 1, 2, 3, 4, -1});
    CHECK(consecutive.item_ptr == std::vector<int>{0, 5, 10, 11});
  }
  SECTION("neighbours sharing columns (banded): consecutive, though lengths differ") {
    // {0, 1} and {2, 3} share their columns: 4 + 4 items; sorted by length, {1, 3} and {0, 2} share none.
    flatten({{0, 1, 2}, {0, 1, 2, 3}, {5, 6, 7}, {5, 6, 7, 8}}, row_ptr, col_idx);
    const sm90::HostRowGroups h = sm90::build_row_groups_host(row_ptr, col_idx, 2, true);
    CHECK_FALSE(h.by_length);
    CHECK(h.rows == std::vector<int>{0, 1, 2, 3});
    CHECK(h.item_ptr == std::vector<int>{0, 4, 8});
  }
}

TEST_CASE("row groups: the gathered layout is the TMA swizzle of the block's rows", "[ops][sm90][rowgroup]") {
  // 32-byte rows (C = 16): 16-byte unit bit 4 flips with address bit 7 (every fifth row pair).
  CHECK(swizzled_offset(0, 32) == 0);
  CHECK(swizzled_offset(16, 32) == 16);
  CHECK(swizzled_offset(128, 32) == 144);
  CHECK(swizzled_offset(144, 32) == 128);
  // 64-byte rows: bits 4-5 take bits 7-8; 128-byte rows: bits 4-6 take bits 7-9.
  CHECK(swizzled_offset(384 + 16, 64) == 384 + (16 ^ (3 << 4)));
  CHECK(swizzled_offset(7 * 128 + 32, 128) == 7 * 128 + (32 ^ (7 << 4)));
  for (int row_bytes : {32, 64, 128}) {
    CAPTURE(row_bytes);
    std::vector<int> seen(2048, 0);
    for (std::uint32_t o = 0; o < 2048; o += 16) {
      const std::uint32_t s = swizzled_offset(o, row_bytes);
      CHECK(swizzled_offset(s, row_bytes) == o);  // an involution
      CHECK(s / 128 == o / 128);                         // within its 128-byte line
      ++seen[s];
    }
    for (std::uint32_t o = 0; o < 2048; o += 16) CHECK(seen[o] == 1);  // a permutation
    // Per row and 16-byte chunk (the form the skinny kernel's ldmatrix addressing reads): the
    // chunk index XOR the row's key.
    for (std::uint32_t row = 0; row < 2048u / row_bytes; ++row)
      for (std::uint32_t chunk = 0; chunk < static_cast<std::uint32_t>(row_bytes) / 16; ++chunk) {
        const std::uint32_t line = row * row_bytes;
        const std::uint32_t key = swizzle_key(line, static_cast<std::uint32_t>(row_bytes));
        CHECK(swizzled_offset(line + chunk * 16, row_bytes) == line + ((chunk ^ key) << 4));
        // A row 16 rows further on (the skinny kernel's next k16 step) has the same key.
        CHECK(swizzle_key(line + 16 * row_bytes, static_cast<std::uint32_t>(row_bytes)) == key);
      }
  }
}

TEST_CASE("row groups: options and errors on a fake H100", "[ops][sm90][rowgroup]") {
  const DeviceInfo h100 = test::fake_h100();
  for (int b : {16, 32}) {
    CAPTURE(b);
    const sm90::Choice c = sm90::choose(pattern_of(8 * b, 8 * b, b, b), DType::f16, dense(8 * b, 1024),
                                        dense(8 * b, 1024), row_groups(), h100);
    REQUIRE(c.use_sm90);
    CHECK(c.config.row_group == 4);
    CHECK(c.config.swath == sm90::row_group_swath(b));
    CHECK(c.config.swath == (b == 16 ? 512 : 256));
    CHECK(c.config.swap());
    CHECK(c.config.cluster == 1);
    CHECK(c.config.k_chunk() == b);
    CHECK(c.config.stages == (b == 16 ? 12 : 8));  // 18 KiB / 24 KiB stages
    CHECK(c.config.name() == "bsr_sm90_f16_r" + std::to_string(b) + "c" + std::to_string(b) + "_swath" +
                                 std::to_string(sm90::row_group_swath(b)) + "_s" + std::to_string(c.config.stages) +
                                 "_swap_g4");
    // The planner's own choice (tuning_sm90.hpp tuned_row_group): by density (of the 64 blocks),
    // from 4.5% at 16 x 16 and from 11% at 32 x 32 with row-major B, from 3% with column-major B.
    auto planned_rows = [&](std::int64_t nnzb, Layout bl) {
      return sm90::choose(pattern_of(8 * b, 8 * b, b, b, nnzb), DType::f16, dense(8 * b, 1024, bl), dense(8 * b, 1024),
                          GemmOptions{}, h100)
          .config.row_group;
    };
    CHECK(planned_rows(2, Layout::row_major) == 1);                  // 3.1%
    CHECK(planned_rows(3, Layout::row_major) == (b == 16 ? 4 : 1));  // 4.7%
    CHECK(planned_rows(4, Layout::row_major) == (b == 16 ? 4 : 1));  // 6.25%
    CHECK(planned_rows(6, Layout::row_major) == (b == 16 ? 4 : 1));  // 9.4%
    CHECK(planned_rows(7, Layout::row_major) == (b == 16 ? 4 : 1));  // 10.9%
    CHECK(planned_rows(8, Layout::row_major) == 4);                  // 12.5%
    CHECK(planned_rows(16, Layout::row_major) == 4);                 // 25%
    CHECK(planned_rows(32, Layout::row_major) == 4);                 // 50%
    CHECK(planned_rows(1, Layout::col_major) == 1);                  // 1.6%
    CHECK(planned_rows(2, Layout::col_major) == 4);                  // 3.1%
    CHECK(planned_rows(8, Layout::col_major) == 4);                  // 12.5%
    CHECK(sm90::tuned_row_group(b, b, Layout::col_major, 0.029) == 1);
    CHECK(sm90::tuned_row_group(b, b, Layout::col_major, 0.03) == 4);
    CHECK(sm90::tuned_row_group(32, 32, Layout::row_major, 0.109) == 1);
    CHECK(sm90::tuned_row_group(32, 32, Layout::row_major, 0.11) == 4);
    CHECK(sm90::tuned_row_group(16, 16, Layout::row_major, 0.044) == 1);
    CHECK(sm90::tuned_row_group(16, 16, Layout::row_major, 0.045) == 4);
    CHECK(sm90::tuned_row_group(b, b, Layout::row_major, 0.5) == 4);
    CHECK(sm90::tuned_row_group(64, 64, Layout::row_major, 0.5) == 1);
  }
  auto err = [&](int R, int C, GemmOptions o, Errc code, const std::string& text) {
    CAPTURE(R, C, text);
    try {
      (void)sm90::choose(pattern_of(8 * R, 8 * C, R, C), DType::f16, dense(8 * C, 1024), dense(8 * R, 1024), o, h100);
      FAIL_CHECK("no error");
    } catch (const Error& e) {
      CHECK(e.code() == code);
      CHECK_THAT(e.message(), Catch::Contains(text));
    }
  };
  err(16, 16, row_groups(3), Errc::invalid_argument, "GemmOptions::row_group (3) must be 0 (tuned), 1 or 4");
  err(16, 16, row_groups(2), Errc::invalid_argument, "GemmOptions::row_group (2) must be");
  err(16, 16, row_groups(-1), Errc::invalid_argument, "GemmOptions::row_group (-1)");
  err(64, 64, row_groups(), Errc::unsupported, "row-group kernels exist for 16 x 16 and 32 x 32 blocks, not 64 x 64");
  err(16, 32, row_groups(), Errc::unsupported, "not 16 x 32");
  GemmOptions pairs = row_groups();
  pairs.cluster = 2;
  err(16, 16, pairs, Errc::invalid_argument, "runs single CTAs; cluster must be 0 or 1");
  GemmOptions direct = row_groups();
  direct.orientation = GemmOrientation::direct;
  err(32, 32, direct, Errc::invalid_argument, "computes in the swap-AB orientation");
  GemmOptions shallow = row_groups();
  shallow.k_chunk = 16;
  err(32, 32, shallow, Errc::invalid_argument, "k_chunk must be 0 or C (32)");
  GemmOptions wide = row_groups();
  wide.swath = 1024;  // not instantiated with row groups
  err(16, 16, wide, Errc::unsupported, "no sm90 kernel is instantiated for bsr_sm90_f16_r16c16_swath1024");
  GemmOptions deep = row_groups();
  deep.stages = 13;
  err(16, 16, deep, Errc::invalid_argument, "GemmOptions::stages (13) must be in [2, 12]");
  // Two items per stage: 16 x 16 row groups only, six 36 KiB stages at most.
  err(16, 16, row_groups(4, 3), Errc::invalid_argument, "GemmOptions::items_per_stage (3) must be 0 (tuned), 1 or 2");
  err(16, 16, row_groups(4, -1), Errc::invalid_argument, "GemmOptions::items_per_stage (-1)");
  err(32, 32, row_groups(4, 2), Errc::unsupported,
      "GemmOptions::items_per_stage = 2 is a form of the 16 x 16 row-group kernel; this plan has 32 x 32 blocks and "
      "row_group 4");
  err(16, 16, row_groups(1, 2), Errc::unsupported, "this plan has 16 x 16 blocks and row_group 1 (row_group = 4 asks for row groups)");
  err(64, 64, row_groups(0, 2), Errc::unsupported, "this plan has 64 x 64 blocks and row_group 1");
  // Left to the planner, 1 of 64 blocks (1.6%) takes no row groups: two items per stage has none to carry.
  err(16, 16, row_groups(0, 2), Errc::unsupported, "this plan has 16 x 16 blocks and row_group 1");
  GemmOptions deep2 = row_groups(4, 2);
  deep2.stages = 7;
  err(16, 16, deep2, Errc::invalid_argument, "GemmOptions::stages (7) must be in [2, 6]");
}

TEST_CASE("row groups: two items per stage where memory is fast (fake H100 and H200)", "[ops][sm90][rowgroup]") {
  const DeviceInfo h100 = test::fake_h100(), h200 = test::fake_h200();
  const auto plan_on = [](const DeviceInfo& d, int b, std::int64_t nnzb, GemmOptions o) {
    return sm90::choose(pattern_of(8 * b, 8 * b, b, b, nnzb), DType::f16, dense(8 * b, 1024), dense(8 * b, 1024), o, d)
        .config;
  };
  // The tuned form: two items on the H200 (4.8 TB/s), one on the H100 (3.35 TB/s).
  CHECK(sm90::tuned_items_per_stage(16, 16, 4, h200.memory_bandwidth) == 2);
  CHECK(sm90::tuned_items_per_stage(16, 16, 4, h100.memory_bandwidth) == 1);
  CHECK(sm90::tuned_items_per_stage(16, 16, 4, sm90::kTwoItemsMinBandwidth) == 2);
  CHECK(sm90::tuned_items_per_stage(16, 16, 4, 0.0) == 1);  // unknown memory speed
  CHECK(sm90::tuned_items_per_stage(16, 16, 1, h200.memory_bandwidth) == 1);
  CHECK(sm90::tuned_items_per_stage(32, 32, 4, h200.memory_bandwidth) == 1);
  const Sm90Config on_h200 = plan_on(h200, 16, 8, GemmOptions{});  // 12.5%: row groups
  CHECK(on_h200.row_group == 4);
  CHECK(on_h200.items_per_stage == 2);
  CHECK(on_h200.stages == 6);  // 36 KiB stages
  CHECK(on_h200.name() == "bsr_sm90_f16_r16c16_swath512_s6_swap_g4x2");
  CHECK(plan_on(h100, 16, 8, GemmOptions{}).name() == "bsr_sm90_f16_r16c16_swath512_s12_swap_g4");
  // Below the row-group density, and at 32 x 32, one item per stage on both.
  CHECK(plan_on(h200, 16, 2, GemmOptions{}).items_per_stage == 1);
  CHECK(plan_on(h200, 16, 2, GemmOptions{}).row_group == 1);
  CHECK(plan_on(h200, 32, 32, GemmOptions{}).items_per_stage == 1);
  CHECK(plan_on(h200, 32, 32, GemmOptions{}).row_group == 4);
  // The caller's choice holds on either GPU; with row_group 0, 2 items ask for the planner's row
  // groups (an error where it takes none, above).
  CHECK(plan_on(h200, 16, 8, row_groups(4, 1)).name() == "bsr_sm90_f16_r16c16_swath512_s12_swap_g4");
  CHECK(plan_on(h100, 16, 8, row_groups(4, 2)).name() == "bsr_sm90_f16_r16c16_swath512_s6_swap_g4x2");
  GemmOptions two;
  two.items_per_stage = 2;
  CHECK(plan_on(h100, 16, 8, two).name() == "bsr_sm90_f16_r16c16_swath512_s6_swap_g4x2");
  GemmOptions shallow = row_groups(4, 2);
  shallow.stages = 3;
  CHECK(plan_on(h100, 16, 8, shallow).name() == "bsr_sm90_f16_r16c16_swath512_s3_swap_g4x2");
  // A caller's one-row geometry keeps one item on the H200.
  GemmOptions named;
  named.swath = 512;
  CHECK(plan_on(h200, 16, 8, named).name() == "bsr_sm90_f16_r16c16_swath512_s8_swap");
}

TEST_CASE("row groups: the device builder and the gather match the host rule", "[ops][sm90][rowgroup][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  for (Pattern p : {Pattern::powerlaw, Pattern::staircase, Pattern::empty_rows, Pattern::none, Pattern::full}) {
    for (int G : {1, 2, 4, 8}) {
      for (bool by_length : {false, true}) {
        CAPTURE(static_cast<int>(p), G, by_length);
        const auto rows = block_pattern(p, 37, 29, 3);  // 37 rows: a partial last group for G > 1
        std::vector<int> row_ptr, col_idx;
        flatten(rows, row_ptr, col_idx);
        const sm90::HostRowGroups h = sm90::build_row_groups_host(row_ptr, col_idx, G, by_length);
        // Sorted groups only where allowed; power-law rows in groups of two or more take them.
        if (!by_length || G == 1) CHECK_FALSE(h.by_length);
        if (p == Pattern::powerlaw && G > 1 && by_length) CHECK(h.by_length);
        DeviceBuffer<int> d_row_ptr = DeviceBuffer<int>::from_host(row_ptr, stream);
        DeviceBuffer<int> d_col_idx = DeviceBuffer<int>::from_host(col_idx, stream);
        const sm90::RowGroups d = sm90::build_row_groups(d_row_ptr.data(), d_col_idx.data(), 37,
                                                         static_cast<std::int64_t>(col_idx.size()), G, by_length,
                                                         stream);
        CHECK(d.groups == (37 + G - 1) / G);
        CHECK(d.by_length == h.by_length);
        CHECK(d.rows.to_host(stream) == h.rows);
        CHECK(d.num_items == static_cast<int>(h.items.size()));
        CHECK(d.item_ptr.to_host(stream) == h.item_ptr);
        CHECK(same_items(d.items.to_host(stream), h.items));
        CHECK(d.source.to_host(stream) == h.source);
      }
    }
  }
  // The gather: block j of the output is stored block source[j], 16-byte units swizzled.
  for (int b : {16, 32}) {
    CAPTURE(b);
    const int blocks = 23;
    const int per_block = b * b;
    std::vector<std::uint16_t> values(static_cast<std::size_t>(blocks) * per_block);
    std::iota(values.begin(), values.end(), std::uint16_t{1});
    std::vector<int> source(blocks);
    for (int j = 0; j < blocks; ++j) source[j] = (j * 7) % blocks;
    DeviceBuffer<std::uint16_t> d_values = DeviceBuffer<std::uint16_t>::from_host(values, stream);
    DeviceBuffer<int> d_source = DeviceBuffer<int>::from_host(source, stream);
    DeviceBuffer<std::uint16_t> out(values.size(), stream);
    out.fill_bytes(0xFF, stream);
    sm90::gather_row_groups(d_values.data(), d_source.data(), blocks, b, b, out.data(), stream);
    const std::vector<std::uint16_t> got = out.to_host(stream);
    std::vector<std::uint16_t> want(values.size());
    for (int j = 0; j < blocks; ++j)
      for (int o = 0; o < per_block * 2; o += 16) {
        const std::uint32_t from = swizzled_offset(static_cast<std::uint32_t>(o), 2 * b);
        std::memcpy(reinterpret_cast<unsigned char*>(want.data()) + static_cast<std::size_t>(j) * per_block * 2 + o,
                    reinterpret_cast<const unsigned char*>(values.data()) +
                        static_cast<std::size_t>(source[j]) * per_block * 2 + from,
                    16);
      }
    CHECK(got == want);
  }
}

TEST_CASE("row groups: exact on hostile patterns", "[ops][sm90][rowgroup][gpu]") {
  BSRFLOW_REQUIRE_HOPPER();
  for (const Form& form : kForms) {
    const int b = form.b;
    const auto row_groups = [&] { return form.options(); };
    const std::string name = form.label();
    Case c;
    c.R = c.C = b;
    c.M = 9 * b + b / 2;  // 10 block rows: groups of 4, 4 and 2, the last row partial
    c.K = 9 * b;
    c.N = 136;
    SECTION(name + ": patterns") {
      for (Pattern p : {Pattern::none, Pattern::empty_rows, Pattern::single_block, Pattern::full,
                        Pattern::random_half, Pattern::one_long_row}) {
        c.pattern = p;
        c.beta = 0.0f;
        check_exact<__half, float>(c, row_groups());
        c.beta = -3.0f;
        c.c_layout = Layout::col_major;
        check_exact<__half, __half>(c, row_groups());
        c.beta = 0.0f;  // 16-bit chunks TMA-stored: into column-major C, then row-major C
        check_exact<__half, __half>(c, row_groups());
        c.c_layout = Layout::row_major;
        c.b_layout = Layout::col_major;
        check_exact<__nv_bfloat16, __nv_bfloat16>(c, row_groups());
        c.b_layout = Layout::row_major;
      }
    }
    SECTION(name + ": rows of every length, whole and split, several swaths") {
      // Rows of 0, 1, 2, ... blocks: item batches of 32 end at every position against the tiles.
      c.M = 72 * b;
      c.K = c.M;
      c.N = 3 * sm90::row_group_swath(b) + 72;
      c.pattern = Pattern::staircase;
      GemmOptions no_split = row_groups();
      no_split.split_long_rows = false;
      check_exact<__half, float>(c, no_split);
      c.beta = 1.0f;
      check_exact<__half, __half>(c, row_groups());
    }
    SECTION(name + ": power-law rows, groups split across CTAs") {
      c.M = 48 * b;
      c.K = 40 * b;
      c.pattern = Pattern::powerlaw;
      CHECK(grouped_by_length(c));  // sorted where allowed: rows written through RowGroups::rows
      Stream stream;
      const Problem<__half, float> p = integer_problem<__half, float>(c);
      DeviceProblem<__half, float> d(p, true, stream);
      GemmOptions few = row_groups();
      few.max_ctas = 8;
      const GemmPlan plan =
          plan_gemm(std::as_const(d.A).view(), describe(cview_of(d.B, p.B)), describe(view_of(d.C, p.C)), few, stream);
      CHECK(plan.split_rows() > 0);
      CHECK(plan.name().ends_with(form.suffix()));
      check_exact<__half, float>(c, few);
      c.beta = 1.0f;
      c.c_layout = Layout::col_major;
      check_exact<__half, __half>(c, few);
      c.N = 3 * 512 + 136;  // odd swath groups: short pieces walk their items backwards
      c.beta = 0.0f;
      check_exact<__half, __half>(c, row_groups());
    }
  }
}

TEST_CASE("row groups: random data against fp64, bitwise repeatable, graph replay", "[ops][sm90][rowgroup][gpu]") {
  BSRFLOW_REQUIRE_HOPPER();
  for (const Form& form : kForms) {
    CAPTURE(form.label());
    const int b = form.b;
    Case c;
    c.R = c.C = b;
    c.M = 48 * b + 5;  // 13 groups of power-law rows: the longest are split at 6 CTAs
    c.K = 40 * b + 3;
    c.N = 264;
    c.beta = 0.5f;
    c.pattern = Pattern::powerlaw;
    c.seed = 42;
    CHECK(grouped_by_length(c));
    GemmOptions o = form.options();
    o.max_ctas = 6;  // split groups: the fix-up's fixed order keeps runs identical
    check_dtypes_against_fp64(c, o, [&](const GemmPlan& plan) {
      REQUIRE(plan.name().ends_with(form.suffix()));
      CHECK(plan.split_rows() > 0);
    });
    Stream stream;
    // Graph capture: the gather, the kernel and the fix-up replay as one graph.
    const Problem<__half, float> p = integer_problem<__half, float>(c);
    DeviceProblem<__half, float> d(p, false, stream);
    const GemmPlan plan =
        plan_gemm(std::as_const(d.A).view(), describe(cview_of(d.B, p.B)), describe(view_of(d.C, p.C)), o, stream);
    CHECK(plan.split_rows() > 0);
    const std::vector<float> eager = run_plan(plan, d, p, 2.0f, 1.0f, stream);
    for (const std::vector<float>& replayed : replay_in_graph(plan, d, p, 2.0f, 1.0f, 2, stream))
      CHECK(bsrflow::test::bitwise_equal(eager, replayed));
  }
}

TEST_CASE("row groups: small problems for the sanitizers", "[ops][sm90][rowgroup][gpu][sm90small]") {
  BSRFLOW_REQUIRE_HOPPER();
  for (const Form& form : kForms) {
    CAPTURE(form.label());
    const int b = form.b;
    const auto row_groups = [&] { return form.options(); };
    Case c;
    c.R = c.C = b;
    c.M = 6 * b + b / 2, c.K = 20 * b, c.N = 72;  // two groups, the second partial; a split long row
    c.pattern = Pattern::one_long_row;
    // The long row and row 0 share column 0, so sorted by length (where allowed) they share a group.
    CHECK(grouped_by_length(c));
    GemmOptions split = row_groups();
    split.max_ctas = 4;
    check_exact<__half, __half>(c, split);
    c.c_layout = Layout::col_major;
    c.beta = 2.0f;
    c.N = 2 * sm90::row_group_swath(b);  // two swath groups (the second walks backwards)
    check_exact<__half, float>(c, row_groups());
    GemmOptions copy = row_groups();
    copy.copy_only = true;  // loads only: C untouched (the probe)
    Stream stream;
    const Problem<__half, float> p = integer_problem<__half, float>(c);
    DeviceProblem<__half, float> d(p, false, stream);
    const GemmPlan plan =
        plan_gemm(std::as_const(d.A).view(), describe(cview_of(d.B, p.B)), describe(view_of(d.C, p.C)), copy, stream);
    CHECK(plan.name().ends_with(form.suffix() + "_copy"));
    std::vector<float> init = d.c_init;
    init.resize(d.c_init.size() + kGuard);
    std::memset(static_cast<void*>(init.data() + d.c_init.size()), 0xFF, kGuard * sizeof(float));
    CHECK(bsrflow::test::bitwise_equal(run_plan(plan, d, p, 1.0f, 0.0f, stream), init));
  }
}
