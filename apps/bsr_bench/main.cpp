// bsr_bench: see bench_cli.hpp for the command line and docs/benchmarks/README.md for the
// result files. Exit codes: 0 ok, 1 bad command line or a failed run, 2 no GPU.
#include <iostream>

#include "bsrflow/apps/bsr_bench/bench_cli.hpp"
#include "bsrflow/apps/bsr_bench/report.hpp"
#include "bsrflow/apps/bsr_bench/system_registry.hpp"
#include "bsrflow/apps/common/csv_io.hpp"
#include "bsrflow/apps/common/gpu_guard.hpp"
#include "bsrflow/apps/common/json_io.hpp"
#include "bsrflow/apps/common/plot.hpp"
#include "bsrflow/core/error.hpp"

namespace {

constexpr const char* kApp = "bsr_bench";

void draw(const std::vector<bsrflow::bench::Record>& records, const std::string& png) {
  if (bsrflow::bench::render_png(bsrflow::bench::bench_chart(records), png, kApp) ==
      bsrflow::bench::PlotStatus::written)
    std::cerr << kApp << ": wrote " << png << '\n';
}

int run(int argc, char** argv) {
  using namespace bsrflow::bench;
  const BenchOptions options = parse_bench_options(argc, argv);
  if (options.help) {
    std::cout << bench_help();
    return 0;
  }
  if (options.list_systems) {
    for (const auto& s : make_all_systems()) std::cout << s->name() << "  " << s->description() << '\n';
    std::cout << "\n--sm90-configs names (which of them a case can run depends on its dtype, block shape and B "
                 "layout; without _kc the k-chunk is min(C, 64)):\n";
    for (const auto& name : all_variant_names()) std::cout << "  " << name << '\n';
    return 0;
  }
  if (!options.plot_from.empty()) {  // offline: no GPU needed
    draw(read_json_file(options.plot_from), options.plot_path);
    return 0;
  }
  if (!gpu_present_or_explain(kApp)) return kExitNoGpu;

  const BenchRun result = run_bench(options.cases, options.runner, &std::cerr);
  std::cout << "# bsr_bench" << (options.suite.empty() ? "" : " --suite " + options.suite) << "\n\n"
            << bench_markdown(result.records, options.runner.timing, options.runner.reference_iters);
  if (!options.json_path.empty()) write_json_file(options.json_path, result.records);
  if (!options.csv_path.empty()) write_csv_file(options.csv_path, result.records);
  if (!options.plot_path.empty()) draw(result.records, options.plot_path);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const bsrflow::Error& e) {
    std::cerr << kApp << ": " << e.message() << '\n';
    if (e.code() == bsrflow::Errc::invalid_argument) std::cerr << "(see " << kApp << " --help)\n";
    return bsrflow::bench::kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << kApp << ": " << e.what() << '\n';
    return bsrflow::bench::kExitUsage;
  }
}
