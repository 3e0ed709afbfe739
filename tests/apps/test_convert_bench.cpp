#include <catch2/catch.hpp>

#include <cmath>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/convert_bench/convert_cli.hpp"
#include "bsrflow/apps/convert_bench/convert_runner.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;

namespace {
ConvertOptions parse(std::vector<std::string> args) {
  const test::Args a(std::move(args));
  return parse_convert_options(a.argc(), a.argv());
}
}  // namespace

TEST_CASE("convert_bench command line", "[apps]") {
  const ConvertOptions d = parse({});
  CHECK(d.dtype == DType::f64);
  CHECK(d.grid == 128);
  CHECK(d.blocks == std::vector<int>{3, 16, 32});
  CHECK(d.timing.iters == 20);
  CHECK(d.numeric_variants == std::vector<CsrToBsrNumeric>{CsrToBsrNumeric::staged, CsrToBsrNumeric::scatter,
                                                           CsrToBsrNumeric::staged_wide});
  CHECK(d.pool_kept);
  const ConvertOptions n = parse({"--numeric", "staged", "--no-pool-kept"});
  CHECK(n.numeric_variants == std::vector<CsrToBsrNumeric>{CsrToBsrNumeric::staged});
  CHECK_FALSE(n.pool_kept);
  CHECK(parse({"--numeric", "staged,scatter"}).numeric_variants ==
        std::vector<CsrToBsrNumeric>{CsrToBsrNumeric::staged, CsrToBsrNumeric::scatter});
  CHECK_THAT(convert_help(), Catch::Contains("--numeric"));
  CHECK_THAT(convert_help(), Catch::Contains("--no-pool-kept"));
  const ConvertOptions o = parse({"--dtype", "f32", "--grid", "64", "--blocks", "4,8", "--iters", "5", "--json", "c.json"});
  CHECK(o.dtype == DType::f32);
  CHECK(o.grid == 64);
  CHECK(o.blocks == std::vector<int>{4, 8});
  CHECK(o.timing.iters == 5);
  CHECK(o.json_path == "c.json");
  CHECK(parse({"--help"}).help);
  CHECK_THAT(convert_help(), Catch::Contains("--blocks"));

  using V = std::vector<std::string>;
  CHECK_APP_ERROR(parse(V{"--dtype", "f8"}), Errc::invalid_argument, "--dtype: unsupported dtype 'f8' (expected f64, f32, f16 or bf16)");
  CHECK_APP_ERROR(parse(V{"--dtype", "fp8_e4m3"}), Errc::invalid_argument, "--dtype: unsupported dtype 'fp8_e4m3' (expected f64, f32, f16 or bf16)");
  CHECK_APP_ERROR(parse(V{"--grid", "0"}), Errc::invalid_argument, "--grid must be positive (got 0)");
  CHECK_APP_ERROR(parse(V{"--grid", "700"}), Errc::invalid_argument, "--grid 700 gives 2398060000 entries");
  CHECK_APP_ERROR(parse(V{"--blocks", "3,x"}), Errc::invalid_argument, "--blocks: 'x' is not a positive integer");
  CHECK_APP_ERROR(parse(V{"--iters", "0"}), Errc::invalid_argument, "--iters must be at least 1");
  CHECK_APP_ERROR(parse(V{"--block", "3"}), Errc::invalid_argument, "unrecognised option '--block'");
  CHECK_APP_ERROR(parse(V{"--numeric", "gather"}), Errc::invalid_argument,
                  "--numeric: unknown variant 'gather' (expected a comma-separated list of staged, scatter, staged-wide)");
  CHECK_APP_ERROR(parse(V{"--numeric", "staged,"}), Errc::invalid_argument, "--numeric: unknown variant ''");
  CHECK_APP_ERROR(parse(V{"--numeric", "scatter,scatter"}), Errc::invalid_argument,
                  "--numeric: 'scatter' is listed twice");
}

TEST_CASE("convert_bench comparisons and targets", "[apps]") {
  auto rec = [](const std::string& system, const std::string& phase, double ms, double pct_copy) {
    Record r;
    r.set("block", 16).set("system", system).set("phase", phase).set("status", "ok").set("ms", ms);
    if (phase == "numeric") r.set("pct_copy_bw", pct_copy).set("gbps", 1000.0);
    return r;
  };
  std::vector<Record> records = {rec("bsrflow", "symbolic+numeric", 0.4, 0), rec("bsrflow", "numeric", 0.1, 0.65),
                                 rec("cusparse", "symbolic+numeric", 1.0, 0), rec("cusparse", "numeric", 0.5, 0.2)};
  add_convert_comparisons(records);
  CHECK(records[0].number("speedup_vs_cusparse") == Approx(2.5));
  CHECK(records[0].flag("target_met"));
  CHECK(records[1].number("speedup_vs_cusparse") == Approx(5.0));
  CHECK(records[1].text("target") == ">= 70% of copy bandwidth");
  CHECK_FALSE(records[1].flag("target_met", true));  // 65% < 70%
  CHECK_FALSE(records[2].has("speedup_vs_cusparse"));
  const std::string md = convert_markdown(records, TimingConfig{});
  CHECK_THAT(md, Catch::Contains(">= 2x cuSPARSE: met"));
  CHECK_THAT(md, Catch::Contains(">= 70% of copy bandwidth: MISSED"));
  CHECK_THAT(md, Catch::Contains("(nnz + nnzb * b * b) * sizeof(value)"));
}

TEST_CASE("convert_bench: every numeric variant is a system compared with cuSPARSE; pool-kept rows get no target",
          "[apps]") {
  CHECK(convert_system_name(CsrToBsrNumeric::staged) == "bsrflow");  // the library's default kernel
  CHECK(convert_system_name(CsrToBsrNumeric::scatter) == "bsrflow-scatter");
  CHECK(convert_system_name(CsrToBsrNumeric::staged_wide) == "bsrflow-staged-wide");
  CHECK(parse({"--numeric", "staged-wide"}).numeric_variants == std::vector<CsrToBsrNumeric>{CsrToBsrNumeric::staged_wide});
  auto rec = [](const std::string& system, const std::string& phase, double ms, double pct_copy) {
    Record r;
    r.set("block", 16).set("system", system).set("phase", phase).set("status", "ok").set("ms", ms);
    if (phase == "numeric") r.set("pct_copy_bw", pct_copy).set("gbps", 1000.0);
    return r;
  };
  std::vector<Record> records = {rec("bsrflow", "symbolic+numeric", 0.8, 0),
                                 rec("bsrflow", "numeric", 0.2, 0.45),
                                 rec("bsrflow-scatter", "symbolic+numeric", 0.5, 0),
                                 rec("bsrflow-scatter", kPoolKeptPhase, 0.25, 0),
                                 rec("bsrflow-scatter", "numeric", 0.1, 0.8),
                                 rec("cusparse", "symbolic+numeric", 1.0, 0),
                                 rec("cusparse", kPoolKeptPhase, 0.4, 0),
                                 rec("cusparse", "numeric", 0.5, 0.2)};
  add_convert_comparisons(records);
  CHECK(records[0].number("speedup_vs_cusparse") == Approx(1.25));
  CHECK_FALSE(records[0].flag("target_met", true));
  CHECK(records[2].number("speedup_vs_cusparse") == Approx(2.0));
  CHECK(records[2].flag("target_met"));
  CHECK(records[3].number("speedup_vs_cusparse") == Approx(1.6));  // against cuSPARSE's pool-kept row
  CHECK_FALSE(records[3].has("target"));
  CHECK_FALSE(records[3].has("target_met"));
  CHECK(records[4].number("speedup_vs_cusparse") == Approx(5.0));
  CHECK(records[4].flag("target_met"));  // 80% >= 70%
  CHECK_FALSE(records[6].has("speedup_vs_cusparse"));
  const std::string md = convert_markdown(records, TimingConfig{});
  CHECK_THAT(md, Catch::Contains("bsrflow-scatter"));
  CHECK_THAT(md, Catch::Contains("symbolic+numeric, pool kept"));
}
