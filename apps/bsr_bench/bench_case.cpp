#include "bsrflow/apps/bsr_bench/bench_case.hpp"

#include <cstdio>

#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

std::string_view pattern_name(Pattern p) {
  switch (p) {
    case Pattern::uniform: return "uniform";
    case Pattern::powerlaw: return "powerlaw";
    case Pattern::banded: return "banded";
    case Pattern::clustered: return "clustered";
  }
  return "?";
}

Pattern parse_pattern(std::string_view name) {
  for (Pattern p : {Pattern::uniform, Pattern::powerlaw, Pattern::banded, Pattern::clustered})
    if (pattern_name(p) == name) return p;
  BSRFLOW_FAIL(Errc::invalid_argument,
               "--pattern '" + std::string(name) + "' is not one of uniform, powerlaw, banded, clustered");
}

std::string_view layout_name(Layout l) { return l == Layout::row_major ? "row" : "col"; }

Layout parse_layout(std::string_view name, std::string_view option) {
  if (name == "row") return Layout::row_major;
  if (name == "col") return Layout::col_major;
  BSRFLOW_FAIL(Errc::invalid_argument, std::string(option) + " '" + std::string(name) + "' is not row or col");
}

std::string BenchCase::label() const {
  std::string dims = (m == n && n == k) ? std::to_string(m) + "^3"
                                        : std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  char pct[32];
  std::snprintf(pct, sizeof(pct), "%g%%", density * 100.0);
  std::string text = dims + " " + std::to_string(R) + "x" + std::to_string(C) + " " + pct + " " +
                     std::string(pattern_name(pattern)) + " " + std::string(dtype_name(dtype));
  if (b_layout == Layout::col_major) text += " B:col";
  if (c_layout == Layout::col_major) text += " C:col";
  return text;
}

std::string format_density(double density) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", density);
  return text;
}

void check_case(const BenchCase& c) {
  const auto s = [](int v) { return std::to_string(v); };
  BSRFLOW_REQUIRE(c.m > 0 && c.n > 0 && c.k > 0, Errc::invalid_argument,
                  "--m, --n and --k must be positive (got " + s(c.m) + ", " + s(c.n) + ", " + s(c.k) + ")");
  BSRFLOW_REQUIRE(c.R > 0 && c.C > 0, Errc::invalid_argument, "block shape " + s(c.R) + "x" + s(c.C) + " must be positive");
  BSRFLOW_REQUIRE(c.m % c.R == 0, Errc::invalid_argument,
                  "--m " + s(c.m) + " is not a multiple of the block height " + s(c.R));
  BSRFLOW_REQUIRE(c.k % c.C == 0, Errc::invalid_argument,
                  "--k " + s(c.k) + " is not a multiple of the block width " + s(c.C));
  BSRFLOW_REQUIRE(c.density > 0.0 && c.density <= 1.0, Errc::invalid_argument,
                  "--density " + format_density(c.density) + " is outside (0, 1]");
  BSRFLOW_REQUIRE(c.dtype == DType::f16 || c.dtype == DType::bf16, Errc::invalid_argument,
                  "--dtype " + std::string(dtype_name(c.dtype)) + " is not benchmarked (expected f16 or bf16)");
}

}  // namespace bsrflow::bench
