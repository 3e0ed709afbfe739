// SpMV host side without a GPU: the row partition, kernel names, the CPU reference SpMV, and
// every argument error plan_spmv / launch report before touching the device.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "bsrflow/ops/cpu_spmv.hpp"
#include "bsrflow/ops/spmv.hpp"
#include "bsrflow/ops/spmv_choose.hpp"
#include "bsrflow/ops/spmv_partition.hpp"
#include "bsrflow/ops/tuning_spmv.hpp"
#include "support/expect_error.hpp"
#include "support/patterns.hpp"

using namespace bsrflow;

namespace {

std::vector<int> row_ptr_of(const std::vector<int>& lengths) {
  std::vector<int> rp{0};
  for (int len : lengths) rp.push_back(rp.back() + len);
  return rp;
}

// Every partition invariant, for any input: contiguous cover; each group one long row or
// within both limits; greedy (the next block row would have broken a limit).
void check_partition(const SpmvPartition& part, const std::vector<int>& rp, int block_size, int capacity, int max_rows) {
  const int block_rows = static_cast<int>(rp.size()) - 1;
  REQUIRE(part.group_start.front() == 0);
  REQUIRE(part.group_start.back() == block_rows);
  int long_rows = 0;
  std::int64_t max_values = 0;
  for (int g = 0; g < part.groups(); ++g) {
    const int b0 = part.group_start[g], b1 = part.group_start[g + 1];
    REQUIRE(b1 > b0);
    const std::int64_t values = static_cast<std::int64_t>(rp[b1] - rp[b0]) * block_size;
    if (values > capacity) {
      REQUIRE(b1 == b0 + 1);  // a long row is alone
      ++long_rows;
      continue;
    }
    REQUIRE(b1 - b0 <= max_rows);
    max_values = std::max(max_values, values);
    if (b1 < block_rows && b1 - b0 < max_rows) {  // greedy: the next row did not fit
      const std::int64_t next = static_cast<std::int64_t>(rp[b1 + 1] - rp[b1]) * block_size;
      CHECK(values + next > capacity);
    }
  }
  CHECK(part.long_rows == long_rows);
  CHECK(part.max_group_values == max_values);
}

}  // namespace

TEST_CASE("SpMV partition: groups by capacity and row limit, long rows alone", "[ops]") {
  SECTION("empty matrix: no groups") {
    const SpmvPartition p = partition_block_rows(std::vector<int>{0}, 1, 2048, 256);
    CHECK(p.groups() == 0);
    CHECK(p.group_start == std::vector<int>{0});
  }
  SECTION("Poisson-like rows of 7: 256 rows per group (row limit), last group partial") {
    const std::vector<int> rp = row_ptr_of(std::vector<int>(1000, 7));
    const SpmvPartition p = partition_block_rows(rp, 1, 2048, 256);
    CHECK(p.group_start == std::vector<int>{0, 256, 512, 768, 1000});
    CHECK(p.long_rows == 0);
    CHECK(p.max_group_values == 1792);
    check_partition(p, rp, 1, 2048, 256);
  }
  SECTION("3x3 blocks, 7 per block row: 63 values each, 32 block rows per 2048") {
    const std::vector<int> rp = row_ptr_of(std::vector<int>(100, 7));
    const SpmvPartition p = partition_block_rows(rp, 9, 2048, 85);
    CHECK(p.group_start == std::vector<int>{0, 32, 64, 96, 100});
    CHECK(p.max_group_values == 2016);
  }
  SECTION("a row of exactly the capacity is streamed; one more value makes it long") {
    const std::vector<int> rp = row_ptr_of({3, 2048, 2049, 1, 1});
    const SpmvPartition p = partition_block_rows(rp, 1, 2048, 256);
    CHECK(p.group_start == std::vector<int>{0, 1, 2, 3, 5});
    CHECK(p.long_rows == 1);
    check_partition(p, rp, 1, 2048, 256);
  }
  SECTION("runs of empty rows are cut by the row limit") {
    const std::vector<int> rp = row_ptr_of(std::vector<int>(10, 0));
    const SpmvPartition p = partition_block_rows(rp, 4, 16, 4);
    CHECK(p.group_start == std::vector<int>{0, 4, 8, 10});
    CHECK(p.max_group_values == 0);
  }
  SECTION("power-law rows, several capacities and limits") {
    const HostCsr<float> csr = test::powerlaw_csr<float>(3000, 20000, 300000, 1.0, 42);
    for (const int block_size : {1, 9, 64})
      for (const int capacity : {1024, 2048, 4096})
        for (const int max_rows : {1, 7, 256}) {
          CAPTURE(block_size, capacity, max_rows);
          const SpmvPartition p = partition_block_rows(csr.row_ptr, block_size, capacity, max_rows);
          check_partition(p, csr.row_ptr, block_size, capacity, max_rows);
          CHECK(p.long_rows > 0);
        }
  }
}

TEST_CASE("SpMV defaults: 8 items x 256 rows for 1x1 blocks, 16 x 512 for larger blocks", "[ops]") {
  CHECK(spmv_tuning::default_items_per_thread(1, 1) == 8);
  CHECK(spmv_tuning::default_max_rows_per_cta(1, 1) == 256);
  CHECK(spmv_tuning::default_items_per_thread(3, 3) == 16);
  CHECK(spmv_tuning::default_max_rows_per_cta(3, 3) == 512);
  CHECK(spmv_tuning::default_items_per_thread(1, 2) == 16);
  CHECK(spmv_tuning::default_max_rows_per_cta(8, 1) == 512);
}

TEST_CASE("SpMV kernel names come from the configuration", "[ops]") {
  SpmvConfig c;
  c.dtype = DType::f64;
  c.R = 3;
  c.C = 3;
  c.items_per_thread = 8;
  c.max_block_rows_per_cta = 85;
  CHECK(spmv_kernel_name(c) == "spmv_f64_r3c3_t256i8_br85");
  c.dtype = DType::f32;
  c.R = c.C = 1;
  c.items_per_thread = 16;
  c.max_block_rows_per_cta = 256;
  CHECK(spmv_kernel_name(c) == "spmv_f32_r1c1_t256i16_br256");
  CHECK(c.capacity() == 4096);
  c.kernel = SpmvKernel::team;
  c.team = 16;
  c.rows_in_flight = 4;
  CHECK(spmv_kernel_name(c) == "spmv_f32_r1c1_team16x4");
  CHECK(c.team_block_rows_per_cta() == 64);
  c.kernel = SpmvKernel::bulk;
  c.R = c.C = 3;
  CHECK(spmv_kernel_name(c) == "spmv_f32_r3c3_bulk");
}

namespace {

// GPUs as the SpMV choice sees them: with and without cp.async.bulk.
DeviceInfo gpu(const char* name, int cc_major) {
  DeviceInfo d;
  d.name = name;
  d.cc_major = cc_major;
  return d;
}
const DeviceInfo no_bulk = gpu("NVIDIA A100-SXM4-80GB", 8);
const DeviceInfo hopper = gpu("NVIDIA H100 80GB HBM3", 9);

}  // namespace

TEST_CASE("SpMV kernel choice: the team kernel for short rows of square blocks up to 4 x 4", "[ops]") {
  const SpmvRowStats poisson{2097152, 14581760, 7};  // 7-point Poisson, 128^3
  SpmvConfig c = choose_spmv_config(DType::f64, 1, 1, poisson, {}, no_bulk);
  CHECK(c.kernel == SpmvKernel::team);
  CHECK(c.team == 8);
  CHECK(c.rows_in_flight == 4);
  CHECK(spmv_kernel_name(c) == "spmv_f64_r1c1_team8x4");
  c = choose_spmv_config(DType::f32, 3, 3, SpmvRowStats{884736, 6137856, 7}, {}, no_bulk);
  CHECK(spmv_kernel_name(c) == "spmv_f32_r3c3_team8x1");
  // Width: the narrowest team at least as wide as the mean row.
  CHECK(choose_spmv_config(DType::f64, 2, 2, SpmvRowStats{10, 80, 8}, {}, no_bulk).team == 8);
  CHECK(choose_spmv_config(DType::f64, 2, 2, SpmvRowStats{10, 81, 9}, {}, no_bulk).team == 16);
  CHECK(choose_spmv_config(DType::f64, 2, 2, SpmvRowStats{10, 170, 20}, {}, no_bulk).team == 32);
  CHECK(choose_spmv_config(DType::f64, 2, 2, SpmvRowStats{10, 900, 90}, {}, no_bulk).team == 32);
  CHECK(choose_spmv_config(DType::f64, 2, 2, SpmvRowStats{0, 0, 0}, {}, no_bulk).team == 8);  // empty
  // The longest row: at most kTeamMaxPasses passes of the team, else stream.
  const int passes = spmv_tuning::kTeamMaxPasses;
  CHECK(choose_spmv_config(DType::f64, 1, 1, SpmvRowStats{100, 700, 8 * passes}, {}, no_bulk).kernel == SpmvKernel::team);
  CHECK(choose_spmv_config(DType::f64, 1, 1, SpmvRowStats{100, 700, 8 * passes + 1}, {}, no_bulk).kernel == SpmvKernel::stream);
  // Blocks of more than 72 bytes, shapes without a team kernel, and stream settings take the
  // stream kernel.
  CHECK(choose_spmv_config(DType::f32, 4, 4, SpmvRowStats{100, 700, 7}, {}, no_bulk).kernel == SpmvKernel::team);
  CHECK(choose_spmv_config(DType::f64, 4, 4, SpmvRowStats{100, 700, 7}, {}, no_bulk).kernel == SpmvKernel::stream);
  CHECK(choose_spmv_config(DType::f64, 5, 5, poisson, {}, no_bulk).kernel == SpmvKernel::stream);
  CHECK(choose_spmv_config(DType::f64, 2, 3, poisson, {}, no_bulk).kernel == SpmvKernel::stream);
  CHECK(choose_spmv_config(DType::f64, 1, 1, poisson, SpmvOptions{8, 256}, no_bulk).kernel == SpmvKernel::stream);
  CHECK(choose_spmv_config(DType::f64, 1, 1, poisson, SpmvOptions{0, 0, SpmvKernel::stream, 0}, no_bulk).kernel ==
        SpmvKernel::stream);
  // Forced: the team kernel whatever the rows, at the asked width.
  c = choose_spmv_config(DType::f64, 4, 4, SpmvRowStats{10, 100000, 99991}, SpmvOptions{0, 0, SpmvKernel::team, 16}, no_bulk);
  CHECK(c.kernel == SpmvKernel::team);
  CHECK(c.team == 16);
  CHECK(c.rows_in_flight == 1);
  // Errors.
  BSRFLOW_CHECK_ERROR(choose_spmv_config(DType::f64, 2, 5, poisson, SpmvOptions{0, 0, SpmvKernel::team, 0}, no_bulk),
                      Errc::unsupported,
                      "spmv: the team kernel takes square blocks of 1 x 1 to 4 x 4, not 2 x 5 (SpmvOptions::kernel = "
                      "stream takes any)");
  BSRFLOW_CHECK_ERROR(choose_spmv_config(DType::f64, 5, 5, poisson, SpmvOptions{0, 0, SpmvKernel::team, 0}, no_bulk),
                      Errc::unsupported,
                      "spmv: the team kernel takes square blocks of 1 x 1 to 4 x 4, not 5 x 5 (SpmvOptions::kernel = "
                      "stream takes any)");
  BSRFLOW_CHECK_ERROR(choose_spmv_config(DType::f64, 1, 1, poisson, SpmvOptions{0, 0, SpmvKernel::team, 12}, no_bulk),
                      Errc::invalid_argument, "SpmvOptions: team 12 is not one of 0 (default), 8, 16, 32");
  for (const SpmvOptions& stream_settings : {SpmvOptions{8, 0, SpmvKernel::team, 0}, SpmvOptions{0, 64, SpmvKernel::team, 0}})
    BSRFLOW_CHECK_ERROR(choose_spmv_config(DType::f64, 1, 1, poisson, stream_settings, no_bulk), Errc::invalid_argument,
                        "SpmvOptions: items_per_thread and max_rows_per_cta configure the stream kernel; kernel = team "
                        "takes neither");
}

TEST_CASE("SpMV kernel choice: the bulk kernel on GPUs with bulk copies, for short rows", "[ops]") {
  const SpmvRowStats poisson{2097152, 14581760, 7};
  for (const DType dtype : {DType::f32, DType::f64})
    for (int b = 1; b <= 4; ++b) {
      CAPTURE(dtype_name(dtype), b);
      const SpmvConfig c = choose_spmv_config(dtype, b, b, poisson, {}, hopper);
      CHECK(c.kernel == SpmvKernel::bulk);
      CHECK(spmv_kernel_name(c) == "spmv_" + std::string(dtype_name(dtype)) + "_r" + std::to_string(b) + "c" +
                                       std::to_string(b) + "_bulk");
    }
  // The longest row: at most kBulkMaxRounds rounds of 8 / C blocks' gathers per thread.
  const int rounds = spmv_tuning::kBulkMaxRounds;
  CHECK(choose_spmv_config(DType::f64, 1, 1, SpmvRowStats{100, 700, 8 * rounds}, {}, hopper).kernel == SpmvKernel::bulk);
  CHECK(choose_spmv_config(DType::f64, 1, 1, SpmvRowStats{100, 700, 8 * rounds + 1}, {}, hopper).kernel ==
        SpmvKernel::team);
  CHECK(choose_spmv_config(DType::f64, 2, 2, SpmvRowStats{100, 700, 4 * rounds}, {}, hopper).kernel == SpmvKernel::bulk);
  CHECK(choose_spmv_config(DType::f64, 3, 3, SpmvRowStats{100, 700, 2 * rounds}, {}, hopper).kernel == SpmvKernel::bulk);
  // fem_solve's elasticity matrix: 27 blocks of 3 x 3 per block row, the team kernel's.
  CHECK(choose_spmv_config(DType::f64, 3, 3, SpmvRowStats{100, 2700, 27}, {}, hopper).kernel == SpmvKernel::team);
  CHECK(choose_spmv_config(DType::f64, 1, 1, SpmvRowStats{100, 700, 65}, {}, hopper).kernel ==
        SpmvKernel::stream);  // too long for the bulk kernel and for a team of 8 in 8 passes
  CHECK(choose_spmv_config(DType::f64, 5, 5, poisson, {}, hopper).kernel == SpmvKernel::stream);
  CHECK(choose_spmv_config(DType::f64, 2, 3, poisson, {}, hopper).kernel == SpmvKernel::stream);
  // Without bulk copies, or with team or stream settings: not the bulk kernel.
  CHECK(choose_spmv_config(DType::f64, 1, 1, poisson, {}, no_bulk).kernel == SpmvKernel::team);
  CHECK(choose_spmv_config(DType::f64, 1, 1, poisson, {}, DeviceInfo{}).kernel == SpmvKernel::team);
  CHECK(choose_spmv_config(DType::f64, 1, 1, poisson, SpmvOptions{0, 0, SpmvKernel::automatic, 16}, hopper).kernel ==
        SpmvKernel::team);
  CHECK(choose_spmv_config(DType::f64, 1, 1, poisson, SpmvOptions{8, 256}, hopper).kernel == SpmvKernel::stream);
  CHECK(choose_spmv_config(DType::f64, 1, 1, poisson, SpmvOptions{0, 0, SpmvKernel::team, 0}, hopper).kernel ==
        SpmvKernel::team);
  // Forced: rows up to one stage's values.
  const SpmvOptions bulk{0, 0, SpmvKernel::bulk, 0};
  CHECK(choose_spmv_config(DType::f64, 1, 1, SpmvRowStats{10, 3000, 2048}, bulk, hopper).kernel == SpmvKernel::bulk);
  CHECK(choose_spmv_config(DType::f32, 4, 4, SpmvRowStats{10, 300, 128}, bulk, hopper).kernel == SpmvKernel::bulk);
  // f32 blocks larger than 1x1 take stages of 4096 values (the same 16 KiB as 2048 f64 values).
  CHECK(choose_spmv_config(DType::f32, 2, 2, SpmvRowStats{10, 3000, 1024}, bulk, hopper).kernel == SpmvKernel::bulk);
  // One block row past one stage: f32 2x2 (4096 values), f32 and f64 1x1 and f64 3x3 (2048).
  struct TooLong {
    DType dtype;
    int b;
    std::int64_t blocks;
    const char* limit_and_longest;
  };
  for (const TooLong& t : {TooLong{DType::f32, 2, 1025, "4096 values (one stage); the longest has 4100"},
                           TooLong{DType::f32, 1, 2049, "2048 values (one stage); the longest has 2049"},
                           TooLong{DType::f64, 1, 2049, "2048 values (one stage); the longest has 2049"},
                           TooLong{DType::f64, 3, 300, "2048 values (one stage); the longest has 2700"}}) {
    CAPTURE(dtype_name(t.dtype), t.b);
    BSRFLOW_CHECK_ERROR(choose_spmv_config(t.dtype, t.b, t.b, SpmvRowStats{10, 3000, t.blocks}, bulk, hopper),
                        Errc::unsupported,
                        std::string("spmv: the bulk kernel takes block rows of at most ") + t.limit_and_longest +
                            " (SpmvOptions::kernel = stream takes any)");
  }
  BSRFLOW_CHECK_ERROR(choose_spmv_config(DType::f64, 1, 1, poisson, bulk, no_bulk), Errc::unsupported,
                      "spmv: the bulk kernel needs cp.async.bulk (sm_90 or newer); GPU NVIDIA A100-SXM4-80GB is sm_80 "
                      "(SpmvOptions::kernel = team or stream runs there)");
  BSRFLOW_CHECK_ERROR(choose_spmv_config(DType::f64, 2, 5, poisson, bulk, hopper), Errc::unsupported,
                      "spmv: the bulk kernel takes square blocks of 1 x 1 to 4 x 4, not 2 x 5 (SpmvOptions::kernel = "
                      "stream takes any)");
  for (const SpmvOptions& stream_settings : {SpmvOptions{8, 0, SpmvKernel::bulk, 0}, SpmvOptions{0, 64, SpmvKernel::bulk, 0}})
    BSRFLOW_CHECK_ERROR(choose_spmv_config(DType::f64, 1, 1, poisson, stream_settings, hopper), Errc::invalid_argument,
                        "SpmvOptions: items_per_thread and max_rows_per_cta configure the stream kernel; kernel = bulk "
                        "takes neither");
  BSRFLOW_CHECK_ERROR(choose_spmv_config(DType::f64, 1, 1, poisson, SpmvOptions{0, 0, SpmvKernel::bulk, 8}, hopper),
                      Errc::invalid_argument, "SpmvOptions: team configures the team kernel; kernel = bulk does not take it");
}

TEST_CASE("plan_spmv and launch reject bad arguments before touching the GPU", "[ops]") {
  const int fake[4] = {0, 0, 0, 0};  // never dereferenced: every call below fails its checks first
  BsrView<const double> A{6, 6, 3, 3, 0, fake, fake, nullptr};
  {
    BsrView<const double> bad = A;
    bad.R = 0;
    BSRFLOW_CHECK_ERROR(plan_spmv(bad, nullptr), Errc::invalid_argument,
                        "A has block shape 0 x 3; R and C must be positive");
  }
  {
    BsrView<const double> bad = A;
    bad.rows = -6;
    BSRFLOW_CHECK_ERROR(plan_spmv(bad, nullptr), Errc::invalid_argument,
                        "A is -6 x 6; dimensions must not be negative");
  }
  {
    BsrView<const double> bad = A;
    bad.row_ptr = nullptr;
    BSRFLOW_CHECK_ERROR(plan_spmv(bad, nullptr), Errc::invalid_argument,
                        "A.row_ptr is null but A has 2 block rows");
  }
  {
    BsrView<const double> bad = A;
    bad.nnzb = 3;
    bad.col_idx = nullptr;
    BSRFLOW_CHECK_ERROR(plan_spmv(bad, nullptr), Errc::invalid_argument, "A.col_idx is null but A stores 3 blocks");
  }
  {
    BsrView<const double> bad = A;
    bad.nnzb = 5;
    BSRFLOW_CHECK_ERROR(plan_spmv(bad, nullptr), Errc::invalid_structure,
                        "A stores 5 blocks but has only 2 x 2 = 4 block positions");
  }
  {
    BsrView<const float> wide{9, 18, 1, 9, 0, fake, fake, nullptr};
    BSRFLOW_CHECK_ERROR(plan_spmv(wide, nullptr), Errc::unsupported,
                        "spmv: block shape 1 x 9 is not supported (1 <= R, C <= 8)");
  }
  BSRFLOW_CHECK_ERROR(plan_spmv(A, nullptr, SpmvOptions{5, 0}), Errc::invalid_argument,
                      "SpmvOptions: items_per_thread 5 is not one of 0 (default), 4, 8, 16");
  BSRFLOW_CHECK_ERROR(plan_spmv(A, nullptr, SpmvOptions{0, -1}), Errc::invalid_argument,
                      "SpmvOptions: max_rows_per_cta (-1) must be in [0, 65536]");
  BSRFLOW_CHECK_ERROR(plan_spmv(A, nullptr, SpmvOptions{8, 70000}), Errc::invalid_argument,
                      "SpmvOptions: max_rows_per_cta (70000) must be in [0, 65536]");
  BSRFLOW_CHECK_ERROR(plan_spmv(A, nullptr, SpmvOptions{0, 0, SpmvKernel::team, 4}), Errc::invalid_argument,
                      "SpmvOptions: team 4 is not one of 0 (default), 8, 16, 32");
  {
    BsrView<const double> odd{6, 10, 3, 5, 0, fake, fake, nullptr};
    BSRFLOW_CHECK_ERROR(plan_spmv(odd, nullptr, SpmvOptions{0, 0, SpmvKernel::team, 0}), Errc::unsupported,
                        "spmv: the team kernel takes square blocks of 1 x 1 to 4 x 4, not 3 x 5 (SpmvOptions::kernel = "
                        "stream takes any)");
    BSRFLOW_CHECK_ERROR(plan_spmv(odd, nullptr, SpmvOptions{0, 0, SpmvKernel::bulk, 0}), Errc::unsupported,
                        "spmv: the bulk kernel takes square blocks of 1 x 1 to 4 x 4, not 3 x 5 (SpmvOptions::kernel = "
                        "stream takes any)");
  }
  BSRFLOW_CHECK_ERROR(plan_spmv(A, nullptr, SpmvOptions{16, 0, SpmvKernel::bulk, 0}), Errc::invalid_argument,
                      "SpmvOptions: items_per_thread and max_rows_per_cta configure the stream kernel; kernel = bulk "
                      "takes neither");

  const SpmvPlan empty;
  CHECK(empty.empty());
  CHECK(empty.grid_blocks() == 1);
  double y = 0;
  BSRFLOW_CHECK_ERROR(empty.launch<double>(A, &y, &y, scalar(1.0), scalar(0.0)), Errc::invalid_argument,
                      "spmv: the plan is empty (default-constructed)");
}

TEST_CASE("SpMV takes views of mutable values too, T deduced from x and y", "[ops]") {
  static_assert(std::is_convertible_v<BsrView<double>, BsrView<const double>>);
  static_assert(!std::is_convertible_v<BsrView<const double>, BsrView<double>>);
  const int fake[3] = {0, 0, 0};
  double v = 0;
  const BsrView<double> A{6, 6, 0, 3, 0, fake, fake, &v};  // R = 0: the first check fails
  BSRFLOW_CHECK_ERROR(plan_spmv(A, nullptr), Errc::invalid_argument,
                      "A has block shape 0 x 3; R and C must be positive");
  const SpmvPlan empty;
  double x = 0, y = 0;
  BSRFLOW_CHECK_ERROR(empty.launch(A, &x, &y, scalar(1.0), scalar(0.0)), Errc::invalid_argument,
                      "spmv: the plan is empty (default-constructed)");
  BSRFLOW_CHECK_ERROR(empty.run(A, &x, &y, scalar(1.0), scalar(0.0), nullptr), Errc::invalid_argument,
                      "spmv: the plan is empty (default-constructed)");
}

TEMPLATE_TEST_CASE("host::spmv: blocks, partial edges, alpha and beta", "[ops]", float, double) {
  using T = TestType;
  // 5 x 7 in 2 x 3 blocks: block rows {0-1, 2-3, 4}, block columns {0-2, 3-5, 6}.
  HostBsr<T> A;
  A.rows = 5;
  A.cols = 7;
  A.R = 2;
  A.C = 3;
  A.row_ptr = {0, 2, 2, 4};  // block row 1 empty
  A.col_idx = {0, 2, 1, 2};
  A.values.assign(4 * 6, T(0));
  std::mt19937 rng(3);
  for (int k = 0; k < 4; ++k)
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 3; ++c) {
        const int row = (k < 2 ? 0 : 2) * 2 + r, col = A.col_idx[k] * 3 + c;
        if (row < 5 && col < 7) A.at(k, r, c) = test::int_value<T>(rng);  // padding stays 0
      }
  const std::vector<T> x = {1, -2, 3, -1, 2, 4, -3};
  std::vector<T> y = {5, 6, 7, 8, 9};
  // Dense reference.
  std::vector<double> want(5, 0.0);
  for (int br = 0; br < 3; ++br)
    for (int k = A.row_ptr[br]; k < A.row_ptr[br + 1]; ++k)
      for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 3; ++c) {
          const int row = br * 2 + r, col = A.col_idx[k] * 3 + c;
          if (row < 5 && col < 7) want[row] += static_cast<double>(A.at(k, r, c)) * x[col];
        }
  const std::vector<double> got = host::spmv_f64(A, x, y, 2.0, -1.0);
  for (int i = 0; i < 5; ++i) CHECK(got[i] == 2.0 * want[i] - static_cast<double>(y[i]));
  CHECK(got[2] == -7.0);  // empty block row: beta * y only
  CHECK(got[3] == -8.0);

  std::vector<T> nan_y(5, std::numeric_limits<T>::quiet_NaN());
  host::spmv(A, x, nan_y, 1.0, 0.0);  // beta == 0: y not read
  for (int i = 0; i < 5; ++i) CHECK(nan_y[i] == static_cast<T>(want[i]));
  CHECK(host::dot_f64(std::vector<T>{1, 2}, std::vector<T>{3, -4}) == -5.0);

  BSRFLOW_CHECK_ERROR(host::spmv_f64(A, std::vector<T>(6), y, 1.0, 0.0), Errc::invalid_argument,
                      "x has 6 entries, expected A.cols = 7");
  BSRFLOW_CHECK_ERROR(host::spmv_f64(A, x, std::vector<T>(4), 1.0, 0.0), Errc::invalid_argument,
                      "y has 4 entries, expected A.rows = 5");
  BSRFLOW_CHECK_ERROR(host::dot_f64(std::vector<T>(3), std::vector<T>(4)), Errc::invalid_argument,
                      "w has 3 entries, y has 4");
  HostBsr<T> broken = A;
  broken.col_idx[1] = 3;
  BSRFLOW_CHECK_ERROR(host::spmv_f64(broken, x, y, 1.0, 0.0), Errc::invalid_structure,
                      "block row 0: block column 3 out of range [0, 3)");
}
