// The GCN propagation matrix exactly as PyTorch Geometric's GCNConv builds it (gcn_norm and
// add_remaining_self_loops in torch_geometric; flow="source_to_target"):
//
//   normalize && add_self_loops (the default):
//     1. every self loop of the input is taken out; node i gets ONE loop whose weight is the
//        input's loop weight if it had one (the last one in input order when it had several:
//        PyG writes loop_attr[i] = w for each, which on the CPU leaves the last; PyG calls the
//        order undefined), else `fill` (1, or 2 with improved);
//     2. deg[i] = sum of the weights of the edges whose TARGET is i (loops included);
//     3. an edge j -> i of weight w becomes norm = deg^-1/2[j] * w * deg^-1/2[i], with
//        deg^-1/2 = 0 where deg == 0 (PyG's masked_fill of inf; a node whose incoming weights
//        sum to 0 contributes and receives nothing);
//   normalize && !add_self_loops: steps 2 and 3 on the edges as they are (loops kept, any number);
//   !normalize: the raw weights, no loops added (GCNConv adds loops only inside gcn_norm).
// out[i] = sum over edges j -> i of norm * (XW)[j]: the matrix's row index is the TARGET, so it
// is the transpose of the edge list's adjacency. Duplicate edges are summed (PyG's scatter-add).
#pragma once

#include <vector>

#include "bsrflow/apps/gnn_layer/edge_list.hpp"
#include "bsrflow/formats/csr.hpp"

namespace bsrflow::gnn {

struct NormOptions {
  bool normalize = true;       // --no-normalize clears it
  bool add_self_loops = true;  // --no-self-loops clears it
  bool improved = false;       // --improved: loop fill value 2
  double fill() const { return improved ? 2.0 : 1.0; }
  bool adds_loops() const { return normalize && add_self_loops; }
};

// Weight of the loop each node gets in step 1 (adds_loops() only): fill, or the last input loop.
std::vector<double> self_loop_weights(const EdgeList& g, const NormOptions& o);

// deg^-1/2 per node as PyG computes it (step 2 and the inf -> 0 rule), in f64.
std::vector<double> inverse_sqrt_degrees(const EdgeList& g, const NormOptions& o);

// A_hat as a CSR matrix (nodes x nodes, row = target, duplicates summed, sorted columns), f64.
HostCsr<double> gcn_adjacency_csr(const EdgeList& g, const NormOptions& o);

// The same matrix dense, row-major nodes x nodes, computed straight from the formulas above
// (independent of the CSR path, which the tests compare it with). Small graphs only.
std::vector<double> gcn_adjacency_dense(const EdgeList& g, const NormOptions& o);

}  // namespace bsrflow::gnn
