#include "bsrflow/apps/common/cli_common.hpp"

#include <charconv>

#include "bsrflow/apps/common/markdown.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace po = boost::program_options;

namespace {
// A positive int from the whole of `text`, or 0 when it is not one.
int positive_int(std::string_view text) {
  int v = 0;
  const auto res = std::from_chars(text.data(), text.data() + text.size(), v);
  if (res.ec != std::errc() || res.ptr != text.data() + text.size() || v <= 0) return 0;
  return v;
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(sep, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}
}  // namespace

BlockShape parse_block_shape(std::string_view text, std::string_view option) {
  const std::size_t x = text.find_first_of("xX");
  BlockShape shape;
  if (x == std::string_view::npos) {
    shape.R = shape.C = positive_int(text);
  } else {
    shape.R = positive_int(text.substr(0, x));
    shape.C = positive_int(text.substr(x + 1));
  }
  BSRFLOW_REQUIRE(shape.R > 0 && shape.C > 0, Errc::invalid_argument,
                  std::string(option) + " '" + std::string(text) +
                      "' is not a block shape (expected R or RxC with positive integers, e.g. 32 or 16x64)");
  return shape;
}

std::vector<int> parse_positive_int_list(std::string_view text, std::string_view option) {
  std::vector<int> values;
  for (const std::string_view part : split(text, ',')) {
    const int v = positive_int(part);
    BSRFLOW_REQUIRE(v > 0, Errc::invalid_argument,
                    std::string(option) + ": '" + std::string(part) + "' is not a positive integer (in '" +
                        std::string(text) + "')");
    values.push_back(v);
  }
  return values;
}

DType parse_dtype_choice(std::string_view text, std::initializer_list<DType> allowed, std::string_view option) {
  std::string expected;
  std::size_t i = 0;
  for (const DType t : allowed) {
    if (text == dtype_name(t)) return t;
    expected += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + std::string(dtype_name(t));
    ++i;
  }
  BSRFLOW_FAIL(Errc::invalid_argument,
               std::string(option) + ": unsupported dtype '" + std::string(text) + "' (expected " + expected + ")");
}

std::vector<std::string> parse_name_list(std::string_view text, std::string_view option) {
  std::vector<std::string> names;
  for (const std::string_view part : split(text, ',')) {
    BSRFLOW_REQUIRE(!part.empty(), Errc::invalid_argument,
                    std::string(option) + ": empty name in '" + std::string(text) + "'");
    names.emplace_back(part);
  }
  return names;
}

po::variables_map parse_command_line(int argc, const char* const* argv, const po::options_description& options) {
  po::variables_map vm;
  try {
    // No prefix guessing: "--block" must not silently mean "--blocks".
    const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    const po::parsed_options parsed = po::command_line_parser(argc, argv).options(options).style(style).run();
    for (const auto& option : parsed.options)
      BSRFLOW_REQUIRE(option.position_key < 0, Errc::invalid_argument,
                      "unexpected argument '" + (option.original_tokens.empty() ? std::string("?") : option.original_tokens[0]) +
                          "' (options start with --)");
    po::store(parsed, vm);
    po::notify(vm);
  } catch (const po::error& e) {
    BSRFLOW_FAIL(Errc::invalid_argument, e.what());
  }
  return vm;
}

void add_timing_options(po::options_description& options, TimingConfig& config) {
  options.add_options()
      ("iters", po::value<int>(&config.iters)->default_value(config.iters), "timed runs per measurement (median reported)")
      ("warmup", po::value<int>(&config.warmup)->default_value(config.warmup), "untimed warm-up runs first")
      ("warmup-ms", po::value<double>(&config.warmup_ms)->default_value(config.warmup_ms),
       "then more warm-up runs until they kept the GPU busy this long (its clock follows its recent power draw)")
      ("rest-ms", po::value<double>(&config.rest_ms)->default_value(config.rest_ms),
       "let the GPU idle this long before each warm-up (each burst starts from a rested GPU)")
      ("no-cold-l2", po::bool_switch()->notifier([&config](bool off) { if (off) config.cold_l2 = false; }),
       "do not flush L2 before each timed run");
}

void check_timing_options(const TimingConfig& config) {
  BSRFLOW_REQUIRE(config.iters >= 1, Errc::invalid_argument,
                  "--iters must be at least 1 (got " + std::to_string(config.iters) + ")");
  BSRFLOW_REQUIRE(config.warmup >= 0, Errc::invalid_argument,
                  "--warmup must not be negative (got " + std::to_string(config.warmup) + ")");
  BSRFLOW_REQUIRE(config.rest_ms >= 0 && config.rest_ms <= 60000, Errc::invalid_argument,
                  "--rest-ms must be between 0 and 60000 (got " + format_significant(config.rest_ms) + ")");
  BSRFLOW_REQUIRE(config.warmup_ms >= 0 && config.warmup_ms <= 60000, Errc::invalid_argument,
                  "--warmup-ms must be between 0 and 60000 (got " + format_significant(config.warmup_ms) + ")");
}

}  // namespace bsrflow::bench
