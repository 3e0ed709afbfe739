// spmv_bench: command line, byte model, comparisons and report (CPU), and a small end-to-end
// run on the GPU in which every system must come out correct and timed.
#include <catch2/catch.hpp>

#include <cmath>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/spmv_bench/spmv_cli.hpp"
#include "bsrflow/apps/spmv_bench/spmv_runner.hpp"
#include "support/gpu.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;

namespace {
SpmvBenchOptions parse(std::vector<std::string> args) {
  const test::Args a(std::move(args));
  return parse_spmv_bench_options(a.argc(), a.argv());
}
}  // namespace

TEST_CASE("spmv_bench command line", "[apps]") {
  const SpmvBenchOptions d = parse({});
  REQUIRE(d.cases.size() == 3);
  CHECK(d.cases[0] == SpmvCase{"poisson_f64", false, DType::f64});
  CHECK(d.cases[1] == SpmvCase{"poisson_f32", false, DType::f32});
  CHECK(d.cases[2] == SpmvCase{"block_f64", true, DType::f64});
  CHECK(d.poisson_grid == 128);
  CHECK(d.block_grid == 96);
  CHECK(d.block == 3);
  REQUIRE(d.variants.size() == 6);
  CHECK(spmv_variant_name(d.variants[0]) == "default");
  CHECK(d.variants[0].kernel == SpmvKernel::automatic);
  CHECK(spmv_variant_name(d.variants[1]) == "team");
  CHECK(d.variants[1].kernel == SpmvKernel::team);
  CHECK(d.variants[1].team == 0);
  CHECK(spmv_variant_name(d.variants[2]) == "team16");
  CHECK(d.variants[2].kernel == SpmvKernel::team);
  CHECK(d.variants[2].team == 16);
  CHECK(spmv_variant_name(d.variants[3]) == "8x256");
  CHECK(spmv_variant_name(d.variants[4]) == "16x512");
  CHECK(spmv_variant_name(d.variants[5]) == "4x128");
  CHECK(parse_spmv_variant("bulk").kernel == SpmvKernel::bulk);
  CHECK(spmv_variant_name(parse_spmv_variant("bulk")) == "bulk");
  CHECK(d.timing.iters == 20);

  const SpmvBenchOptions o = parse({"--cases", "block_f32", "--poisson-grid", "16", "--block-grid", "8", "--block", "4",
                                    "--variants", "default,16x64", "--iters", "5", "--json", "s.json", "--csv", "s.csv"});
  REQUIRE(o.cases.size() == 1);
  CHECK(o.cases[0] == SpmvCase{"block_f32", true, DType::f32});
  CHECK(o.poisson_grid == 16);
  CHECK(o.block_grid == 8);
  CHECK(o.block == 4);
  REQUIRE(o.variants.size() == 2);
  CHECK(o.variants[0].items_per_thread == 0);
  CHECK(o.variants[0].max_rows_per_cta == 0);
  CHECK(o.variants[1].items_per_thread == 16);
  CHECK(o.variants[1].max_rows_per_cta == 64);
  CHECK(o.timing.iters == 5);
  for (const char* name : {"default", "stream", "team", "team8", "team16", "team32", "8x256"})
    CHECK(spmv_variant_name(parse_spmv_variant(name)) == name);
  CHECK(parse_spmv_variant("stream").kernel == SpmvKernel::stream);
  CHECK(parse_spmv_variant("8x256").kernel == SpmvKernel::automatic);  // stream settings: the plan takes stream
  CHECK(parse_spmv_variant("team").team == 0);
  CHECK(o.json_path == "s.json");
  CHECK(o.csv_path == "s.csv");
  CHECK(parse({"--help"}).help);
  CHECK_THAT(spmv_bench_help(), Catch::Contains("--variants"));
  CHECK(spmv_case_names() == std::vector<std::string>{"poisson_f64", "poisson_f32", "block_f64", "block_f32"});

  using V = std::vector<std::string>;
  CHECK_APP_ERROR(parse(V{"--cases", "poisson_f16"}), Errc::invalid_argument,
                  "--cases: unknown case 'poisson_f16' (expected poisson_f64, poisson_f32, block_f64, block_f32)");
  CHECK_APP_ERROR(parse(V{"--cases", "poisson_f64,"}), Errc::invalid_argument, "--cases: empty name");
  CHECK_APP_ERROR(parse(V{"--variants", "8"}), Errc::invalid_argument,
                  "--variants: '8' is not 'default', 'bulk', 'stream', 'team', teamN or ITEMSxROWS (e.g. 8x256)");
  CHECK_APP_ERROR(parse(V{"--variants", "team12"}), Errc::invalid_argument,
                  "--variants: 'team12': a team is team8, team16 or team32 (or 'team': the plan's width)");
  CHECK_APP_ERROR(parse(V{"--variants", "teamx"}), Errc::invalid_argument,
                  "--variants: 'teamx': a team is team8, team16 or team32 (or 'team': the plan's width)");
  CHECK_APP_ERROR(parse(V{"--variants", "8x256,5x10"}), Errc::invalid_argument,
                  "--variants: '5x10': items per thread must be 4, 8 or 16");
  CHECK_APP_ERROR(parse(V{"--variants", "8x0"}), Errc::invalid_argument,
                  "--variants: '8x0': rows per CTA must be in [1, 65536]");
  CHECK_APP_ERROR(parse(V{"--block", "9"}), Errc::invalid_argument, "--block 9 is out of range [1, 8]");
  CHECK_APP_ERROR(parse(V{"--poisson-grid", "0"}), Errc::invalid_argument, "--poisson-grid must be positive (got 0)");
  CHECK_APP_ERROR(parse(V{"--block-grid", "900"}), Errc::invalid_argument,
                  "--block-grid 900 is too large for int32 indices");
  CHECK_APP_ERROR(parse(V{"--block-grid", "650", "--block", "8"}), Errc::invalid_argument,
                  "--block-grid 650 is too large for int32 indices (1919840000 stored entries or blocks, 2197000000 rows)");
  CHECK_APP_ERROR(parse(V{"--iters", "0"}), Errc::invalid_argument, "--iters must be at least 1");
  CHECK_APP_ERROR(parse(V{"--variant", "8x256"}), Errc::invalid_argument, "unrecognised option '--variant'");
}

TEST_CASE("spmv_bench byte model", "[apps]") {
  // Poisson 128^3 f64: row_ptr + col_idx + values + x + y.
  const std::int64_t rows = 2097152, nnz = 14581760;
  CHECK(csr_spmv_bytes(rows, rows, nnz, 8) == (rows + 1) * 4 + nnz * 12 + 2 * rows * 8);
  CHECK(bsr_spmv_bytes(rows, rows, 1, 1, nnz, 8) == csr_spmv_bytes(rows, rows, nnz, 8));
  // 3x3 on 96^3 nodes: 884736 block rows, 6137856 blocks.
  CHECK(bsr_spmv_bytes(2654208, 2654208, 3, 3, 6137856, 8) ==
        std::int64_t{884737} * 4 + std::int64_t{6137856} * (4 + 72) + std::int64_t{2} * 2654208 * 8);
  // Partial last block row: 10 rows of 3 -> 4 block rows.
  CHECK(bsr_spmv_bytes(10, 7, 3, 2, 5, 4) == 5 * 4 + 5 * 4 + 5 * 6 * 4 + 17 * 4);
}

TEST_CASE("spmv_bench comparisons, targets and report", "[apps]") {
  auto rec = [](const std::string& c, const std::string& system, const std::string& status, double ms, double pct) {
    Record r;
    r.set("case", c).set("system", system).set("variant", "8x256").set("status", status);
    if (status == "ok") r.set("ms", ms).set("ms_p10", ms).set("ms_p90", ms).set("pct_copy_bw", pct).set("gbps", 1000.0);
    return r;
  };
  std::vector<Record> records = {rec("block_f64", "bsrflow", "ok", 0.2, 0.85),
                                 rec("block_f64", "bsrflow+dot", "ok", 0.25, 0.7),
                                 rec("block_f64", "cusparse_csr", "ok", 0.5, 0.4),
                                 rec("block_f64", "cusparse_bsrmv", "ok", 0.8, 0.3),
                                 rec("poisson_f64", "bsrflow", "wrong", 0, 0),
                                 rec("poisson_f64", "cusparse_csr", "ok", 0.1, 0.5)};
  add_spmv_comparisons(records);
  CHECK(records[0].number("speedup_vs_cusparse_csr") == Approx(2.5));
  CHECK(records[0].number("speedup_vs_bsrmv") == Approx(4.0));
  CHECK(records[0].flag("target_met"));
  CHECK_FALSE(records[1].flag("target_met", true));  // 70% < 80%
  CHECK(records[2].number("speedup_vs_cusparse_csr") == Approx(1.0));
  CHECK_FALSE(records[2].has("target"));             // peers have no target
  CHECK(records[4].text("target") == ">= 80% of copy bandwidth");
  CHECK_FALSE(records[4].has("target_met"));         // a wrong row is never "met"
  CHECK_FALSE(records[4].has("speedup_vs_cusparse_csr"));
  CHECK_FALSE(records[5].has("speedup_vs_bsrmv"));
  const std::string md = spmv_markdown(records, TimingConfig{});
  CHECK_THAT(md, Catch::Contains(">= 80% of copy bandwidth: met"));
  CHECK_THAT(md, Catch::Contains(">= 80% of copy bandwidth: MISSED"));
  CHECK_THAT(md, Catch::Contains("nnzb * R * C * sizeof(T)"));
  CHECK_THAT(md, Catch::Contains("| wrong"));
}

TEST_CASE("spmv_bench on small grids: every system correct and timed", "[apps][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  SpmvBenchOptions options = parse({"--cases", "poisson_f64,poisson_f32,block_f64,block_f32", "--poisson-grid", "20",
                                    "--block-grid", "9", "--variants", "8x256,4x32,default,team32", "--iters", "3",
                                    "--warmup", "1"});
  const SpmvBenchRun run = run_spmv_bench(options, nullptr);
  CHECK(run.copy.bytes_per_second() > 0);
  // Per case: 4 variants + the fused dot + cuSPARSE CSR (+ bsrmv for the block cases).
  CHECK(run.records.size() == 2 * 6 + 2 * 7);
  for (const Record& r : run.records) {
    CAPTURE(r.text("case"), r.text("system"), r.text("variant"), r.text("note"));
    CHECK(r.text("status") == "ok");
    CHECK(r.flag("correct"));
    CHECK(r.number("ms") > 0);
    CHECK(r.number("gbps") > 0);
    CHECK_FALSE(r.text("device").empty());
  }
}
