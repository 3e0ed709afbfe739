// fem_solve: see fem_cli.hpp for the command line and fem_runner.hpp for what it does.
// Exit codes: 0 ok, 1 bad command line, a failed run or a failed verification, 2 no GPU.
#include <iostream>

#include "bsrflow/apps/common/app_main.hpp"
#include "bsrflow/apps/common/gpu_guard.hpp"
#include "bsrflow/apps/fem_solve/fem_cli.hpp"
#include "bsrflow/apps/fem_solve/fem_runner.hpp"

namespace {

constexpr const char* kApp = "fem_solve";

int run(int argc, char** argv) {
  using namespace bsrflow;
  const fem::FemOptions options = fem::parse_fem_options(argc, argv);
  if (options.help) {
    std::cout << fem::fem_help();
    return 0;
  }
  if (!bench::gpu_present_or_explain(kApp)) return bench::kExitNoGpu;
  const fem::FemRun result = fem::run_fem(options, &std::cerr);
  std::cout << fem::fem_markdown(result, options);
  if (!result.verification_passed) {
    std::cerr << kApp << ": verification FAILED (see the table)\n";
    return bench::kExitUsage;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return bsrflow::bench::run_app(kApp, [&] { return run(argc, argv); }); }
