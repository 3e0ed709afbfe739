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

namespace {
// "<dims> [RxC ]<density>% <pattern>[ <dtype>][ B:col][ C:col][ chain<L>]"
std::string case_text(const BenchCase& c, bool block_and_dtype) {
  std::string text = (c.m == c.n && c.n == c.k)
                         ? std::to_string(c.m) + "^3"
                         : std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k);
  // NOTES: appended piece by piece; "literal" + std::string trips GCC 12's -Wrestrict here.
  if (block_and_dtype) text.append(" ").append(std::to_string(c.R)).append("x").append(std::to_string(c.C));
  text.append(" ").append(format_density(c.density * 100.0)).append("% ").append(pattern_name(c.pattern));
  if (block_and_dtype) text.append(" ").append(dtype_name(c.dtype));
  if (c.b_layout == Layout::col_major) text += " B:col";
  if (c.c_layout == Layout::col_major) text += " C:col";
  if (c.chain > 1) text.append(" chain").append(std::to_string(c.chain));
  return text;
}
}  // namespace

std::string BenchCase::label() const { return case_text(*this, true); }

std::string BenchCase::panel_label() const { return case_text(*this, false); }

std::string BenchCase::block_label() const {
  return R == C ? std::to_string(R) : std::to_string(R) + "x" + std::to_string(C);
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
  BSRFLOW_REQUIRE(c.chain >= 1 && c.chain <= kMaxChain, Errc::invalid_argument,
                  "--chain " + s(c.chain) + " is outside [1, " + s(kMaxChain) + "]");
}

}  // namespace bsrflow::bench
