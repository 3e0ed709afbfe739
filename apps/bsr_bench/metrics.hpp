// The numbers bsr_bench reports, as plain functions (unit-tested on the CPU).
//
// Effective rate: only stored blocks count, 2 * nnzb * R * C * N flops per product.
//
// Speed of light (SOL) byte model. A tile is one block row x the full N. For each stored R x C
// block the kernel must bring A's block (R*C elements) and B's C x N rows (C*N elements)
// through L2 into shared memory, and does 2*R*C*N flops on them:
//   intensity = 2*R*C*N / ((R*C + C*N) * sizeof(dtype))   flop/byte
//   rate_sol  = min(cuBLAS dense rate in this run, L2 bandwidth * intensity)
// The L2 bandwidth is the plain L2 read probe of this run; the copy-only variant of the Hopper
// kernel (the same loads without the math) replaces it once that probe lands.
//
// Skinny (memory-bound) cases are reported as GB/s of the bytes a kernel must at least move:
// A's values and indices, all of B, and C written once.
#pragma once

#include <cstdint>

#include "bsrflow/apps/bsr_bench/bench_case.hpp"

namespace bsrflow::bench {

// TFLOPS from a flop count and milliseconds (NaN when ms <= 0 or not finite).
double tflops(double flops, double ms);

double effective_flops(std::int64_t nnzb, int R, int C, int N);  // 2 * nnzb * R * C * N
double dense_flops(int M, int N, int K);                            // 2 * M * N * K

// Flop per byte of the SOL byte model above.
double l2_intensity(int R, int C, int N, int element_bytes);

// min(dense_tflops, l2_bytes_per_s * intensity / 1e12); NaN inputs are ignored (if both are
// NaN the result is NaN).
double sol_tflops(double dense_tflops, double l2_bytes_per_s, int R, int C, int N, int element_bytes);

// Bytes a skinny-N kernel must move at least (see the header comment).
double minimum_bytes_moved(const BenchCase& c, std::int64_t nnzb);

// GB/s (1e9 bytes per second) from bytes and milliseconds.
double gigabytes_per_second(double bytes, double ms);

// The relative-norm bound a system's output must meet against the reference result: it allows
// for a different accumulation order and one rounding of the output (f16: 5e-3, bf16: 1e-2).
double correctness_tolerance(DType out);

}  // namespace bsrflow::bench
