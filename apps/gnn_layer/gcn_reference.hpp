// CPU references of the GCN forward pass: H_{l+1} = act_l(A_hat (H_l W_l) + b_l), act = ReLU on
// every layer but the last (none on the last, so one layer is exactly PyG's GCNConv output).
// Matrices are row-major vectors; W_l is in_l x out_l, b_l has out_l entries.
#pragma once

#include <cstdint>
#include <vector>

#include "bsrflow/formats/csr.hpp"

namespace bsrflow::gnn {

struct GcnLayerWeights {
  int in = 0;
  int out = 0;
  std::vector<double> W;     // in x out, row-major
  std::vector<double> bias;  // out
};

// Widths of a --layers / --in / --hidden / --out stack: in -> hidden ... -> out.
std::vector<int> layer_widths(int layers, int in, int hidden, int out);

// Seeded weights with values exactly representable in f16 and bf16 (multiples of 1/64 in
// [-1, 1), bias in [-0.5, 0.5)), so the device gets the very values the reference uses.
// W scaled by 1/sqrt(in) would not be exact; instead values are small multiples of 2^-6.
std::vector<GcnLayerWeights> make_weights(const std::vector<int>& widths, std::uint64_t seed);

// Seeded features (n x width), multiples of 1/64 in [-1, 1): exact in f16 and bf16.
std::vector<double> make_features(int n, int width, std::uint64_t seed);

// The forward pass on a dense f64 A_hat (n x n, row = target). Small graphs.
std::vector<double> forward_dense(const std::vector<double>& A, int n, const std::vector<double>& X,
                                  const std::vector<GcnLayerWeights>& layers);

// The same on A_hat as CSR, accumulating in Real (double or float; float is the "f32 CSR
// reference" of large runs).
template <class Real>
std::vector<Real> forward_csr(const HostCsr<double>& A, const std::vector<double>& X,
                              const std::vector<GcnLayerWeights>& layers);

// ||a - b|| / ||b|| over the first n * width entries (0 when b is all zero and a == b).
double relative_error(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace bsrflow::gnn
