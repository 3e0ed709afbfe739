#include "bsrflow/apps/bsr_bench/suites.hpp"

#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace {

BenchCase make(int m, int n, int k, int R, int C, double density, DType dtype, Pattern pattern = Pattern::uniform,
               Layout b = Layout::row_major, Layout c = Layout::row_major) {
  BenchCase bc;
  bc.m = m;
  bc.n = n;
  bc.k = k;
  bc.R = R;
  bc.C = C;
  bc.density = density;
  bc.dtype = dtype;
  bc.pattern = pattern;
  bc.b_layout = b;
  bc.c_layout = c;
  return bc;
}

std::vector<BenchCase> quick() {
  constexpr int s = 2048;
  return {
      make(s, s, s, 32, 32, 0.125, DType::f16),
      make(s, s, s, 64, 64, 0.125, DType::f16),
      make(s, s, s, 32, 32, 0.125, DType::f16, Pattern::powerlaw),
      make(s, s, s, 64, 64, 0.125, DType::f16, Pattern::uniform, Layout::col_major),
      make(s, s, s, 32, 32, 0.125, DType::bf16),
      make(s, s, s, 16, 64, 0.125, DType::f16),  // non-square: Blocked-ELL cannot take it
  };
}

std::vector<BenchCase> standard() {
  constexpr int s = 8192;
  std::vector<BenchCase> cases;
  for (const DType t : {DType::f16, DType::bf16}) {
    for (const int b : {16, 32, 64, 128}) cases.push_back(make(s, s, s, b, b, 0.125, t));
    for (const int b : {32, 128})
      for (const double d : {0.5, 0.03}) cases.push_back(make(s, s, s, b, b, d, t));
    cases.push_back(make(s, s, s, 16, 64, 0.125, t));
    cases.push_back(make(s, s, s, 64, 16, 0.125, t));
    cases.push_back(make(s, s, s, 32, 128, 0.125, t));
    for (const int b : {16, 32, 64, 128}) cases.push_back(make(s, s, s, b, b, 0.125, t, Pattern::powerlaw));
    for (const int b : {32, 128})
      cases.push_back(make(s, s, s, b, b, 0.125, t, Pattern::uniform, Layout::col_major));
  }
  return cases;
}

// The two LLM weight shapes (m x k) at `n` tokens.
std::vector<BenchCase> llm_weights(int n) {
  std::vector<BenchCase> cases;
  for (const DType t : {DType::f16, DType::bf16})
    for (const auto& [m, k] : {std::pair{4096, 11008}, std::pair{11008, 4096}})
      for (const int b : {32, 64})
        for (const double d : {0.25, 0.5}) cases.push_back(make(m, n, k, b, b, d, t));
  return cases;
}

}  // namespace

std::vector<std::string> suite_names() { return {"quick", "standard", "llm", "skinny"}; }

std::vector<BenchCase> suite_cases(std::string_view name) {
  if (name == "quick") return quick();
  if (name == "standard") return standard();
  if (name == "llm") return llm_weights(4096);
  if (name == "skinny") {
    std::vector<BenchCase> cases = llm_weights(16);
    const std::vector<BenchCase> wider = llm_weights(64);
    cases.insert(cases.end(), wider.begin(), wider.end());
    return cases;
  }
  BSRFLOW_FAIL(Errc::invalid_argument,
               "--suite '" + std::string(name) + "' is not one of quick, standard, llm, skinny");
}

}  // namespace bsrflow::bench
