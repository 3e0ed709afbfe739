// spmv_bench: see spmv_cli.hpp for the command line and spmv_runner.hpp for what is measured.
// Exit codes: 0 ok, 1 bad command line or a failed run, 2 no GPU.
#include <iostream>

#include "bsrflow/apps/common/app_main.hpp"
#include "bsrflow/apps/common/csv_io.hpp"
#include "bsrflow/apps/common/gpu_guard.hpp"
#include "bsrflow/apps/common/json_io.hpp"
#include "bsrflow/apps/spmv_bench/spmv_cli.hpp"
#include "bsrflow/apps/spmv_bench/spmv_runner.hpp"

namespace {

constexpr const char* kApp = "spmv_bench";

int run(int argc, char** argv) {
  using namespace bsrflow::bench;
  const SpmvBenchOptions options = parse_spmv_bench_options(argc, argv);
  if (options.help) {
    std::cout << spmv_bench_help();
    return 0;
  }
  if (!gpu_present_or_explain(kApp)) return kExitNoGpu;
  const SpmvBenchRun result = run_spmv_bench(options, &std::cerr);
  std::cout << "# spmv_bench\n\n" << spmv_markdown(result.records, options.timing);
  if (!options.json_path.empty()) write_json_file(options.json_path, result.records);
  if (!options.csv_path.empty()) write_csv_file(options.csv_path, result.records);
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return bsrflow::bench::run_app(kApp, [&] { return run(argc, argv); }); }
