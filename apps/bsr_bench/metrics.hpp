// The numbers bsr_bench reports, as plain functions (unit-tested on the CPU).
//
// Effective rate: only stored blocks count, 2 * nnzb * R * C * N flops per product.
//
// Speed of light (SOL) of a case, in effective TFLOPS (docs/benchmarks/README.md, "sol_source"):
//  copy_only_probe  min(cuBLAS dense rate, the effective rate of bsrflow_sm90's copy-only probe)
//                   (both measured in this run): what the kernel's own loads allow.
//  l2_probe         where that probe cannot run: min(cuBLAS dense rate, L2 read bandwidth *
//                   intensity), with the byte model of one tile = one block row x a swath of
//                   tile_n = min(N, the tuned swath) columns; per stored R x C block it brings A's
//                   block and B's C x tile_n slice through L2 into shared memory for
//                   2*R*C*tile_n flops:
//                     intensity = 2*R*C*tile_n / ((R*C + C*tile_n) * sizeof(dtype))   flop/byte
//  copy_bandwidth   skinny (memory-bound) cases: the rate at which the minimum bytes would move
//                   at the device-to-device copy bandwidth of this run; % SOL = GB/s / copy GB/s.
//
// Minimum bytes of a product (the GB/s column): A's values, col_idx and row_ptr; the rows of B
// that stored blocks touch (touched block columns x C x N); all of C written once.
#pragma once

#include <cstdint>

#include "bsrflow/apps/bsr_bench/bench_case.hpp"

namespace bsrflow::bench {

// TFLOPS from a flop count and milliseconds (NaN when ms <= 0 or not finite).
double tflops(double flops, double ms);

double effective_flops(std::int64_t nnzb, int R, int C, int N);  // 2 * nnzb * R * C * N
double dense_flops(int M, int N, int K);                            // 2 * M * N * K

// The smaller of two rates, ignoring a NaN one (NaN when both are).
double min_finite(double a, double b);

// Flop per byte of the l2_probe byte model above.
double l2_intensity(int R, int C, int tile_n, int element_bytes);

// min_finite(dense_tflops, l2_bytes_per_s * intensity / 1e12): the l2_probe SOL.
double sol_tflops(double dense_tflops, double l2_bytes_per_s, int R, int C, int tile_n, int element_bytes);

// The copy_bandwidth SOL: flops / (bytes / copy_bytes_per_s), in TFLOPS.
double copy_bound_tflops(double flops, double bytes, double copy_bytes_per_s);

// Bytes a product must move at least (see the header comment).
double minimum_bytes_moved(const BenchCase& c, std::int64_t nnzb, int touched_block_cols);

// GB/s (1e9 bytes per second) from bytes and milliseconds.
double gigabytes_per_second(double bytes, double ms);

// The relative-norm bound a system's output must meet against the reference result: it allows
// for a different accumulation order and one rounding of the output (f16: 5e-3, bf16: 1e-2).
double correctness_tolerance(DType out);

}  // namespace bsrflow::bench
