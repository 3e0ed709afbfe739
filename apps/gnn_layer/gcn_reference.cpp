#include "bsrflow/apps/gnn_layer/gcn_reference.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "bsrflow/core/error.hpp"

namespace bsrflow::gnn {
namespace {

// Multiples of 2^-6 in [-64, 64) * 2^-6 * scale: 7 significant bits, exact in f16 and bf16.
double small_dyadic(std::mt19937_64& rng, double scale) {
  const auto k = static_cast<int>(rng() % 128) - 64;
  return k * 0x1.0p-6 * scale;
}

// Y (n x out) = X (n x in) W (in x out), in Real.
template <class Real>
std::vector<Real> times_w(const std::vector<Real>& X, int n, const GcnLayerWeights& w) {
  std::vector<Real> Y(static_cast<std::size_t>(n) * static_cast<std::size_t>(w.out), Real(0));
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i)
    for (std::size_t k = 0; k < static_cast<std::size_t>(w.in); ++k) {
      const Real x = X[i * static_cast<std::size_t>(w.in) + k];
      if (x == Real(0)) continue;
      for (std::size_t j = 0; j < static_cast<std::size_t>(w.out); ++j)
        Y[i * static_cast<std::size_t>(w.out) + j] += x * static_cast<Real>(w.W[k * static_cast<std::size_t>(w.out) + j]);
    }
  return Y;
}

template <class Real>
void bias_act(std::vector<Real>& H, const GcnLayerWeights& w, bool relu) {
  const auto out = static_cast<std::size_t>(w.out);
  for (std::size_t e = 0; e < H.size(); ++e) {
    const Real v = H[e] + static_cast<Real>(w.bias[e % out]);
    H[e] = relu ? std::max(v, Real(0)) : v;
  }
}

void check_layers(int n, const std::vector<double>& X, const std::vector<GcnLayerWeights>& layers) {
  BSRFLOW_REQUIRE(!layers.empty(), Errc::invalid_argument, "GCN forward: no layers");
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const auto& w = layers[l];
    BSRFLOW_REQUIRE(w.W.size() == static_cast<std::size_t>(w.in) * static_cast<std::size_t>(w.out) &&
                        w.bias.size() == static_cast<std::size_t>(w.out) && (l == 0 || layers[l - 1].out == w.in),
                    Errc::invalid_argument, "GCN forward: layer " + std::to_string(l) + " has inconsistent shapes");
  }
  BSRFLOW_REQUIRE(X.size() == static_cast<std::size_t>(n) * static_cast<std::size_t>(layers[0].in),
                  Errc::invalid_argument, "GCN forward: features are not n x in");
}

}  // namespace

std::vector<int> layer_widths(int layers, int in, int hidden, int out) {
  BSRFLOW_REQUIRE(layers >= 1 && in >= 1 && hidden >= 1 && out >= 1, Errc::invalid_argument,
                  "--layers, --in, --hidden and --out must all be positive");
  std::vector<int> w{in};
  for (int l = 1; l < layers; ++l) w.push_back(hidden);
  w.push_back(out);
  return w;
}

std::vector<GcnLayerWeights> make_weights(const std::vector<int>& widths, std::uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  std::vector<GcnLayerWeights> layers;
  for (std::size_t l = 0; l + 1 < widths.size(); ++l) {
    GcnLayerWeights w;
    w.in = widths[l];
    w.out = widths[l + 1];
    w.W.resize(static_cast<std::size_t>(w.in) * static_cast<std::size_t>(w.out));
    // Scale by a power of two near 1/sqrt(in) so activations stay O(1) through the layers.
    const double scale = std::ldexp(1.0, -static_cast<int>(std::lround(0.5 * std::log2(std::max(1, w.in)))));
    for (double& v : w.W) v = small_dyadic(rng, scale);
    w.bias.resize(static_cast<std::size_t>(w.out));
    for (double& v : w.bias) v = small_dyadic(rng, 0.5);
    layers.push_back(std::move(w));
  }
  return layers;
}

std::vector<double> make_features(int n, int width, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> X(static_cast<std::size_t>(n) * static_cast<std::size_t>(width));
  for (double& v : X) v = small_dyadic(rng, 1.0);
  return X;
}

std::vector<double> forward_dense(const std::vector<double>& A, int n, const std::vector<double>& X,
                                  const std::vector<GcnLayerWeights>& layers) {
  check_layers(n, X, layers);
  BSRFLOW_REQUIRE(A.size() == static_cast<std::size_t>(n) * static_cast<std::size_t>(n), Errc::invalid_argument,
                  "forward_dense: A is not n x n");
  std::vector<double> H = X;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const auto& w = layers[l];
    const std::vector<double> XW = times_w(H, n, w);
    const auto out = static_cast<std::size_t>(w.out);
    H.assign(static_cast<std::size_t>(n) * out, 0.0);
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i)
      for (std::size_t j = 0; j < static_cast<std::size_t>(n); ++j) {
        const double a = A[i * static_cast<std::size_t>(n) + j];
        if (a == 0) continue;
        for (std::size_t c = 0; c < out; ++c) H[i * out + c] += a * XW[j * out + c];
      }
    bias_act(H, w, l + 1 < layers.size());
  }
  return H;
}

template <class Real>
std::vector<Real> forward_csr(const HostCsr<double>& A, const std::vector<double>& X,
                              const std::vector<GcnLayerWeights>& layers) {
  const int n = A.rows;
  check_layers(n, X, layers);
  BSRFLOW_REQUIRE(A.rows == A.cols && A.row_ptr.size() == static_cast<std::size_t>(n) + 1, Errc::invalid_argument,
                  "forward_csr: A is not a square CSR matrix");
  std::vector<Real> H(X.begin(), X.end());
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const auto& w = layers[l];
    const std::vector<Real> XW = times_w(H, n, w);
    const auto out = static_cast<std::size_t>(w.out);
    H.assign(static_cast<std::size_t>(n) * out, Real(0));
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i)
      for (int k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) {
        const auto j = static_cast<std::size_t>(A.col_idx[static_cast<std::size_t>(k)]);
        const auto a = static_cast<Real>(A.values[static_cast<std::size_t>(k)]);
        for (std::size_t c = 0; c < out; ++c) H[i * out + c] += a * XW[j * out + c];
      }
    bias_act(H, w, l + 1 < layers.size());
  }
  return H;
}

template std::vector<double> forward_csr<double>(const HostCsr<double>&, const std::vector<double>&,
                                                 const std::vector<GcnLayerWeights>&);
template std::vector<float> forward_csr<float>(const HostCsr<double>&, const std::vector<double>&,
                                               const std::vector<GcnLayerWeights>&);

double relative_error(const std::vector<double>& a, const std::vector<double>& b) {
  BSRFLOW_REQUIRE(a.size() == b.size(), Errc::invalid_argument, "relative_error: sizes differ");
  double num = 0;
  double den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += (a[i] - b[i]) * (a[i] - b[i]);
    den += b[i] * b[i];
  }
  if (den == 0) return num == 0 ? 0.0 : INFINITY;
  return std::sqrt(num / den);
}

}  // namespace bsrflow::gnn
