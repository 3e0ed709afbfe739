// gnn_layer's command line. Graph: --graph FILE (SNAP text or .mtx; --one-based, --undirected)
// or --gen sbm|rmat|karate (--nodes, --communities, --avg-degree, --intra, --scale,
// --edge-factor, --seed). Semantics (PyG GCNConv): --improved, --no-normalize, --no-self-loops.
// Layout: --reorder none|rcm|community, --path auto|bsr|csr, --block N, --no-split. Model:
// --layers, --in, --hidden, --out, --dtype f16|bf16. Timing: --iters, --warmup, --no-cold-l2.
// Output: --no-peer, --json, --csv, --dump DIR. --help.
#pragma once

#include <cstdint>
#include <string>

#include "bsrflow/apps/common/timing.hpp"
#include "bsrflow/apps/gnn_layer/gcn_norm.hpp"
#include "bsrflow/apps/gnn_layer/generators.hpp"
#include "bsrflow/apps/gnn_layer/reorder.hpp"
#include "bsrflow/core/dtype.hpp"

namespace bsrflow::gnn {

enum class GraphSource { file, sbm, rmat, karate };
enum class PathRequest { automatic, bsr, csr };

struct GnnOptions {
  bool help = false;
  GraphSource source = GraphSource::sbm;
  std::string graph_path;
  bool one_based = false;
  bool undirected = false;  // add reverse edges to a file's edge list
  SbmParams sbm;
  RmatParams rmat;
  NormOptions norm;
  Reorder reorder = Reorder::community;  // the default for sbm; none for other sources
  bool reorder_given = false;
  PathRequest path = PathRequest::automatic;
  int block = 0;  // 0: chosen from the fill
  bool split = true;
  int layers = 2;
  int in = 128;
  int hidden = 128;
  int out = 64;
  DType dtype = DType::f16;
  std::uint64_t seed = 1;  // features and weights
  bench::TimingConfig timing;
  bool peer = true;
  std::string json_path;
  std::string csv_path;
  std::string dump_dir;
};

// Throws Error(invalid_argument) naming the offending option.
GnnOptions parse_gnn_options(int argc, const char* const* argv);
std::string gnn_help();
const char* source_name(GraphSource s);

}  // namespace bsrflow::gnn
