#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/bsr_bench/suites.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;

namespace {
template <class Pred>
long count_if(const std::vector<BenchCase>& cases, Pred p) {
  return std::count_if(cases.begin(), cases.end(), p);
}
}  // namespace

TEST_CASE("every suite case is valid and distinct", "[apps]") {
  for (const auto& name : suite_names()) {
    const std::vector<BenchCase> cases = suite_cases(name);
    CAPTURE(name);
    CHECK_FALSE(cases.empty());
    std::set<std::string> labels;
    for (const auto& c : cases) {
      CHECK_NOTHROW(check_case(c));
      labels.insert(c.label());
    }
    CHECK(labels.size() == cases.size());  // labels identify cases in reports and charts
  }
  CHECK_APP_ERROR(suite_cases("tiny"), Errc::invalid_argument, "--suite 'tiny' is not one of quick, standard, llm, skinny");
}

TEST_CASE("standard suite: issue 3's cases at 8192^3 in f16 and bf16", "[apps]") {
  const std::vector<BenchCase> cases = suite_cases("standard");
  CHECK(cases.size() == 34);
  for (const auto& c : cases) {
    CHECK(c.m == 8192);
    CHECK(c.n == 8192);
    CHECK(c.k == 8192);
  }
  for (const DType t : {DType::f16, DType::bf16}) {
    auto has = [&](int R, int C, double d, Pattern p, Layout b) {
      return count_if(cases, [&](const BenchCase& c) {
               return c.dtype == t && c.R == R && c.C == C && c.density == d && c.pattern == p && c.b_layout == b &&
                      c.c_layout == Layout::row_major;
             }) == 1;
    };
    for (const int b : {16, 32, 64, 128}) {
      CHECK(has(b, b, 0.125, Pattern::uniform, Layout::row_major));
      CHECK(has(b, b, 0.125, Pattern::powerlaw, Layout::row_major));
    }
    for (const int b : {32, 128}) {
      CHECK(has(b, b, 0.5, Pattern::uniform, Layout::row_major));
      CHECK(has(b, b, 0.03, Pattern::uniform, Layout::row_major));
      CHECK(has(b, b, 0.125, Pattern::uniform, Layout::col_major));
    }
    CHECK(has(16, 64, 0.125, Pattern::uniform, Layout::row_major));
    CHECK(has(64, 16, 0.125, Pattern::uniform, Layout::row_major));
    CHECK(has(32, 128, 0.125, Pattern::uniform, Layout::row_major));
  }
}

TEST_CASE("llm and skinny suites: the two weight shapes, blocks 32/64, density 25%/50%", "[apps]") {
  const std::vector<BenchCase> llm = suite_cases("llm");
  CHECK(llm.size() == 16);
  for (const auto& c : llm) {
    CHECK(c.n == 4096);
    CHECK(((c.m == 4096 && c.k == 11008) || (c.m == 11008 && c.k == 4096)));
    CHECK((c.R == c.C && (c.R == 32 || c.R == 64)));
    CHECK((c.density == 0.25 || c.density == 0.5));
    CHECK_FALSE(c.skinny());
  }
  const std::vector<BenchCase> skinny = suite_cases("skinny");
  CHECK(skinny.size() == 32);
  CHECK(count_if(skinny, [](const BenchCase& c) { return c.n == 16; }) == 16);
  CHECK(count_if(skinny, [](const BenchCase& c) { return c.n == 64; }) == 16);
  for (const auto& c : skinny) CHECK(c.skinny());
}

TEST_CASE("quick suite: small and varied enough for the GPU test", "[apps]") {
  const std::vector<BenchCase> quick = suite_cases("quick");
  CHECK(quick.size() <= 8);
  for (const auto& c : quick) CHECK(std::max({c.m, c.n, c.k}) <= 2048);
  CHECK(count_if(quick, [](const BenchCase& c) { return c.pattern == Pattern::powerlaw; }) >= 1);
  CHECK(count_if(quick, [](const BenchCase& c) { return c.b_layout == Layout::col_major; }) >= 1);
  CHECK(count_if(quick, [](const BenchCase& c) { return c.dtype == DType::bf16; }) >= 1);
  CHECK(count_if(quick, [](const BenchCase& c) { return c.R != c.C; }) >= 1);
}
