// The GPU's construction of A_hat (build_gcn_adjacency in gcn_device.hpp), step for step on the
// host in f32: the same COO in the same order (edges, then one loop per node), the conversion's
// bit-exact CPU oracle (host::coo_to_csr), the same per-entry rules (gcn_rules.hpp), degrees
// summed row by row in the same order. The CPU tests hold it against the f64 PyG normalisation
// (gcn_norm.hpp); the GPU tests require the device's matrix to equal it bit for bit.
#pragma once

#include "bsrflow/apps/gnn_layer/edge_list.hpp"
#include "bsrflow/apps/gnn_layer/gcn_norm.hpp"
#include "bsrflow/formats/csr.hpp"

namespace bsrflow::gnn {

// n_pad >= g.nodes: the matrix shape (rows past the nodes are empty). Weights are rounded to f32
// first, as upload_edges does.
HostCsr<float> gcn_adjacency_f32(const EdgeList& g, const NormOptions& o, int n_pad);

}  // namespace bsrflow::gnn
