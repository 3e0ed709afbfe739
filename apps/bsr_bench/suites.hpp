// The named case lists of bsr_bench (issue 3):
//  quick     a few 2048^3 cases that run in seconds (the GPU test runs this one)
//  standard  M = N = K = 8192, f16 and bf16: 12.5% at blocks 16/32/64/128; 50% and 3% at 32
//            and 128; non-square 16x64, 64x16, 32x128; power-law rows with the uniform block
//            count at blocks 16/32/64/128; B column-major at 32 and 128
//  llm       A = 4096 x 11008 and 11008 x 4096 weights, N = 4096 tokens, blocks 32 and 64,
//            density 25% and 50%, f16 and bf16
//  skinny    the llm weights with N = 16 and 64 (memory-bound: reported as GB/s)
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "bsrflow/apps/bsr_bench/bench_case.hpp"

namespace bsrflow::bench {

std::vector<std::string> suite_names();

// Throws Error(invalid_argument) for an unknown name, listing the known ones.
std::vector<BenchCase> suite_cases(std::string_view name);

}  // namespace bsrflow::bench
