// Command-line pieces shared by the benchmark apps (Boost.Program_options underneath). Every
// problem becomes Error(invalid_argument) with a message naming the option, so main() prints
// one line and exits with kExitUsage.
#pragma once

#include <boost/program_options.hpp>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "bsrflow/apps/common/timing.hpp"
#include "bsrflow/core/dtype.hpp"

namespace bsrflow::bench {

struct BlockShape {
  int R = 0;
  int C = 0;
  bool operator==(const BlockShape&) const = default;
};

// "32" (square) or "16x64" (R x C, 'x' or 'X'); both positive.
BlockShape parse_block_shape(std::string_view text, std::string_view option = "--block");

// "3,16,32" -> {3, 16, 32}; every entry a positive integer.
std::vector<int> parse_positive_int_list(std::string_view text, std::string_view option);

// One of `allowed` by name ("f64"), e.g. for --dtype. Anything else is Error(invalid_argument)
// "--dtype: unsupported dtype 'f16' (expected f64 or f32)".
DType parse_dtype_choice(std::string_view text, std::initializer_list<DType> allowed,
                         std::string_view option = "--dtype");

// "a,b,c" -> {"a", "b", "c"} (empty entries are an error).
std::vector<std::string> parse_name_list(std::string_view text, std::string_view option);

// Parses argv against `options`, turning Boost's exceptions (unknown option, bad value, missing
// argument) into Error(invalid_argument). Positional arguments are rejected.
boost::program_options::variables_map parse_command_line(int argc, const char* const* argv,
                                                         const boost::program_options::options_description& options);

// --iters, --warmup, --no-cold-l2 bound to `config`.
void add_timing_options(boost::program_options::options_description& options, TimingConfig& config);
// Checks what add_timing_options parsed (iters >= 1, warmup >= 0).
void check_timing_options(const TimingConfig& config);

}  // namespace bsrflow::bench
