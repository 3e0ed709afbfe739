// bsrflow-tune: command line, list and clear against a temporary cache (CPU), `tune` without a
// GPU (exit 2 with one plain line), and `tune --suite quick` into a temporary cache ([gpu]).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <filesystem>
#include <sstream>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/bsr_bench/suites.hpp"
#include "bsrflow/apps/bsrflow_tune/tune_cli.hpp"
#include "bsrflow/apps/bsrflow_tune/tune_commands.hpp"
#include "bsrflow/core/device_info.hpp"
#include "support/gpu.hpp"
#include "support/temp_dir.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;
namespace fs = std::filesystem;

namespace {

TuneCommand parse(std::vector<std::string> args) {
  const test::Args a(std::move(args));
  return parse_tune_command(a.argc(), a.argv());
}

int run(std::vector<std::string> args, std::string& out, std::string& err) {
  const test::Args a(std::move(args));
  std::ostringstream o, e;
  const int rc = run_bsrflow_tune(a.argc(), a.argv(), o, e);
  out = o.str();
  err = e.str();
  return rc;
}

TuningEntry sample_entry() {
  TuningEntry e;
  e.key = tuning_key({"NVIDIA H100 80GB HBM3", 132, 90, 13000, 13000, "0.1.0"}, DType::f16, DType::f16, 64, 64,
                     Layout::row_major, Layout::row_major, 8192, PatternStats{128, 128, 2048, 16});
  e.config = {{256, GemmOrientation::direct, 64}, 5, true};
  e.tuned_ms = 1.0;
  e.heuristic_ms = 1.25;
  e.when = "2026-11-23T12:00:00Z";
  return e;
}

}  // namespace

TEST_CASE("bsrflow-tune command line", "[apps][tuning]") {
  CHECK(parse({"--help"}).kind == TuneCommand::Kind::help);
  const TuneCommand t = parse({"tune"});
  CHECK(t.kind == TuneCommand::Kind::tune);
  CHECK(t.suite == "quick");
  CHECK(t.cache_dir.empty());
  CHECK(parse({"tune", "--suite", "standard", "--cache-dir", "/tmp/c"}) ==
        TuneCommand{TuneCommand::Kind::tune, "standard", "/tmp/c"});
  CHECK(parse({"list", "--cache-dir", "/x"}) == TuneCommand{TuneCommand::Kind::list, "quick", "/x"});
  CHECK(parse({"clear"}).kind == TuneCommand::Kind::clear);

  CHECK_APP_ERROR(parse({}), Errc::invalid_argument, "missing command: expected tune, list or clear");
  CHECK_APP_ERROR(parse({"retune"}), Errc::invalid_argument, "unknown command 'retune': expected tune, list or clear");
  CHECK_APP_ERROR(parse({"tune", "--suite", "huge"}), Errc::invalid_argument,
                  "--suite 'huge' is not one of quick, standard, llm, skinny");
  CHECK_APP_ERROR(parse({"list", "--suite", "quick"}), Errc::invalid_argument, "suite");  // tune's option only
  CHECK_APP_ERROR(parse({"clear", "extra"}), Errc::invalid_argument, "extra");
  CHECK(tune_help().find("bsrflow-tune tune  [--suite quick|standard|llm|skinny]") != std::string::npos);
}

TEST_CASE("bsrflow-tune list and clear work without a GPU", "[apps][tuning]") {
  test::TempDir dir("bsrflow_tune");
  std::string out, err;
  CHECK(run({"list", "--cache-dir", dir.path.string()}, out, err) == 0);
  CHECK(out == "no entries in " + (dir.path / "gemm_tuning.json").string() + "\n");

  std::vector<std::string> warnings;
  TuningCache cache(dir.path, [&](const std::string& w) { warnings.push_back(w); });
  cache.store(sample_entry());
  CHECK(run({"list", "--cache-dir", dir.path.string()}, out, err) == 0);
  CHECK(out == "1 entries in " + cache.file().string() +
                   "\nswath256_direct_kc64_s5  1.0000 ms (heuristic 1.2500 ms, x1.250)  2026-11-23T12:00:00Z  "
                   "NVIDIA H100 80GB HBM3 sm90 x132 cudart13000 driver13000 bsrflow0.1.0 | f16->f16 64x64 B:row "
                   "C:row N<=2^13 density>=2^-3 skew>=2^0\n");
  CHECK(err.empty());

  // A corrupted cache: listed as empty, with the cache's warning on stderr.
  {
    std::ofstream f(cache.file(), std::ios::trunc);
    f << "{\"format\": 1, \"entr";
  }
  CHECK(run({"list", "--cache-dir", dir.path.string()}, out, err) == 0);
  CHECK(out.find("no entries in ") == 0);
  CHECK(err.find("warning: bsrflow: tuning cache ") == 0);
  CHECK(err.find("not valid JSON") != std::string::npos);

  cache.store(sample_entry());  // over the corrupted file: the cache warns and replaces it
  CHECK(warnings.size() == 1);
  CHECK(run({"clear", "--cache-dir", dir.path.string()}, out, err) == 0);
  CHECK(out == "removed " + cache.file().string() + " (1 entries)\n");
  CHECK(!fs::exists(cache.file()));
  CHECK(run({"clear", "--cache-dir", dir.path.string()}, out, err) == 0);
  CHECK(out == "nothing to remove: " + cache.file().string() + " does not exist\n");
  CHECK(run({"--help"}, out, err) == 0);
  CHECK(out == tune_help());
}

TEST_CASE("bsrflow-tune tune without a GPU exits with 2 and one line", "[apps][tuning]") {
  if (gpu_count() > 0) {
    WARN("SKIPPED: a GPU is present; the [gpu] test runs tune instead");
    return;
  }
  test::TempDir dir("bsrflow_tune");
  std::string out, err;
  CHECK(run({"tune", "--cache-dir", dir.path.string()}, out, err) == 2);
  CHECK(err == "bsrflow-tune: no CUDA GPU found; 'tune' needs an NVIDIA Hopper GPU (list and clear work without one)\n");
  CHECK(out.empty());
}

TEST_CASE("bsrflow-tune tune --suite quick fills a cache that list shows", "[apps][tuning][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  if (!device_info().is_hopper()) {
    WARN("SKIPPED: not sm_90, nothing to tune");
    return;
  }
  test::TempDir dir("bsrflow_tune");
  std::string out, err;
  REQUIRE(run({"tune", "--suite", "quick", "--cache-dir", dir.path.string()}, out, err) == 0);
  INFO(out << err);
  const std::size_t cases = suite_cases("quick").size();
  CHECK(out.find("tuned " + std::to_string(cases) + " of " + std::to_string(cases) + " cases") != std::string::npos);
  TuningCache cache(dir.path);
  CHECK(!cache.entries().empty());
  CHECK(cache.entries().size() <= cases);  // cases in one bucket share an entry
  CHECK(run({"list", "--cache-dir", dir.path.string()}, out, err) == 0);
  CHECK(out.find(std::to_string(cache.entries().size()) + " entries in ") == 0);
}
