// cg_bench: command line, byte model, targets and report (CPU), and a small end-to-end run on the
// GPU in which every row must come out correct and timed.
#include <catch2/catch.hpp>

#include <cmath>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/cg_bench/cg_cli.hpp"
#include "bsrflow/apps/cg_bench/cg_runner.hpp"
#include "bsrflow/apps/common/markdown.hpp"
#include "bsrflow/apps/common/poisson.hpp"
#include "support/gpu.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;

namespace {
CgBenchOptions parse(std::vector<std::string> args) {
  const test::Args a(std::move(args));
  return parse_cg_bench_options(a.argc(), a.argv());
}
}  // namespace

TEST_CASE("cg_bench command line", "[apps]") {
  const CgBenchOptions d = parse({});
  CHECK(d.grids == std::vector<int>{32, 64, 128});
  CHECK(d.dtype == DType::f64);
  CHECK(d.preconds == std::vector<Preconditioner>{Preconditioner::none, Preconditioner::jacobi});
  CHECK(d.cg_iterations == 50);
  CHECK(d.peer);
  CHECK(d.timing.iters == 20);
  CHECK(d.timing.warmup == 3);
  CHECK(d.timing.cold_l2);
  CHECK(d.json_path.empty());

  const CgBenchOptions o = parse({"--grids", "8,12", "--dtype", "f32", "--precond", "jacobi", "--cg-iterations", "10",
                                  "--iters", "5", "--warmup", "0", "--no-cold-l2", "--no-peer", "--json", "c.json",
                                  "--csv", "c.csv"});
  CHECK(o.grids == std::vector<int>{8, 12});
  CHECK(o.dtype == DType::f32);
  CHECK(o.preconds == std::vector<Preconditioner>{Preconditioner::jacobi});
  CHECK(o.cg_iterations == 10);
  CHECK_FALSE(o.peer);
  CHECK(o.timing.iters == 5);
  CHECK(o.timing.warmup == 0);
  CHECK_FALSE(o.timing.cold_l2);
  CHECK(o.json_path == "c.json");
  CHECK(o.csv_path == "c.csv");
  CHECK(parse({"--precond", "none"}).preconds == std::vector<Preconditioner>{Preconditioner::none});
  CHECK(parse({"--help"}).help);
  CHECK_THAT(cg_bench_help(), Catch::Contains("--cg-iterations"));
  CHECK_THAT(cg_bench_help(), Catch::Contains("--no-peer"));

  using V = std::vector<std::string>;
  CHECK_APP_ERROR(parse(V{"--grids", "32,x"}), Errc::invalid_argument, "--grids: 'x' is not a positive integer");
  CHECK_APP_ERROR(parse(V{"--grids", "0"}), Errc::invalid_argument, "--grids: '0' is not a positive integer");
  CHECK_APP_ERROR(parse(V{"--grids", "32,,64"}), Errc::invalid_argument, "--grids: '' is not a positive integer");
  CHECK_APP_ERROR(parse(V{"--grids", "1000"}), Errc::invalid_argument,
                  "--grids: 1000 gives 6994000000 entries; int32 indices allow fewer than 2^31");
  CHECK_APP_ERROR(parse(V{"--dtype", "f16"}), Errc::invalid_argument,
                  "--dtype: unsupported dtype 'f16' (expected f64 or f32)");
  CHECK_APP_ERROR(parse(V{"--precond", "block_jacobi"}), Errc::invalid_argument,
                  "--precond: unknown preconditioner 'block_jacobi' (expected none or jacobi)");
  CHECK_APP_ERROR(parse(V{"--precond", "none,"}), Errc::invalid_argument, "--precond: empty name");
  CHECK_APP_ERROR(parse(V{"--cg-iterations", "0"}), Errc::invalid_argument, "--cg-iterations must be at least 1 (got 0)");
  CHECK_APP_ERROR(parse(V{"--cg-iterations", "-3"}), Errc::invalid_argument, "--cg-iterations must be at least 1 (got -3)");
  CHECK_APP_ERROR(parse(V{"--cg-iterations", "ten"}), Errc::invalid_argument, "cg-iterations");
  CHECK_APP_ERROR(parse(V{"--iters", "0"}), Errc::invalid_argument, "--iters must be at least 1");
  CHECK_APP_ERROR(parse(V{"--grid", "32"}), Errc::invalid_argument, "unrecognised option '--grid'");
  CHECK_APP_ERROR(parse(V{"32"}), Errc::invalid_argument, "unexpected argument '32'");
}

TEST_CASE("cg_bench byte model", "[apps]") {
  CHECK(cg_vector_passes(Preconditioner::none) == 11);
  CHECK(cg_vector_passes(Preconditioner::jacobi) == 13);
  // Grid 2: n = 8, nnz = 7 * 8 - 6 * 4 = 32.
  REQUIRE(poisson3d_csr<double>(2).nnz() == 32);
  CHECK(cg_iteration_bytes_for_grid(2, 8, Preconditioner::none) == 9 * 4 + 32 * 12 + 11 * 8 * 8);    // 1124
  CHECK(cg_iteration_bytes_for_grid(2, 8, Preconditioner::none) == 1124);
  CHECK(cg_iteration_bytes_for_grid(2, 8, Preconditioner::jacobi) == 1252);
  CHECK(cg_iteration_bytes_for_grid(2, 4, Preconditioner::none) == 9 * 4 + 32 * 8 + 11 * 8 * 4);     // 644
  CHECK(cg_iteration_bytes_for_grid(2, 4, Preconditioner::none) == 644);
  // Grid 3: n = 27, nnz = 189 - 54 = 135.
  REQUIRE(poisson3d_csr<float>(3).nnz() == 135);
  CHECK(cg_iteration_bytes_for_grid(3, 8, Preconditioner::none) == 28 * 4 + 135 * 12 + 11 * 27 * 8);  // 4108
  CHECK(cg_iteration_bytes_for_grid(3, 8, Preconditioner::none) == 4108);
  CHECK(cg_iteration_bytes_for_grid(3, 8, Preconditioner::jacobi) == 4540);
  CHECK(cg_iteration_bytes_for_grid(3, 4, Preconditioner::jacobi) == 28 * 4 + 135 * 8 + 13 * 27 * 4);  // 2596
  CHECK(cg_iteration_bytes_for_grid(3, 4, Preconditioner::jacobi) == 2596);
  // 128^3 f64 without preconditioner: 2,097,152 rows, 14,581,760 entries.
  CHECK(cg_iteration_bytes(2097152, 14581760, 8, Preconditioner::none) ==
        std::int64_t{2097153} * 4 + std::int64_t{14581760} * 12 + std::int64_t{11} * 2097152 * 8);
  CHECK(cg_iteration_bytes_for_grid(128, 8, Preconditioner::none) ==
        cg_iteration_bytes(2097152, 14581760, 8, Preconditioner::none));
}

TEST_CASE("cg_bench targets, comparison with the peer and report", "[apps]") {
  auto rec = [](int grid, const std::string& mode, const std::string& status, double us, double pct) {
    Record r;
    r.set("grid", grid).set("dtype", "f64").set("precond", "none").set("mode", mode).set("status", status);
    if (status == "ok")
      r.set("ms", us * 50e-3).set("ms_p10", us * 50e-3).set("ms_p90", us * 50e-3).set("us_per_iteration", us)
          .set("gbps", 1000.0).set("pct_copy_bw", pct);
    return r;
  };
  std::vector<Record> records = {rec(32, kCgGraphLoop, "ok", 7.5, 0.3),           // 0: met
                                 rec(32, kCgGraphPerIteration, "ok", 20, 0.1),     // 1: no target
                                 rec(32, kCgPeer, "ok", 30, 0.1),                  // 2
                                 rec(64, kCgGraphLoop, "ok", 5, 0.5),              // 3: no target at 64
                                 rec(128, kCgGraphLoop, "ok", 200, 0.85),          // 4: met
                                 rec(128, kCgEager, "ok", 250, 0.6),               // 5
                                 rec(32, kCgGraphLoop, "ok", 8.0, 0.3),            // 6: exactly 8 is met
                                 rec(32, kCgGraphLoop, "ok", 8.01, 0.3),           // 7: missed
                                 rec(128, kCgGraphLoop, "ok", 250, 0.79),          // 8: missed
                                 rec(128, kCgGraphLoop, "wrong", 0, 0),            // 9: never met
                                 rec(32, kCgPersistent, "ok", 6.0, 0.4)};          // 10: met (one launch too)
  records[6].set("dtype", "f32");  // no f32 peer: no speedup
  add_cg_comparisons(records);
  CHECK(records[0].text("target") == "<= 8 us/iteration");
  CHECK(records[0].flag("target_met"));
  CHECK(records[0].number("speedup_vs_peer") == Approx(4.0));
  CHECK_FALSE(records[1].has("target"));
  CHECK(records[1].number("speedup_vs_peer") == Approx(1.5));
  CHECK(records[2].number("speedup_vs_peer") == Approx(1.0));
  CHECK_FALSE(records[2].has("target"));
  CHECK_FALSE(records[3].has("target"));
  CHECK_FALSE(records[3].has("speedup_vs_peer"));  // no peer at 64
  CHECK(records[4].text("target") == ">= 80% of copy bandwidth");
  CHECK(records[4].flag("target_met"));
  CHECK_FALSE(records[5].has("target"));
  CHECK(records[6].flag("target_met"));
  CHECK_FALSE(records[6].has("speedup_vs_peer"));
  CHECK_FALSE(records[7].flag("target_met", true));
  CHECK_FALSE(records[8].flag("target_met", true));
  CHECK(records[9].text("target") == ">= 80% of copy bandwidth");
  CHECK_FALSE(records[9].has("target_met"));
  CHECK(records[10].text("target") == "<= 8 us/iteration");
  CHECK(records[10].flag("target_met"));
  CHECK(records[10].number("speedup_vs_peer") == Approx(5.0));
  CHECK(target_met_cell(records[0]) == "<= 8 us/iteration: met");
  CHECK(target_met_cell(records[7]) == "<= 8 us/iteration: MISSED");
  CHECK(target_met_cell(records[9]) == ">= 80% of copy bandwidth");

  CHECK(run_context_footer({}).empty());
  records[0].set("device", "NVIDIA H100 80GB HBM3").set("date", "2025-11-23T00:00:00Z").set("commit", "abc1234");
  records[0].set("copy_gbps", 3000.4);
  CHECK(run_context_footer(records) ==
        "Device: NVIDIA H100 80GB HBM3; date: 2025-11-23T00:00:00Z; commit: abc1234. Device-to-device copy of this run: "
        "3000 GB/s (read + written).\n\n");
  records[9].set("note", "the check solve ran 3 of 50 iterations");
  const std::string md = cg_markdown(records, CgBenchOptions{});
  CHECK_THAT(md, Catch::Contains("| us/iter "));
  CHECK_THAT(md, Catch::Contains("<= 8 us/iteration: met"));
  CHECK_THAT(md, Catch::Contains(">= 80% of copy bandwidth: MISSED"));
  CHECK_THAT(md, Catch::Contains("wrong: the check solve ran 3 of 50 iterations"));
  CHECK_THAT(md, Catch::Contains("47.6 us eager / 24.2 us as a CUDA Graph"));
  CHECK_THAT(md, Catch::Contains("11 vector passes"));
  CHECK_THAT(md, Catch::Contains("exactly 50 CG iterations"));
}

TEST_CASE("cg_bench on small grids: every row correct and timed", "[apps][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  for (const char* dtype : {"f64", "f32"}) {
    CAPTURE(dtype);
    const CgBenchOptions options =
        parse({"--grids", "8,12", "--dtype", dtype, "--cg-iterations", "10", "--iters", "3", "--warmup", "1"});
    const CgBenchRun run = run_cg_bench(options, nullptr);
    CHECK(run.copy.bytes_per_second() > 0);
    // 2 grids x 2 preconditioners x (4 bsrflow modes + the peer).
    REQUIRE(run.records.size() == 20);
    for (const Record& r : run.records) {
      CAPTURE(r.number("grid"), r.text("precond"), r.text("mode"), r.text("note"));
      CHECK(r.text("status") == "ok");
      CHECK(r.flag("correct"));
      CHECK(r.number("iterations") == 10);
      CHECK(r.number("ms") > 0);
      CHECK(r.number("us_per_iteration") > 0);
      CHECK(r.number("gbps") > 0);
      CHECK(std::isfinite(r.number("true_rel_residual")));
      CHECK(r.number("true_rel_residual") < 1);
      CHECK_FALSE(r.text("device").empty());
      if (r.text("mode") == kCgGraphLoop) {
        CHECK_FALSE(r.text("loop_mode_reason").empty());
        // The recurrence residual follows the true one (f64 closely, f32 loosely).
        CHECK(r.number("recurrence_rel_residual") ==
              Approx(r.number("true_rel_residual")).epsilon(std::string(dtype) == "f64" ? 1e-6 : 1e-2));
      }
      if (r.text("mode") == kCgGraphPerIteration || r.text("mode") == kCgEager)
        CHECK(r.flag("bitwise_equal_to_graph_loop"));
      if (r.text("mode") == kCgPeer) CHECK(r.number("rel_diff_vs_graph_loop") >= 0);
      if (r.text("mode") == kCgPersistent) {
        CHECK(r.number("rel_diff_vs_graph_loop") <= (std::string(dtype) == "f64" ? 1e-8 : 1e-3));
        CHECK_THAT(r.text("solver"), Catch::Contains("persistent cooperative kernel"));
      }
    }
  }
}
