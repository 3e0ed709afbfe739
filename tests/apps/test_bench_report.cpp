#include <catch2/catch.hpp>

#include <cmath>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/bsr_bench/metrics.hpp"
#include "bsrflow/apps/bsr_bench/report.hpp"
#include "bsrflow/apps/bsr_bench/runner.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;

TEST_CASE("rates: effective TFLOPS counts stored blocks only", "[apps]") {
  CHECK(effective_flops(1000, 32, 32, 8192) == 2.0 * 1000 * 32 * 32 * 8192);
  CHECK(dense_flops(8192, 8192, 8192) == 2.0 * 8192.0 * 8192.0 * 8192.0);
  CHECK(tflops(1e12, 1.0) == Approx(1000.0));
  CHECK(std::isnan(tflops(1e12, 0.0)));
  CHECK(std::isnan(tflops(1e12, std::nan(""))));
  CHECK(gigabytes_per_second(4e9, 2.0) == Approx(2000.0));
}

TEST_CASE("speed-of-light byte model: A's block plus B's C x N rows per stored block", "[apps]") {
  // 2*R*C*N flops over (R*C + C*N) * 2 bytes.
  CHECK(l2_intensity(128, 128, 8192, 2) == Approx(2.0 * 128 * 128 * 8192 / ((128.0 * 128 + 128.0 * 8192) * 2)));
  CHECK(l2_intensity(16, 16, 8192, 2) == Approx(15.969).epsilon(1e-4));  // ~R flop/byte in f16
  // Small blocks are bound by L2, large ones by dense cuBLAS.
  CHECK(sol_tflops(880, 8e12, 16, 16, 8192, 2) == Approx(8.0 * 15.969).epsilon(1e-4));
  CHECK(sol_tflops(880, 8e12, 128, 128, 8192, 2) == 880);
  CHECK(sol_tflops(std::nan(""), 8e12, 16, 16, 8192, 2) == Approx(127.75).epsilon(1e-4));  // dense missing
  CHECK(sol_tflops(500, std::nan(""), 16, 16, 8192, 2) == 500);                            // probe missing
}

TEST_CASE("skinny byte count and correctness tolerances", "[apps]") {
  BenchCase c;
  c.m = 4096;
  c.n = 16;
  c.k = 11008;
  c.R = c.C = 32;
  CHECK(c.skinny());
  // A: values + col_idx + row_ptr; B once; C once.
  CHECK(minimum_bytes_moved(c, 11008) == 11008.0 * 1024 * 2 + 11008.0 * 4 + 129.0 * 4 + 11008.0 * 16 * 2 + 4096.0 * 16 * 2);
  CHECK(correctness_tolerance(DType::f16) == 5e-3);
  CHECK(correctness_tolerance(DType::bf16) == 1e-2);
}

namespace {
Record result(const std::string& system, const std::string& kind, const std::string& status, double eff, double ms,
              bool skinny = false) {
  BenchCase c;
  c.m = c.k = 8192;
  c.n = skinny ? 16 : 8192;
  Record r = case_record(c, 262144, 40, 0.125);
  r.set("system", system).set("system_kind", kind).set("status", status).set("correct", status == "ok");
  if (status == "ok") r.set("eff_tflops", eff).set("ms", ms).set("ms_p10", ms).set("ms_p90", ms).set("gbps", 100.0 * eff);
  if (status == "wrong") r.set("rel_error", 0.7);
  if (status == "unsupported") r.set("note", "Blocked-ELL takes square blocks only");
  r.set("l2_gbps", 8000.0).set("copy_gbps", 4000.0);
  r.set("device", "NVIDIA H200").set("date", "2025-01-01T00:00:00Z").set("commit", "abc1234");
  return r;
}
}  // namespace

TEST_CASE("comparisons between the systems of one case", "[apps]") {
  std::vector<Record> records = {
      result("bsrflow_reference", "bsrflow", "ok", 10, 10),
      result("cublas_dense", "dense_baseline", "ok", 800, 1.0),
      result("cusparse_bsr", "sparse_peer", "ok", 20, 5),
      result("cusparse_blocked_ell", "sparse_peer", "ok", 100, 1.5),
      result("broken_peer", "sparse_peer", "wrong", 0, 0),
  };
  add_comparisons(records);
  const Record& ref = records[0];
  CHECK(ref.number("ratio_to_dense") == Approx(10.0 / 800));
  CHECK(ref.number("speedup_vs_dense") == Approx(0.1));
  CHECK(ref.number("ratio_to_best_peer") == Approx(0.1));  // best correct peer: Blocked-ELL at 100
  const double sol = sol_tflops(800, 8e12, 32, 32, 8192, 2);
  CHECK(ref.number("sol_tflops") == Approx(sol));
  CHECK(ref.number("pct_sol") == Approx(10.0 / sol));
  CHECK(records[3].number("ratio_to_best_peer") == Approx(1.0));
  CHECK(records[1].number("ratio_to_dense") == Approx(1.0));
  CHECK(std::isnan(records[1].number("pct_sol")));            // no SOL for the dense baseline itself
  CHECK(std::isnan(records[1].number("ratio_to_best_peer")));
  CHECK(std::isnan(records[4].number("ratio_to_dense")));     // a wrong result gets no numbers
  CHECK(std::isnan(records[4].number("pct_sol")));

  // Skinny cases: % SOL is the fraction of the copy bandwidth.
  std::vector<Record> skinny = {result("cublas_dense", "dense_baseline", "ok", 50, 0.1, true),
                                result("bsrflow_reference", "bsrflow", "ok", 5, 1.0, true)};
  add_comparisons(skinny);
  CHECK(skinny[1].number("pct_copy_bw") == Approx(500.0 / 4000));
  CHECK(skinny[1].number("pct_sol") == Approx(500.0 / 4000));
}

TEST_CASE("Markdown report: a row per record and a footer that defines the columns", "[apps]") {
  std::vector<Record> records = {result("cublas_dense", "dense_baseline", "ok", 800, 1.0),
                                 result("cusparse_bsr", "sparse_peer", "wrong", 0, 0),
                                 result("cusparse_blocked_ell", "sparse_peer", "unsupported", 0, 0)};
  add_comparisons(records);
  TimingConfig timing;
  const std::string md = bench_markdown(records, timing, 3);
  CHECK_THAT(md, Catch::Contains("| case "));
  CHECK_THAT(md, Catch::Contains("| 8192^3 32x32 12.5% uniform f16 | cublas_dense "));
  CHECK_THAT(md, Catch::Contains("WRONG (rel err 0.700)"));
  CHECK_THAT(md, Catch::Contains("| unsupported "));
  CHECK_THAT(md, Catch::Contains("Blocked-ELL takes square blocks only"));
  CHECK_THAT(md, Catch::Contains("Device: NVIDIA H200; date: 2025-01-01T00:00:00Z; commit: abc1234."));
  CHECK_THAT(md, Catch::Contains("L2 read 8000 GB/s (a plain L2 read probe"));
  CHECK_THAT(md, Catch::Contains("eff TFLOPS = 2 * nnzb * R * C * N / t"));
  CHECK_THAT(md, Catch::Contains("% SOL = eff TFLOPS / min(cuBLAS dense TFLOPS, L2 read bandwidth x 2*R*C*N / ((R*C + C*N)"));
  CHECK_THAT(md, Catch::Contains("median of 20 runs"));
  CHECK_THAT(md, Catch::Contains("capped at 3 timed runs"));
}

TEST_CASE("chart: a group per case, a bar per system, none for failed systems", "[apps]") {
  std::vector<Record> records = {result("cublas_dense", "dense_baseline", "ok", 800, 1.0),
                                 result("cusparse_bsr", "sparse_peer", "wrong", 0, 0)};
  Record other = result("cublas_dense", "dense_baseline", "ok", 700, 1.0);
  other.set("case", "another case");
  records.push_back(other);
  const BarChart chart = bench_chart(records);
  CHECK(chart.categories == std::vector<std::string>{"8192^3 32x32 12.5% uniform f16", "another case"});
  CHECK(chart.series == std::vector<std::string>{"cublas_dense", "cusparse_bsr"});
  REQUIRE(chart.values.size() == 2);
  CHECK(chart.values[0][0] == 800);
  CHECK(std::isnan(chart.values[0][1]));
  CHECK(chart.values[1][0] == 700);
  CHECK(std::isnan(chart.values[1][1]));
  CHECK_THAT(chart.title, Catch::Contains("NVIDIA H200, commit abc1234"));
  CHECK(chart.log_y);
}
