// bsrflow-tune: see tune_cli.hpp for the command line and tune_commands.hpp for what it does.
// Exit codes: 0 ok, 1 bad command line or a failure, 2 `tune` without a GPU.
#include <iostream>

#include "bsrflow/apps/bsrflow_tune/tune_commands.hpp"
#include "bsrflow/apps/common/app_main.hpp"

int main(int argc, char** argv) {
  return bsrflow::bench::run_app("bsrflow-tune",
                                 [&] { return bsrflow::bench::run_bsrflow_tune(argc, argv, std::cout, std::cerr); });
}
