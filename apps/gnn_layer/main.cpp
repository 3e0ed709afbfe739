// gnn_layer: see gnn_cli.hpp for the command line and gnn_runner.hpp for what is run and checked.
// Exit codes: 0 ok, 1 bad command line, a failed run or a wrong result, 2 no GPU.
#include <iostream>

#include "bsrflow/apps/common/app_main.hpp"
#include "bsrflow/apps/common/csv_io.hpp"
#include "bsrflow/apps/common/gpu_guard.hpp"
#include "bsrflow/apps/common/json_io.hpp"
#include "bsrflow/apps/gnn_layer/gnn_cli.hpp"
#include "bsrflow/apps/gnn_layer/gnn_runner.hpp"

namespace {

constexpr const char* kApp = "gnn_layer";

int run(int argc, char** argv) {
  using namespace bsrflow::gnn;
  const GnnOptions options = parse_gnn_options(argc, argv);
  if (options.help) {
    std::cout << gnn_help();
    return 0;
  }
  if (!bsrflow::bench::gpu_present_or_explain(kApp)) return bsrflow::bench::kExitNoGpu;
  const GnnRun result = run_gnn_layer(options, &std::cerr);
  std::cout << "# gnn_layer\n\n" << gnn_markdown(result);
  if (!options.json_path.empty()) bsrflow::bench::write_json_file(options.json_path, result.records);
  if (!options.csv_path.empty()) bsrflow::bench::write_csv_file(options.csv_path, result.records);
  for (const auto& r : result.records)
    if (r.flag("checked") && !r.flag("correct")) {
      std::cerr << kApp << ": a result is outside its error bound (see the table)\n";
      return bsrflow::bench::kExitUsage;
    }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return bsrflow::bench::run_app(kApp, [&] { return run(argc, argv); }); }
