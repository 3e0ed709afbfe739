#include "bsrflow/apps/gnn_layer/reorder.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "bsrflow/core/error.hpp"

namespace bsrflow::gnn {

Reorder parse_reorder(const std::string& text) {
  if (text == "none") return Reorder::none;
  if (text == "rcm") return Reorder::rcm;
  if (text == "community") return Reorder::community;
  BSRFLOW_FAIL(Errc::invalid_argument, "--reorder: expected none, rcm or community, got '" + text + "'");
}

const char* reorder_name(Reorder r) {
  switch (r) {
    case Reorder::rcm: return "rcm";
    case Reorder::community: return "community";
    case Reorder::none: break;
  }
  return "none";
}

std::vector<int> rcm_order(const EdgeList& g) {
  check_edge_list(g);
  const auto n = static_cast<std::size_t>(g.nodes);
  // Symmetric adjacency without loops, as CSR (duplicates kept: they do not change the walk).
  std::vector<int> ptr(n + 1, 0);
  for (std::size_t e = 0; e < g.src.size(); ++e)
    if (g.src[e] != g.dst[e]) {
      ++ptr[static_cast<std::size_t>(g.src[e]) + 1];
      ++ptr[static_cast<std::size_t>(g.dst[e]) + 1];
    }
  std::partial_sum(ptr.begin(), ptr.end(), ptr.begin());
  std::vector<int> adj(static_cast<std::size_t>(ptr[n]));
  std::vector<int> fill(ptr.begin(), ptr.end() - 1);
  for (std::size_t e = 0; e < g.src.size(); ++e)
    if (g.src[e] != g.dst[e]) {
      adj[static_cast<std::size_t>(fill[static_cast<std::size_t>(g.src[e])]++)] = g.dst[e];
      adj[static_cast<std::size_t>(fill[static_cast<std::size_t>(g.dst[e])]++)] = g.src[e];
    }
  std::vector<int> degree(n);
  for (std::size_t v = 0; v < n; ++v) degree[v] = ptr[v + 1] - ptr[v];
  const auto by_degree = [&](int a, int b) {
    return degree[static_cast<std::size_t>(a)] != degree[static_cast<std::size_t>(b)]
               ? degree[static_cast<std::size_t>(a)] < degree[static_cast<std::size_t>(b)]
               : a < b;
  };
  // Component starts: nodes by increasing degree.
  std::vector<int> starts(n);
  std::iota(starts.begin(), starts.end(), 0);
  std::stable_sort(starts.begin(), starts.end(), by_degree);
  std::vector<char> seen(n, 0);
  std::vector<int> order;
  order.reserve(n);
  std::vector<int> next;
  for (int s : starts) {
    if (seen[static_cast<std::size_t>(s)]) continue;
    seen[static_cast<std::size_t>(s)] = 1;
    std::size_t head = order.size();
    order.push_back(s);
    while (head < order.size()) {
      const int v = order[head++];
      next.clear();
      for (int k = ptr[static_cast<std::size_t>(v)]; k < ptr[static_cast<std::size_t>(v) + 1]; ++k) {
        const int w = adj[static_cast<std::size_t>(k)];
        if (!seen[static_cast<std::size_t>(w)]) {
          seen[static_cast<std::size_t>(w)] = 1;
          next.push_back(w);
        }
      }
      std::sort(next.begin(), next.end(), by_degree);
      order.insert(order.end(), next.begin(), next.end());
    }
  }
  std::reverse(order.begin(), order.end());
  return order;
}

std::vector<int> community_order(const EdgeList& g, const std::vector<int>& labels) {
  BSRFLOW_REQUIRE(labels.size() == static_cast<std::size_t>(g.nodes), Errc::invalid_argument,
                  "community order: " + std::to_string(labels.size()) + " labels for " + std::to_string(g.nodes) +
                      " nodes");
  for (std::size_t v = 0; v < labels.size(); ++v)
    BSRFLOW_REQUIRE(labels[v] >= 0, Errc::invalid_argument,
                    "community order: node " + std::to_string(v) + " has negative label " + std::to_string(labels[v]));
  std::vector<int> order(labels.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return labels[static_cast<std::size_t>(a)] < labels[static_cast<std::size_t>(b)];
  });
  return order;
}

std::vector<int> inverse_permutation(const std::vector<int>& order) {
  std::vector<int> inv(order.size(), -1);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const int v = order[k];
    BSRFLOW_REQUIRE(v >= 0 && static_cast<std::size_t>(v) < order.size() && inv[static_cast<std::size_t>(v)] < 0,
                    Errc::invalid_argument,
                    "not a permutation: entry " + std::to_string(k) + " is " + std::to_string(v) +
                        (v >= 0 && static_cast<std::size_t>(v) < order.size() ? " (repeated)" : " (out of range)"));
    inv[static_cast<std::size_t>(v)] = static_cast<int>(k);
  }
  return inv;
}

EdgeList relabel(const EdgeList& g, const std::vector<int>& new_of_old) {
  check_edge_list(g);
  BSRFLOW_REQUIRE(new_of_old.size() == static_cast<std::size_t>(g.nodes), Errc::invalid_argument,
                  "relabel: permutation of " + std::to_string(new_of_old.size()) + " for " + std::to_string(g.nodes) +
                      " nodes");
  EdgeList out = g;
  for (std::size_t e = 0; e < g.src.size(); ++e) {
    out.src[e] = new_of_old[static_cast<std::size_t>(g.src[e])];
    out.dst[e] = new_of_old[static_cast<std::size_t>(g.dst[e])];
  }
  return out;
}

int bandwidth(const EdgeList& g) {
  int b = 0;
  for (std::size_t e = 0; e < g.src.size(); ++e) b = std::max(b, std::abs(g.src[e] - g.dst[e]));
  return b;
}

}  // namespace bsrflow::gnn
