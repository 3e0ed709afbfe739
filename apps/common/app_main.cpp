#include "bsrflow/apps/common/app_main.hpp"

#include <exception>
#include <iostream>

#include "bsrflow/apps/common/gpu_guard.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

int run_app(std::string_view app, const std::function<int()>& body) {
  try {
    return body();
  } catch (const Error& e) {
    std::cerr << app << ": " << e.message() << '\n';
    if (e.code() == Errc::invalid_argument) std::cerr << "(see " << app << " --help)\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << app << ": " << e.what() << '\n';
    return kExitUsage;
  }
}

}  // namespace bsrflow::bench
