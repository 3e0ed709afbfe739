#include "bsrflow/apps/bsrflow_tune/tune_cli.hpp"

#include <sstream>
#include <string_view>

#include "bsrflow/apps/bsr_bench/suites.hpp"
#include "bsrflow/apps/common/cli_common.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace po = boost::program_options;

namespace {

po::options_description describe(TuneCommand& c, bool with_suite) {
  po::options_description options("options");
  options.add_options()("cache-dir", po::value<std::string>(&c.cache_dir),
                        "tuning cache directory (default: $BSRFLOW_CACHE_DIR, else $XDG_CACHE_HOME/bsrflow, else "
                        "~/.cache/bsrflow)");
  if (with_suite)
    options.add_options()("suite", po::value<std::string>(&c.suite)->default_value(c.suite),
                          "bsr_bench case list to tune: quick, standard, llm, skinny");
  return options;
}

}  // namespace

TuneCommand parse_tune_command(int argc, const char* const* argv) {
  TuneCommand c;
  BSRFLOW_REQUIRE(argc >= 2, Errc::invalid_argument, "missing command: expected tune, list or clear");
  const std::string_view word = argv[1];
  if (word == "--help" || word == "-h" || word == "help") {
    BSRFLOW_REQUIRE(argc == 2, Errc::invalid_argument, "--help takes no further arguments");
    return c;
  }
  if (word == "tune") c.kind = TuneCommand::Kind::tune;
  else if (word == "list") c.kind = TuneCommand::Kind::list;
  else if (word == "clear") c.kind = TuneCommand::Kind::clear;
  else
    BSRFLOW_FAIL(Errc::invalid_argument, "unknown command '" + std::string(word) + "': expected tune, list or clear");
  // The command word stands in for the program name (Boost skips argv[0]).
  const po::options_description options = describe(c, c.kind == TuneCommand::Kind::tune);
  parse_command_line(argc - 1, argv + 1, options);
  if (c.kind == TuneCommand::Kind::tune) (void)suite_cases(c.suite);  // Error(invalid_argument) naming the suites
  return c;
}

std::string tune_help() {
  TuneCommand scratch;
  std::ostringstream text;
  text << "bsrflow-tune: ahead-of-time tuning of bsrflow's Hopper BSR GEMM, and its on-disk cache.\n\n"
       << "  bsrflow-tune tune  [--suite quick|standard|llm|skinny] [--cache-dir DIR]\n"
       << "      plans every case of a bsr_bench suite with exhaustive tuning and stores the winners\n"
       << "      (needs an NVIDIA Hopper GPU; exits with 2 without one)\n"
       << "  bsrflow-tune list  [--cache-dir DIR]   the cached entries, one per line\n"
       << "  bsrflow-tune clear [--cache-dir DIR]   removes the cache file\n\n"
       << describe(scratch, true) << '\n'
       << "Programs use the cache with GemmOptions::tuning = GemmTuning::cached (docs/autotuning.md).\n";
  return text.str();
}

}  // namespace bsrflow::bench
