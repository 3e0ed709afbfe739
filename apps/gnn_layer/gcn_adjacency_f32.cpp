#include "bsrflow/apps/gnn_layer/gcn_adjacency_f32.hpp"

#include <algorithm>

#include "bsrflow/apps/gnn_layer/gcn_rules.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/host_convert.hpp"

namespace bsrflow::gnn {

HostCsr<float> gcn_adjacency_f32(const EdgeList& g, const NormOptions& o, int n_pad) {
  check_edge_list(g);
  BSRFLOW_REQUIRE(n_pad >= g.nodes, Errc::invalid_argument,
                  "gcn_adjacency_f32: n_pad " + std::to_string(n_pad) + " < nodes " + std::to_string(g.nodes));
  const std::vector<float> w(g.weight.begin(), g.weight.end());
  const float* weight = w.empty() ? nullptr : w.data();
  const bool loops = o.adds_loops();
  HostCoo<float> coo;
  coo.rows = coo.cols = n_pad;
  for (std::size_t e = 0; e < g.src.size(); ++e) {  // matrix_coo_kernel
    coo.row_idx.push_back(g.dst[e]);
    coo.col_idx.push_back(g.src[e]);
    coo.values.push_back(rules::edge_value(g.src[e], g.dst[e], weight, static_cast<std::int64_t>(e), loops));
  }
  if (loops) {  // last_loop_kernel + loop_entries_kernel
    std::vector<int> last(static_cast<std::size_t>(g.nodes), -1);
    for (std::size_t e = 0; e < g.src.size(); ++e)
      if (g.src[e] == g.dst[e]) last[static_cast<std::size_t>(g.src[e])] = static_cast<int>(e);
    for (int i = 0; i < g.nodes; ++i) {
      coo.row_idx.push_back(i);
      coo.col_idx.push_back(i);
      coo.values.push_back(rules::loop_value(last[static_cast<std::size_t>(i)], weight, static_cast<float>(o.fill())));
    }
  }
  HostCsr<float> A = host::coo_to_csr(coo);  // CooToCsr's oracle, bit for bit
  if (o.normalize) {
    std::vector<float> dis(static_cast<std::size_t>(A.rows));
    for (int i = 0; i < A.rows; ++i) {  // inverse_sqrt_degree_kernel
      float deg = 0.0f;
      for (int k = A.row_ptr[static_cast<std::size_t>(i)]; k < A.row_ptr[static_cast<std::size_t>(i) + 1]; ++k)
        deg += A.values[static_cast<std::size_t>(k)];
      dis[static_cast<std::size_t>(i)] = rules::inverse_sqrt_degree(deg);
    }
    for (int i = 0; i < A.rows; ++i)  // normalise_kernel
      for (int k = A.row_ptr[static_cast<std::size_t>(i)]; k < A.row_ptr[static_cast<std::size_t>(i) + 1]; ++k) {
        float& v = A.values[static_cast<std::size_t>(k)];
        v = rules::normalised(dis[static_cast<std::size_t>(A.col_idx[static_cast<std::size_t>(k)])], v,
                              dis[static_cast<std::size_t>(i)]);
      }
  }
  return A;
}

}  // namespace bsrflow::gnn
