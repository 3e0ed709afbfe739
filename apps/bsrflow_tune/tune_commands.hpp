// What bsrflow-tune's commands do, as functions of a cache and output streams (main() only
// parses and dispatches), so that the CPU tests run list / clear and the GPU tests run tune.
#pragma once

#include <ostream>
#include <vector>

#include "bsrflow/apps/bsr_bench/bench_case.hpp"
#include "bsrflow/apps/bsrflow_tune/tune_cli.hpp"
#include "bsrflow/ops/tuning_cache.hpp"

namespace bsrflow::bench {

// One line per entry: configuration, tuned and heuristic ms, speed-up, when, and the key; or
// "no entries in <file>".
void list_cache(const TuningCache& cache, std::ostream& out);

// Removes the cache file and says how many entries it held.
void clear_cache(TuningCache& cache, std::ostream& out);

// Plans every case with GemmTuning::exhaustive against `cache` (one line per case: the plan's
// tuning note). Needs a GPU. Returns the number of cases tuned.
int tune_cases(const std::vector<BenchCase>& cases, TuningCache& cache, std::ostream& out);

// The whole program: parse, dispatch, exit code (0 ok; kExitUsage for a bad command line, via
// the Error it throws; kExitNoGpu for `tune` without a GPU, with one line on `err`).
int run_bsrflow_tune(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace bsrflow::bench
