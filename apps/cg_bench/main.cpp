// cg_bench: see cg_cli.hpp for the command line and cg_runner.hpp for what is measured.
// Exit codes: 0 ok, 1 bad command line or a failed run, 2 no GPU.
#include <iostream>

#include "bsrflow/apps/cg_bench/cg_cli.hpp"
#include "bsrflow/apps/cg_bench/cg_runner.hpp"
#include "bsrflow/apps/common/app_main.hpp"
#include "bsrflow/apps/common/csv_io.hpp"
#include "bsrflow/apps/common/gpu_guard.hpp"
#include "bsrflow/apps/common/json_io.hpp"

namespace {

constexpr const char* kApp = "cg_bench";

int run(int argc, char** argv) {
  using namespace bsrflow::bench;
  const CgBenchOptions options = parse_cg_bench_options(argc, argv);
  if (options.help) {
    std::cout << cg_bench_help();
    return 0;
  }
  if (!gpu_present_or_explain(kApp)) return kExitNoGpu;
  const CgBenchRun result = run_cg_bench(options, &std::cerr);
  std::cout << "# cg_bench\n\n" << cg_markdown(result.records, options);
  if (!options.json_path.empty()) write_json_file(options.json_path, result.records);
  if (!options.csv_path.empty()) write_csv_file(options.csv_path, result.records);
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return bsrflow::bench::run_app(kApp, [&] { return run(argc, argv); }); }
