#include <catch2/catch.hpp>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/bsr_bench/bench_cli.hpp"
#include "bsrflow/apps/bsr_bench/suites.hpp"
#include "bsrflow/apps/bsr_bench/system_registry.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;

namespace {
BenchOptions parse(std::vector<std::string> args) {
  const test::Args a(std::move(args));
  return parse_bench_options(a.argc(), a.argv());
}
}  // namespace

TEST_CASE("bsr_bench without arguments runs the standard suite", "[apps]") {
  const BenchOptions o = parse({});
  CHECK(o.suite == "standard");
  CHECK(o.cases == suite_cases("standard"));
  CHECK(o.runner.timing.iters == 20);
  CHECK(o.runner.timing.warmup == 3);
  CHECK(o.runner.timing.cold_l2);
  CHECK(o.runner.timing.warmup_ms == 0);  // a burst after the warm-up runs
  CHECK(o.runner.timing.rest_ms == 200);   // from a rested GPU
  CHECK(o.runner.gpu_monitor);
  CHECK(o.runner.reference_iters == 3);
  CHECK(o.runner.systems.empty());
  CHECK(o.json_path.empty());
  CHECK_FALSE(o.help);
}

TEST_CASE("bsr_bench --suite, outputs, timing and systems", "[apps]") {
  const BenchOptions o = parse({"--suite", "quick", "--iters", "25", "--warmup", "1", "--json", "r.json", "--csv",
                                "r.csv", "--plot", "r.png", "--systems", "cublas_dense,bsrflow_reference,cublas_dense",
                                "--reference-iters", "2", "--no-gpu-monitor", "--warmup-ms", "300", "--rest-ms", "0"});
  CHECK(o.suite == "quick");
  CHECK_FALSE(o.runner.gpu_monitor);
  CHECK(o.runner.timing.warmup_ms == 300);
  CHECK(o.runner.timing.rest_ms == 0);
  CHECK(o.cases == suite_cases("quick"));
  CHECK(o.runner.timing.iters == 25);
  CHECK(o.runner.timing.warmup == 1);
  CHECK(o.runner.reference_iters == 2);
  CHECK(o.json_path == "r.json");
  CHECK(o.csv_path == "r.csv");
  CHECK(o.plot_path == "r.png");
  CHECK(o.runner.systems == std::vector<std::string>{"cublas_dense", "bsrflow_reference"});  // duplicates dropped
  CHECK(o.runner.sm90.empty());
}

TEST_CASE("bsr_bench --sm90-configs adds Hopper configurations, checked against the cases", "[apps]") {
  CHECK(parse({"--suite", "quick", "--sm90-configs", "all"}).runner.sm90.all);
  const BenchOptions o = parse({"--m", "1024", "--n", "1024", "--k", "1024", "--block", "64", "--sm90-configs",
                                "swath256_swap,swath256_direct_kc32"});
  REQUIRE(o.runner.sm90.variants.size() == 2);
  CHECK(variant_name(o.runner.sm90.variants[1]) == "swath256_direct_kc32");
  CHECK(parse({"--list-systems", "--sm90-configs", "swath512_swap"}).list_systems);
  using V = std::vector<std::string>;
  CHECK_APP_ERROR(parse(V{"--m", "1024", "--n", "1024", "--k", "1024", "--block", "64", "--sm90-configs", "swath512_swap"}),
                  Errc::invalid_argument,
                  "--sm90-configs: swath512_swap is not instantiated for any case of this run (the case 1024^3 64x64 "
                  "12.5% uniform f16 has: swath256_direct_kc16, swath256_direct_kc32, swath256_direct, swath256_swap, "
                  "swath512_direct_kc32)");
  CHECK_APP_ERROR(parse(V{"--suite", "quick", "--sm90-configs", "swath128_swap"}), Errc::invalid_argument,
                  "--sm90-configs: swath128_swap is not instantiated for any case of this run");
  CHECK_APP_ERROR(parse(V{"--sm90-configs", "fast"}), Errc::invalid_argument,
                  "--sm90-configs: 'fast' is not a configuration name");
  CHECK_THAT(bench_help(), Catch::Contains("--sm90-configs"));
}

TEST_CASE("bsr_bench single case options", "[apps]") {
  const BenchOptions o = parse({"--m", "1024", "--n", "512", "--k", "2048", "--block", "16x64", "--density", "0.25",
                                "--pattern", "powerlaw", "--dtype", "bf16", "--b-layout", "col", "--c-layout", "col",
                                "--seed", "7"});
  CHECK(o.suite.empty());
  REQUIRE(o.cases.size() == 1);
  const BenchCase& c = o.cases[0];
  CHECK(c.m == 1024);
  CHECK(c.n == 512);
  CHECK(c.k == 2048);
  CHECK(c.R == 16);
  CHECK(c.C == 64);
  CHECK(c.density == 0.25);
  CHECK(c.pattern == Pattern::powerlaw);
  CHECK(c.dtype == DType::bf16);
  CHECK(c.b_layout == Layout::col_major);
  CHECK(c.c_layout == Layout::col_major);
  CHECK(c.seed == 7);
  CHECK(c.label() == "1024x512x2048 16x64 25% powerlaw bf16 B:col C:col");
  CHECK(c.panel_label() == "1024x512x2048 25% powerlaw B:col C:col");  // the chart's panel: no block, no dtype
  CHECK(c.block_label() == "16x64");

  // Defaults for what is not given.
  const BenchCase d = parse({"--m", "256", "--n", "256", "--k", "256"}).cases.at(0);
  CHECK(d.R == 32);
  CHECK(d.C == 32);
  CHECK(d.density == 0.125);
  CHECK(d.pattern == Pattern::uniform);
  CHECK(d.dtype == DType::f16);
  CHECK(d.b_layout == Layout::row_major);
  CHECK(d.label() == "256^3 32x32 12.5% uniform f16");
  CHECK(d.block_label() == "32");
}

TEST_CASE("bsr_bench --chain applies to every case of the run and names it", "[apps]") {
  const BenchOptions o = parse({"--suite", "skinny", "--chain", "8"});
  std::vector<BenchCase> expected = suite_cases("skinny");
  for (BenchCase& c : expected) c.chain = 8;
  CHECK(o.cases == expected);
  CHECK(o.cases.front().label() == "4096x16x11008 32x32 25% uniform f16 chain8");
  CHECK(o.cases.front().panel_label() == "4096x16x11008 25% uniform chain8");  // chained cases chart apart
  const BenchCase one = parse({"--m", "256", "--n", "16", "--k", "512", "--chain", "3", "--dtype", "bf16"}).cases.at(0);
  CHECK(one.chain == 3);
  CHECK(one.label() == "256x16x512 32x32 12.5% uniform bf16 chain3");
  CHECK(parse({"--m", "256", "--n", "16", "--k", "512", "--chain", "1"}).cases.at(0).label() == "256x16x512 32x32 12.5% uniform f16");
  CHECK(parse({"--suite", "quick"}).cases.front().chain == 1);  // one launch unless asked
  CHECK_THAT(bench_help(), Catch::Contains("--chain"));
}

TEST_CASE("bsr_bench --help, --list-systems and --plot-from parse without running", "[apps]") {
  CHECK(parse({"--help"}).help);
  CHECK(parse({"-h", "--density", "7"}).help);  // help wins over a bad case
  CHECK(parse({"--list-systems"}).list_systems);
  const BenchOptions p = parse({"--plot-from", "r.json", "--plot", "c.png"});
  CHECK(p.plot_from == "r.json");
  CHECK(p.plot_path == "c.png");
  CHECK(p.cases.empty());
  const std::string help = bench_help();
  for (const char* option : {"--suite", "--m", "--block", "--density", "--pattern", "--dtype", "--b-layout", "--c-layout",
                             "--iters", "--json", "--csv", "--plot", "--plot-from", "--systems"})
    CHECK_THAT(help, Catch::Contains(option));
}

TEST_CASE("bsr_bench command-line errors name the option", "[apps]") {
  using V = std::vector<std::string>;
  CHECK_APP_ERROR(parse(V{"--suite", "huge"}), Errc::invalid_argument,
                  "--suite 'huge' is not one of quick, standard, llm, skinny");
  CHECK_APP_ERROR(parse(V{"--suite", "quick", "--m", "64"}), Errc::invalid_argument,
                  "--suite cannot be combined with single-case options (--m)");
  CHECK_APP_ERROR(parse(V{"--m", "64", "--n", "64"}), Errc::invalid_argument,
                  "a single case needs --m, --n and --k (missing --k)");
  CHECK_APP_ERROR(parse(V{"--block", "64"}), Errc::invalid_argument,
                  "a single case needs --m, --n and --k (missing --m, --n, --k)");
  const V dims = {"--m", "256", "--n", "128", "--k", "512"};
  auto with = [&](V extra) {
    V all = dims;
    all.insert(all.end(), extra.begin(), extra.end());
    return all;
  };
  CHECK_APP_ERROR(parse(with({"--block", "48"})), Errc::invalid_argument, "--m 256 is not a multiple of the block height 48");
  CHECK_APP_ERROR(parse(with({"--block", "16x48"})), Errc::invalid_argument,
                  "--k 512 is not a multiple of the block width 48");
  CHECK_APP_ERROR(parse(with({"--block", "16x"})), Errc::invalid_argument, "--block '16x' is not a block shape");
  CHECK_APP_ERROR(parse(with({"--density", "0"})), Errc::invalid_argument, "--density 0 is outside (0, 1]");
  CHECK_APP_ERROR(parse(with({"--density", "1.5"})), Errc::invalid_argument, "--density 1.5 is outside (0, 1]");
  CHECK_APP_ERROR(parse(with({"--pattern", "random"})), Errc::invalid_argument,
                  "--pattern 'random' is not one of uniform, powerlaw, banded, clustered");
  CHECK_APP_ERROR(parse(with({"--dtype", "f32"})), Errc::invalid_argument,
                  "--dtype: unsupported dtype 'f32' (expected f16 or bf16)");
  CHECK_APP_ERROR(parse(with({"--b-layout", "diag"})), Errc::invalid_argument, "--b-layout 'diag' is not row or col");
  CHECK_APP_ERROR(parse(with({"--c-layout", "Row"})), Errc::invalid_argument, "--c-layout 'Row' is not row or col");
  CHECK_APP_ERROR(parse(V{"--m", "0", "--n", "1", "--k", "1"}), Errc::invalid_argument,
                  "--m, --n and --k must be positive (got 0, 1, 1)");
  CHECK_APP_ERROR(parse(V{"--iters", "0"}), Errc::invalid_argument, "--iters must be at least 1 (got 0)");
  CHECK_APP_ERROR(parse(V{"--reference-iters", "0"}), Errc::invalid_argument, "--reference-iters must be at least 1");
  CHECK_APP_ERROR(parse(V{"--systems", "cublas_dense,magic"}), Errc::invalid_argument,
                  "--systems: unknown system 'magic' (known: bsrflow_reference, bsrflow_sm90, bsrflow_sm90_tuned, "
                  "bsrflow_sm90_copy_probe, bsrflow_skinny, "
                  "cublas_dense");
  CHECK_APP_ERROR(parse(V{"--plot-from", "r.json"}), Errc::invalid_argument, "--plot-from needs --plot OUT.png");
  CHECK_APP_ERROR(parse(V{"--plot-from", "r.json", "--plot", "c.png", "--suite", "quick"}), Errc::invalid_argument,
                  "--plot-from runs nothing; drop --suite, --chain and the single-case options");
  CHECK_APP_ERROR(parse(V{"--plot-from", "r.json", "--plot", "c.png", "--chain", "4"}), Errc::invalid_argument,
                  "--plot-from runs nothing; drop --suite, --chain and the single-case options");
  CHECK_APP_ERROR(parse(V{"--suite", "skinny", "--chain", "0"}), Errc::invalid_argument, "--chain 0 is outside [1, 64]");
  CHECK_APP_ERROR(parse(with({"--chain", "65"})), Errc::invalid_argument, "--chain 65 is outside [1, 64]");
  CHECK_APP_ERROR(parse(with({"--chain", "-2"})), Errc::invalid_argument, "--chain -2 is outside [1, 64]");
  CHECK_APP_ERROR(parse(V{"--frobnicate"}), Errc::invalid_argument, "unrecognised option '--frobnicate'");
  CHECK_APP_ERROR(parse(V{"--m", "many"}), Errc::invalid_argument, "the argument ('many') for option '--m' is invalid");
}

TEST_CASE("the system registry lists every system once, bsrflow paths first", "[apps]") {
  const std::vector<std::string> names = system_names();
  REQUIRE(names.size() >= 4);
  CHECK(names[0] == "bsrflow_reference");
  for (const char* peer : {"cublas_dense", "cublas_dense_random", "cusparse_bsr", "cusparse_blocked_ell"})
    CHECK(std::count(names.begin(), names.end(), peer) == 1);
  int dense = 0, dense_random = 0, probes = 0;
  for (const auto& s : make_all_systems()) {
    CHECK_FALSE(s->description().empty());
    dense += s->kind() == SystemKind::dense_baseline;
    dense_random += s->kind() == SystemKind::dense_random;
    probes += s->kind() == SystemKind::sol_probe;
    // Unchecked: the probe (writes no output) and cuBLAS on random data (another product).
    CHECK(s->checked() == (s->kind() != SystemKind::sol_probe && s->kind() != SystemKind::dense_random));
    CHECK(s->variant().empty());
  }
  CHECK(dense == 1);   // exactly one "vs dense" denominator
  CHECK(dense_random == 1);
  CHECK(probes == 1);  // and one SOL probe: bsrflow_sm90's copy-only variant
  CHECK(std::count(names.begin(), names.end(), "bsrflow_sm90_copy_probe") == 1);
}

TEST_CASE("systems declare the cases they cannot run", "[apps]") {
  BenchCase square;
  square.m = square.n = square.k = 256;
  BenchCase wide = square;
  wide.R = 16;
  wide.C = 64;
  BenchCase skinny = square;
  skinny.n = 64;
  for (const auto& s : make_all_systems()) {
    CHECK(s->supports(skinny));
    if (s->name() == "bsrflow_skinny")
      CHECK(s->unsupported_reason(square) == "N (256) is above 64, the skinny kernel's widest tile");
    else
      CHECK(s->supports(square));
    if (s->name() == "cusparse_blocked_ell") CHECK(s->unsupported_reason(wide) == "Blocked-ELL takes square blocks only");
    if (s->name() == "bsrflow_reference") {
      CHECK(s->supports(wide));
      CHECK(s->slow());
    }
  }
}

TEST_CASE("sm90 configuration systems are named by their plan, or say which variant could not plan", "[apps]") {
  BenchCase c;
  c.m = c.n = c.k = 1024;
  c.R = c.C = 64;
  DeviceInfo h100;
  h100.cc_major = 9;
  h100.smem_per_block_optin = 232448;
  const auto s = make_sm90_variant_system(c, {256, GemmOrientation::swap, 0}, h100);
  CHECK(s->name() == "bsr_sm90_f16_r64c64_swath256_s4_swap_pair");  // 64-row blocks run as CTA pairs
  CHECK(s->variant() == "swath256_swap");
  CHECK(s->kind() == SystemKind::bsrflow);
  CHECK(s->checked());
  DeviceInfo none;  // not a Hopper GPU: the plan is refused, so the fallback name
  CHECK(make_sm90_variant_system(c, {256, GemmOrientation::swap, 0}, none)->name() == "bsrflow_sm90[swath256_swap]");
}
