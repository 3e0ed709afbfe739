// What `gnn_layer --dump DIR` writes for pyg_compare.py, as plain text:
//   edges.txt        "# ..." then "src dst weight" per edge (0-based, the app's node order)
//   features.txt     nodes x in, one row per line
//   weightL.txt      in_L x out_L;  biasL.txt: one line of out_L values
//   output.txt       nodes x out: the app's result (f16/bf16 values as numbers)
//   meta.txt         "key value" lines: nodes, layers, normalize, add_self_loops, improved, dtype
// Numbers are written with 17 significant digits (every double reads back exactly).
#pragma once

#include <string>
#include <vector>

#include "bsrflow/apps/gnn_layer/edge_list.hpp"
#include "bsrflow/apps/gnn_layer/gcn_norm.hpp"
#include "bsrflow/apps/gnn_layer/gcn_reference.hpp"

namespace bsrflow::gnn {

// Creates `dir` if needed. Errc::io when a file cannot be written.
void write_dump(const std::string& dir, const EdgeList& g, const std::vector<double>& X,
                const std::vector<GcnLayerWeights>& layers, const std::vector<double>& output, const NormOptions& norm,
                const std::string& dtype);

// Row-major rows x cols numbers as written above (Errc::io, Errc::parse on a short file).
std::vector<double> read_dump_matrix(const std::string& path, int rows, int cols);

}  // namespace bsrflow::gnn
