// The shared main() of the benchmark apps: runs the app's body and turns an exception into one
// line on stderr ("<app>: <message>", plus "(see <app> --help)" for a bad argument) and exit
// code kExitUsage (gpu_guard.hpp), so every app fails the same way.
//
//   int main(int argc, char** argv) { return run_app("spmv_bench", [&] { return run(argc, argv); }); }
#pragma once

#include <functional>
#include <string_view>

namespace bsrflow::bench {

int run_app(std::string_view app, const std::function<int()>& body);

}  // namespace bsrflow::bench
