// bsr_bench's command line (issue 3):
//   no arguments        the standard suite on the present GPU
//   --suite NAME        quick | standard | llm | skinny
//   --chain L           every case as L products back to back on L weights (figures per product)
//   one case            --m --n --k [--block RxC] [--density] [--pattern] [--dtype] [--b-layout]
//                       [--c-layout] [--seed]
//   --iters --warmup --warmup-ms --rest-ms --no-cold-l2 --reference-iters --no-gpu-monitor    timing
//   --systems a,b       which systems run (default: all; --list-systems shows them)
//   --sm90-configs all|swath256_direct,...   one extra system per Hopper kernel configuration
//   --json --csv --plot outputs; --plot-from FILE.json --plot OUT.png redraws a chart offline
#pragma once

#include <string>
#include <vector>

#include "bsrflow/apps/bsr_bench/bench_case.hpp"
#include "bsrflow/apps/bsr_bench/runner.hpp"

namespace bsrflow::bench {

struct BenchOptions {
  bool help = false;
  bool list_systems = false;
  std::string suite;  // the suite that runs; "" for a single case or --plot-from
  std::vector<BenchCase> cases;
  RunnerConfig runner;
  std::string json_path;
  std::string csv_path;
  std::string plot_path;
  std::string plot_from;  // when set nothing runs: the chart is drawn from this JSON file
};

// Throws Error(invalid_argument) with a message naming the offending option.
BenchOptions parse_bench_options(int argc, const char* const* argv);

std::string bench_help();

}  // namespace bsrflow::bench
