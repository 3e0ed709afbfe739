#include <algorithm>
#include <catch2/catch.hpp>

#include <cmath>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/bsr_bench/block_patterns.hpp"
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

TEST_CASE("speed-of-light models: the L2 fallback over a swath, the copy bound", "[apps]") {
  // 2*R*C*S flops over (R*C + C*S) * 2 bytes, S = the tile's columns.
  CHECK(l2_intensity(128, 128, 256, 2) == Approx(2.0 * 128 * 128 * 256 / ((128.0 * 128 + 128.0 * 256) * 2)));
  CHECK(l2_intensity(16, 16, 512, 2) == Approx(15.53).epsilon(1e-3));  // ~R flop/byte in f16
  // Small blocks are bound by L2, large ones by dense cuBLAS.
  CHECK(sol_tflops(880, 8e12, 16, 16, 512, 2) == Approx(8.0 * 15.53).epsilon(1e-3));
  CHECK(sol_tflops(880, 8e12, 128, 128, 256, 2) == Approx(8.0 * 85.33).epsilon(1e-3));  // 128 flop/byte at most
  CHECK(sol_tflops(880, 12e12, 128, 128, 256, 2) == 880);
  CHECK(sol_tflops(std::nan(""), 8e12, 16, 16, 512, 2) == Approx(124.2).epsilon(1e-3));  // dense missing
  CHECK(sol_tflops(500, std::nan(""), 16, 16, 512, 2) == 500);                           // probe missing
  CHECK(min_finite(3, 2) == 2);
  CHECK(min_finite(std::nan(""), 2) == 2);
  CHECK(std::isnan(min_finite(std::nan(""), std::nan(""))));
  // 1e12 flops over 2e9 bytes at 4e12 bytes/s: 0.5 ms, 2000 TFLOPS.
  CHECK(copy_bound_tflops(1e12, 2e9, 4e12) == Approx(2000.0));
  CHECK(std::isnan(copy_bound_tflops(1e12, 2e9, std::nan(""))));
}

TEST_CASE("minimum bytes: A, the rows of B under touched block columns, C once; tolerances", "[apps]") {
  BenchCase c;
  c.m = 4096;
  c.n = 16;
  c.k = 11008;
  c.R = c.C = 32;
  CHECK(c.skinny());
  // A: values + col_idx + row_ptr; B: 300 of the 344 block columns touched; C once.
  CHECK(minimum_bytes_moved(c, 11008, 300) ==
        11008.0 * 1024 * 2 + 11008.0 * 4 + 129.0 * 4 + 300.0 * 32 * 16 * 2 + 4096.0 * 16 * 2);
  CHECK(correctness_tolerance(DType::f16) == 5e-3);
  CHECK(correctness_tolerance(DType::bf16) == 1e-2);
}

TEST_CASE("case records carry the case and its pattern, and read back", "[apps]") {
  BenchCase c;
  c.m = 256;
  c.n = 64;
  c.k = 512;
  c.R = 16;
  c.C = 64;
  c.density = 0.25;
  c.pattern = Pattern::powerlaw;
  c.dtype = DType::bf16;
  c.b_layout = Layout::col_major;
  c.seed = 9;
  const BlockPattern p = make_block_pattern(c.pattern, c.block_rows(), c.block_cols(), c.density, c.seed);
  const Record r = case_record(c, p);
  CHECK(r.text("case") == c.label());
  CHECK(r.number("nnzb") == static_cast<double>(p.nnzb()));
  CHECK(r.number("touched_block_cols") == p.touched_block_cols());
  CHECK(r.number("min_bytes") == minimum_bytes_moved(c, p.nnzb(), p.touched_block_cols()));
  CHECK(r.flag("skinny"));
  CHECK(r.number("chain") == 1);
  CHECK(case_from_record(r) == c);
  c.chain = 4;
  const Record chained = case_record(c, p);
  CHECK(chained.text("case") == c.label());
  CHECK(chained.number("chain") == 4);
  CHECK(case_from_record(chained) == c);
  Record older = chained;  // JSON written before --chain existed (no field, read back as null): one launch
  older.set("chain", Field());
  CHECK(case_from_record(older).chain == 1);
}

namespace {
constexpr std::int64_t kNnzb = 256 * 32;  // 12.5% of 256 x 256 blocks of 32 x 32

Record result(const std::string& system, const std::string& kind, const std::string& status, double eff, double ms,
              bool skinny = false, const std::string& case_label = "") {
  BenchCase c;
  c.m = c.k = 8192;
  c.n = skinny ? 16 : 8192;
  Record r = case_record(c, uniform_pattern(c.block_rows(), c.block_cols(), c.density, c.seed));
  if (!case_label.empty()) r.set("case", case_label);
  r.set("system", system).set("system_kind", kind).set("status", status).set("correct", status == "ok");
  if (kind == "sol_probe" || kind == "dense_random") r.set("correct", Field());
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
      result("bsrflow_sm90_copy_probe", "sol_probe", "ok", 300, 0.5),
      result("cublas_dense", "dense_baseline", "ok", 800, 1.0),
      result("cusparse_bsr", "sparse_peer", "ok", 20, 5),
      result("cusparse_blocked_ell", "sparse_peer", "ok", 100, 1.5),
      result("broken_peer", "sparse_peer", "wrong", 0, 0),
      result("cublas_dense_random", "dense_random", "ok", 680, 1.2),
  };
  add_comparisons(records);
  const Record& ref = records[0];
  CHECK(ref.number("ratio_to_dense") == Approx(10.0 / 800));
  CHECK(ref.number("speedup_vs_dense") == Approx(0.1));
  CHECK(ref.number("ratio_to_best_peer") == Approx(0.1));  // best correct peer: Blocked-ELL at 100
  CHECK(ref.text("best_peer") == "cusparse_blocked_ell");
  // SOL = min(dense 800, copy-only probe 300), for every record of the case.
  for (const Record& r : records) {
    CHECK(r.text("sol_source") == "copy_only_probe");
    CHECK(r.number("sol_tflops") == 300);
  }
  CHECK(ref.number("pct_sol") == Approx(10.0 / 300));
  CHECK(records[4].number("ratio_to_best_peer") == Approx(1.0));
  CHECK(records[2].number("ratio_to_dense") == Approx(1.0));
  for (const std::size_t reference_point : {1u, 2u, 6u}) {  // the probe and the dense rates define the denominators
    CHECK(std::isnan(records[reference_point].number("pct_sol")));
    CHECK(std::isnan(records[reference_point].number("ratio_to_best_peer")));
  }
  for (const std::size_t dense : {2u, 6u}) CHECK(std::isnan(records[dense].number("pct_copy_bw")));  // no sparse bytes
  // cuBLAS on random dense data: a second dense rate, never the "vs dense" denominator nor a peer.
  CHECK(ref.number("ratio_to_dense_random") == Approx(10.0 / 680));
  CHECK(records[6].number("ratio_to_dense") == Approx(680.0 / 800));
  CHECK(records[6].number("ratio_to_dense_random") == Approx(1.0));
  CHECK(records[2].number("ratio_to_dense_random") == Approx(800.0 / 680));
  CHECK(records[6].number("speedup_vs_dense") == Approx(1.0 / 1.2));
  CHECK(records[1].number("ratio_to_dense") == Approx(300.0 / 800));
  CHECK(std::isnan(records[5].number("ratio_to_dense")));  // a wrong result gets no numbers
  CHECK(std::isnan(records[5].number("pct_sol")));

  // A faster dense baseline than the probe is never the SOL's upper end...
  std::vector<Record> slow_dense = {result("cublas_dense", "dense_baseline", "ok", 200, 4.0),
                                    result("bsrflow_sm90_copy_probe", "sol_probe", "ok", 300, 0.5),
                                    result("bsrflow_sm90", "bsrflow", "ok", 150, 1.0)};
  add_comparisons(slow_dense);
  CHECK(std::isnan(slow_dense[2].number("ratio_to_dense_random")));  // none in this case
  CHECK(slow_dense[2].number("sol_tflops") == 200);  // ... the smaller of the two wins
  CHECK(slow_dense[2].number("pct_sol") == Approx(0.75));

  // Without a probe (it could not run): the L2 model over the tuned swath (512 for R = 32).
  std::vector<Record> fallback = {result("cublas_dense", "dense_baseline", "ok", 800, 1.0),
                                  result("bsrflow_sm90_copy_probe", "sol_probe", "unsupported", 0, 0),
                                  result("bsrflow_sm90", "bsrflow", "ok", 150, 1.0)};
  add_comparisons(fallback);
  const double l2_sol = sol_tflops(800, 8e12, 32, 32, 512, 2);
  CHECK(fallback[2].text("sol_source") == "l2_probe");
  CHECK(fallback[2].number("sol_tflops") == Approx(l2_sol));
  CHECK(fallback[2].number("pct_sol") == Approx(150 / l2_sol));

  // Skinny cases: the SOL is the copy bandwidth, % SOL = GB/s / copy GB/s.
  std::vector<Record> skinny = {result("cublas_dense", "dense_baseline", "ok", 50, 0.1, true),
                                result("bsrflow_sm90_copy_probe", "sol_probe", "ok", 40, 0.1, true),
                                result("bsrflow_reference", "bsrflow", "ok", 5, 1.0, true)};
  add_comparisons(skinny);
  CHECK(skinny[2].text("sol_source") == "copy_bandwidth");
  CHECK(skinny[2].number("pct_copy_bw") == Approx(500.0 / 4000));
  const Record& sk = skinny[2];
  CHECK(sk.number("sol_tflops") ==
        Approx(copy_bound_tflops(effective_flops(kNnzb, 32, 32, 16), sk.number("min_bytes"), 4000e9)));
  CHECK(sk.number("pct_sol") == Approx(5.0 / sk.number("sol_tflops")));
}

TEST_CASE("Markdown report: a row per record and a footer that defines the columns", "[apps]") {
  std::vector<Record> records = {result("bsrflow_sm90", "bsrflow", "ok", 200, 0.6),
                                 result("bsrflow_sm90_copy_probe", "sol_probe", "ok", 300, 0.4),
                                 result("cublas_dense", "dense_baseline", "ok", 800, 1.0),
                                 result("cusparse_bsr", "sparse_peer", "wrong", 0, 0),
                                 result("cusparse_blocked_ell", "sparse_peer", "unsupported", 0, 0),
                                 result("bsrflow_sm90", "bsrflow", "ok", 200, 0.6, false, "other case"),
                                 result("cublas_dense_random", "dense_random", "ok", 680, 1.2)};
  // The SM clock over the series: the lowest sample shown when 5% below the mean, and the limits.
  records[0].set("sm_mhz", 1515.4).set("sm_mhz_min", 1410.0).set("clock_limits", "power cap");
  records[2].set("sm_mhz", 1755.0).set("sm_mhz_min", 1740.0).set("clock_limits", "none");
  records[5].set("sm_mhz", 1600.0).set("sm_mhz_min", 1590.0).set("clock_limits", "thermal (software)");
  add_comparisons(records);
  TimingConfig timing;
  const std::string md = bench_markdown(records, timing, 3);
  CHECK_THAT(md, Catch::Contains(" SM MHz (NVML) | note"));
  CHECK_THAT(md, Catch::Contains("| 1515 (min 1410; power cap) |"));
  CHECK_THAT(md, Catch::Contains(" 1755 |"));
  CHECK_THAT(md, Catch::Contains(" 1600 (thermal (software)) |"));
  CHECK_THAT(md, Catch::Contains("                          - |"));  // no monitor (the other records)
  CHECK_THAT(md, Catch::Contains("SM MHz (NVML) = the SM clock the driver reported over the timed series"));
  CHECK_THAT(md, Catch::Contains("not the effective clock inside a kernel"));
  CHECK_THAT(md, Catch::Contains("| case "));
  CHECK_THAT(md, Catch::Contains("| SOL from "));
  CHECK_THAT(md, Catch::Contains("| 8192^3 32x32 12.5% uniform f16 | cublas_dense "));
  CHECK_THAT(md, Catch::Contains("| bsrflow_sm90_copy_probe | probe "));
  CHECK_THAT(md, Catch::Contains("| cublas_dense_random     | not checked "));
  CHECK_THAT(md, Catch::Contains("cublas_dense_random times the same call on random dense data of A's shape"));
  CHECK_THAT(md, Catch::Contains("66.7% | copy probe "));  // 200 of min(800, 300)
  CHECK_THAT(md, Catch::Contains("| L2 model "));          // "other case" has no probe
  CHECK_THAT(md, Catch::Contains("WRONG (rel err 0.700)"));
  CHECK_THAT(md, Catch::Contains("| unsupported "));
  CHECK_THAT(md, Catch::Contains("Blocked-ELL takes square blocks only"));
  CHECK_THAT(md, Catch::Contains("Device: NVIDIA H200; date: 2025-01-01T00:00:00Z; commit: abc1234."));
  CHECK_THAT(md, Catch::Contains("L2 read 8000 GB/s"));
  CHECK_THAT(md, Catch::Contains("eff TFLOPS = 2 * nnzb * R * C * N / t"));
  CHECK_THAT(md, Catch::Contains("'copy probe' = min(cuBLAS dense TFLOPS, the effective TFLOPS of bsrflow_sm90_copy_probe"));
  CHECK_THAT(md, Catch::Contains("'L2 model' where that probe cannot run"));
  CHECK_THAT(md, Catch::Contains("correct = null in the JSON"));
  CHECK_THAT(md, Catch::Contains("median of 20 runs"));
  CHECK_THAT(md, !Catch::Contains("keep the GPU busy"));
  timing.warmup_ms = 200;
  CHECK_THAT(bench_markdown(records, timing, 3),
             Catch::Contains("after 3 warm-up runs and as many more as keep the GPU busy for 200 ms"));
  timing.warmup_ms = 0;
  timing.rest_ms = 200;
  CHECK_THAT(bench_markdown(records, timing, 3),
             Catch::Contains("after 200 ms with the GPU idle (each series starts from a rested GPU) and 3 warm-up runs,"));
  CHECK_THAT(md, Catch::Contains("capped at 3 timed runs"));
  CHECK_THAT(md, !Catch::Contains("'chainL' cases"));
  records[0].set("chain", 8);  // a chained case explains what its figures are
  CHECK_THAT(bench_markdown(records, timing, 3),
             Catch::Contains("'chainL' cases (--chain L): a timed run is L products back to back on one stream"));
}

TEST_CASE("chart: a panel per density, x = block shape, a line per system and dtype", "[apps]") {
  // Cases as records: R x C, density, dtype, status; one system each unless said.
  const auto rec = [](const std::string& system, int R, int C, double density, DType dtype, double eff,
                      const std::string& status = "ok") {
    BenchCase c;
    c.m = c.n = c.k = 1024;
    c.R = R;
    c.C = C;
    c.density = density;
    c.dtype = dtype;
    Record r = case_record(c, uniform_pattern(c.block_rows(), c.block_cols(), c.density, c.seed));
    r.set("system", system).set("status", status).set("eff_tflops", eff);
    r.set("device", "NVIDIA H200").set("commit", "abc1234");
    return r;
  };
  std::vector<Record> records = {
      rec("bsrflow_sm90", 64, 64, 0.125, DType::f16, 400),  rec("cublas_dense", 64, 64, 0.125, DType::f16, 800),
      rec("bsrflow_sm90", 16, 64, 0.125, DType::f16, 100),  rec("bsrflow_sm90", 16, 16, 0.125, DType::f16, 60),
      rec("bsrflow_sm90", 32, 32, 0.5, DType::f16, 230),    rec("bsrflow_sm90", 64, 64, 0.125, DType::bf16, 390),
      rec("cusparse_bsr", 16, 64, 0.125, DType::f16, 0, "unsupported"),
  };
  Record variant = rec("bsr_sm90_f16_r64c64_swath256_s5_swap", 64, 64, 0.125, DType::f16, 350);
  variant.set("sm90_variant", "swath256_swap");
  records.push_back(variant);
  const PanelChart chart = bench_chart(records);
  REQUIRE(chart.panels.size() == 2);
  CHECK(chart.panels[0].title == "1024^3 12.5% uniform");
  CHECK(chart.panels[1].title == "1024^3 50% uniform");
  CHECK(chart.panels[0].x_labels == std::vector<std::string>{"16", "16x64", "64"});  // by block area
  CHECK(chart.panels[1].x_labels == std::vector<std::string>{"32"});
  std::vector<std::string> titles;
  for (const auto& s : chart.series) titles.push_back(s.title);
  CHECK(titles == std::vector<std::string>{"bsrflow_sm90 f16", "bsrflow_sm90 bf16", "cublas_dense f16",
                                           "cublas_dense bf16", "cusparse_bsr f16", "cusparse_bsr bf16",
                                           "bsrflow_sm90[swath256_swap] f16", "bsrflow_sm90[swath256_swap] bf16"});
  CHECK(chart.series[1].color == chart.series[0].color);  // one colour per system,
  CHECK(chart.series[1].dash != chart.series[0].dash);    // one dash type per dtype
  const auto& v = chart.panels[0].values;  // [x][series]
  CHECK(v[2][0] == 400);
  CHECK(v[2][1] == 390);
  CHECK(v[2][2] == 800);
  CHECK(v[1][0] == 100);
  CHECK(v[0][0] == 60);
  CHECK(std::isnan(v[1][4]));  // unsupported: no point
  CHECK(v[2][6] == 350);
  CHECK(chart.panels[1].values[0][0] == 230);
  CHECK_THAT(chart.title, Catch::Contains("NVIDIA H200, commit abc1234"));
  CHECK(chart.log_y);
}

TEST_CASE("autotuned vs heuristic: gain per case, slower-beyond-noise verdict, report section", "[apps][tuning]") {
  Record heuristic = result("bsrflow_sm90", "bsrflow", "ok", 300, 1.0, false, "A");
  heuristic.set("config", "bsr_sm90_f16_r32c32_swath512_s6_swap").set("ms_p10", 0.98).set("ms_p90", 1.02);
  Record tuned = result("bsrflow_sm90_tuned", "bsrflow", "ok", 375, 0.8, false, "A");
  tuned.set("config", "bsr_sm90_f16_r32c32_swath256_s6_swap").set("ms_p10", 0.79).set("ms_p90", 0.81);
  tuned.set("prep_ms", 420.0);
  // Case B: the tuned plan is slower and outside the noise band.
  Record heuristic_b = result("bsrflow_sm90", "bsrflow", "ok", 300, 1.0, false, "B");
  heuristic_b.set("config", "h").set("ms_p10", 0.99).set("ms_p90", 1.01);
  Record tuned_b = result("bsrflow_sm90_tuned", "bsrflow", "ok", 250, 1.2, false, "B");
  tuned_b.set("config", "t").set("ms_p10", 1.15).set("ms_p90", 1.25).set("prep_ms", 300.0);
  // Case C: no heuristic record (unsupported): no gain.
  Record tuned_c = result("bsrflow_sm90_tuned", "bsrflow", "ok", 250, 1.2, false, "C");
  // Case D: the tuner kept the heuristic's configuration: gain 1 whatever the two series say.
  Record heuristic_d = result("bsrflow_sm90", "bsrflow", "ok", 300, 1.0, false, "D");
  heuristic_d.set("config", "same").set("ms_p10", 0.99).set("ms_p90", 1.00);
  Record tuned_d = result("bsrflow_sm90_tuned", "bsrflow", "ok", 290, 1.03, false, "D");
  tuned_d.set("config", "same").set("heuristic_config", "same").set("ms_p10", 1.02).set("ms_p90", 1.04);
  // Cases E, F: the pairs decide, not the two series (which say "slower" for E, "faster" for F).
  Record heuristic_e = result("bsrflow_sm90", "bsrflow", "ok", 300, 1.0, false, "E");
  heuristic_e.set("config", "h").set("ms_p10", 0.99).set("ms_p90", 1.00);
  Record tuned_e = result("bsrflow_sm90_tuned", "bsrflow", "ok", 290, 1.03, false, "E");
  tuned_e.set("config", "t").set("heuristic_config", "h").set("ms_p10", 1.02).set("ms_p90", 1.04);
  tuned_e.set("paired_gain", 1.01).set("paired_gain_p10", 0.999).set("paired_gain_p90", 1.02).set("pairs", 20);
  Record heuristic_f = result("bsrflow_sm90", "bsrflow", "ok", 300, 1.0, false, "F");
  heuristic_f.set("config", "h").set("ms_p10", 0.99).set("ms_p90", 1.01);
  Record tuned_f = result("bsrflow_sm90_tuned", "bsrflow", "ok", 330, 0.9, false, "F");
  tuned_f.set("config", "t").set("heuristic_config", "h").set("ms_p10", 0.89).set("ms_p90", 0.91);
  tuned_f.set("paired_gain", 0.99).set("paired_gain_p10", 0.985).set("paired_gain_p90", 0.995).set("pairs", 20);
  std::vector<Record> records = {heuristic, tuned,  heuristic_b, tuned_b, tuned_c,
                                 heuristic_d, tuned_d, heuristic_e, tuned_e, heuristic_f, tuned_f};
  add_comparisons(records);
  CHECK(records[1].number("gain_vs_heuristic") == Approx(1.25));
  CHECK(records[1].flag("slower_beyond_noise", true) == false);
  CHECK(records[1].flag("same_config_as_heuristic", true) == false);
  CHECK(records[1].text("heuristic_config") == "bsr_sm90_f16_r32c32_swath512_s6_swap");
  CHECK(records[3].number("gain_vs_heuristic") == Approx(1.0 / 1.2));
  CHECK(records[3].flag("slower_beyond_noise") == true);
  CHECK(std::isnan(records[4].number("gain_vs_heuristic")));
  CHECK(!records[4].has("slower_beyond_noise"));
  CHECK(!records[0].has("gain_vs_heuristic"));  // only the tuned system carries it
  CHECK(records[6].number("gain_vs_heuristic") == 1.0);
  CHECK(records[6].flag("same_config_as_heuristic") == true);
  CHECK(records[6].flag("slower_beyond_noise", true) == false);
  CHECK(records[8].number("gain_vs_heuristic") == Approx(1.01));
  CHECK(records[8].flag("slower_beyond_noise", true) == false);
  CHECK(records[10].number("gain_vs_heuristic") == Approx(0.99));
  CHECK(records[10].flag("slower_beyond_noise") == true);

  TimingConfig timing;
  // The table's cells are padded to their column's width: compare with single spaces.
  std::string md = bench_markdown(records, timing, 3);
  md.erase(std::unique(md.begin(), md.end(), [](char a, char b) { return a == ' ' && b == ' '; }), md.end());
  CHECK_THAT(md, Catch::Contains("## Autotuning: bsrflow_sm90_tuned vs bsrflow_sm90 (heuristic)"));
  CHECK_THAT(md, Catch::Contains("bsr_sm90_f16_r32c32_swath512_s6_swap | bsr_sm90_f16_r32c32_swath256_s6_swap | 1.250 | - | ok"));
  CHECK_THAT(md, Catch::Contains("0.833 | - | SLOWER beyond noise"));
  CHECK_THAT(md, Catch::Contains("| same | same | 1.000 | - | same configuration"));
  CHECK_THAT(md, Catch::Contains("| h | t | 1.010 | 0.999-1.020 | ok"));
  CHECK_THAT(md, Catch::Contains("| h | t | 0.990 | 0.985-0.995 | SLOWER beyond noise"));
  CHECK_THAT(md, Catch::Contains("Geometric mean over 5 cases: 1.008; same configuration: 1; slower beyond noise: 2."));
  // No tuned records, no section.
  std::vector<Record> plain = {heuristic};
  add_comparisons(plain);
  CHECK_THAT(bench_markdown(plain, timing, 3), !Catch::Contains("Autotuning"));
}
