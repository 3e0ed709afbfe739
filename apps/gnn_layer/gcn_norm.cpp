#include "bsrflow/apps/gnn_layer/gcn_norm.hpp"

#include <cmath>

#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/host_convert.hpp"

namespace bsrflow::gnn {
namespace {

bool is_loop(const EdgeList& g, std::size_t e) { return g.src[e] == g.dst[e]; }

// Visits the edges of the propagation matrix as (target, source, weight) in a fixed order: the
// input edges (minus the loops when loops are re-added), then one loop per node.
template <class F>
void for_each_matrix_edge(const EdgeList& g, const NormOptions& o, F&& f) {
  const bool replace_loops = o.adds_loops();
  for (std::size_t e = 0; e < g.src.size(); ++e) {
    if (replace_loops && is_loop(g, e)) continue;
    f(g.dst[e], g.src[e], g.weight_of(static_cast<std::int64_t>(e)));
  }
  if (replace_loops) {
    const std::vector<double> loops = self_loop_weights(g, o);
    for (int i = 0; i < g.nodes; ++i) f(i, i, loops[static_cast<std::size_t>(i)]);
  }
}

}  // namespace

std::vector<double> self_loop_weights(const EdgeList& g, const NormOptions& o) {
  check_edge_list(g);
  std::vector<double> w(static_cast<std::size_t>(g.nodes), o.fill());
  for (std::size_t e = 0; e < g.src.size(); ++e)
    if (is_loop(g, e)) w[static_cast<std::size_t>(g.src[e])] = g.weight_of(static_cast<std::int64_t>(e));  // last wins
  return w;
}

std::vector<double> inverse_sqrt_degrees(const EdgeList& g, const NormOptions& o) {
  check_edge_list(g);
  std::vector<double> deg(static_cast<std::size_t>(g.nodes), 0.0);
  for_each_matrix_edge(g, o, [&](int target, int, double w) { deg[static_cast<std::size_t>(target)] += w; });
  for (double& d : deg) {
    const double r = 1.0 / std::sqrt(d);  // deg 0 -> inf -> 0; negative deg -> NaN, as torch's pow(-0.5)
    d = std::isinf(r) ? 0.0 : r;
  }
  return deg;
}

HostCsr<double> gcn_adjacency_csr(const EdgeList& g, const NormOptions& o) {
  check_edge_list(g);
  HostCoo<double> coo;
  coo.rows = g.nodes;
  coo.cols = g.nodes;
  std::vector<double> dis;
  if (o.normalize) dis = inverse_sqrt_degrees(g, o);
  for_each_matrix_edge(g, o, [&](int target, int source, double w) {
    coo.row_idx.push_back(target);
    coo.col_idx.push_back(source);
    coo.values.push_back(o.normalize ? dis[static_cast<std::size_t>(source)] * w * dis[static_cast<std::size_t>(target)]
                                     : w);
  });
  return host::coo_to_csr(coo);  // sorts, sums duplicates
}

std::vector<double> gcn_adjacency_dense(const EdgeList& g, const NormOptions& o) {
  check_edge_list(g);
  const auto n = static_cast<std::size_t>(g.nodes);
  BSRFLOW_REQUIRE(n <= 8192, Errc::invalid_argument,
                  "gcn_adjacency_dense: " + std::to_string(n) + " nodes is too many for a dense reference");
  // Dense (A + loops), row = target, straight from the definition.
  std::vector<double> a(n * n, 0.0);
  std::vector<double> loop(n, 0.0);
  std::vector<bool> has_loop(n, false);
  for (std::size_t e = 0; e < g.src.size(); ++e) {
    const auto s = static_cast<std::size_t>(g.src[e]);
    const auto t = static_cast<std::size_t>(g.dst[e]);
    const double w = g.weight_of(static_cast<std::int64_t>(e));
    if (s == t && o.adds_loops()) {
      loop[s] = w;
      has_loop[s] = true;
    } else {
      a[t * n + s] += w;
    }
  }
  if (o.adds_loops())
    for (std::size_t i = 0; i < n; ++i) a[i * n + i] += has_loop[i] ? loop[i] : o.fill();
  if (!o.normalize) return a;
  std::vector<double> dis(n);
  for (std::size_t i = 0; i < n; ++i) {
    double deg = 0;
    for (std::size_t j = 0; j < n; ++j) deg += a[i * n + j];
    dis[i] = deg == 0 ? 0.0 : 1.0 / std::sqrt(deg);
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) a[i * n + j] *= dis[i] * dis[j];
  return a;
}

}  // namespace bsrflow::gnn
