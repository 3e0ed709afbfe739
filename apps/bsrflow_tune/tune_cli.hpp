// bsrflow-tune's command line:
//
//   bsrflow-tune tune  [--suite quick|standard|llm|skinny] [--cache-dir DIR]   (needs a GPU)
//   bsrflow-tune list  [--cache-dir DIR]
//   bsrflow-tune clear [--cache-dir DIR]
//   bsrflow-tune --help
//
// The cache directory defaults to the library's rule (BSRFLOW_CACHE_DIR, XDG_CACHE_HOME/bsrflow,
// ~/.cache/bsrflow; ops/tuning_cache.hpp).
#pragma once

#include <string>

namespace bsrflow::bench {

struct TuneCommand {
  enum class Kind { help, tune, list, clear };
  Kind kind = Kind::help;
  std::string suite = "quick";  // bsr_bench's case lists (apps/bsr_bench/suites.hpp)
  std::string cache_dir;        // "" = the library's default directory
  bool operator==(const TuneCommand&) const = default;
};

// Throws Error(invalid_argument) naming the offending word or option.
TuneCommand parse_tune_command(int argc, const char* const* argv);

std::string tune_help();

}  // namespace bsrflow::bench
