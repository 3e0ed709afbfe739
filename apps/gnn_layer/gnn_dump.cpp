#include "bsrflow/apps/gnn_layer/gnn_dump.hpp"

#include <filesystem>
#include <fstream>

#include "bsrflow/core/error.hpp"

namespace bsrflow::gnn {
namespace {

std::ofstream open_for_writing(const std::string& path) {
  std::ofstream out(path);
  BSRFLOW_REQUIRE(out.good(), Errc::io, "cannot open '" + path + "' for writing");
  out.precision(17);  // round-trips every double
  return out;
}

void write_matrix(const std::string& path, const std::vector<double>& v, int rows, int cols) {
  BSRFLOW_REQUIRE(v.size() >= static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols), Errc::invalid_argument,
                  "write_dump: " + path + " needs " + std::to_string(rows) + " x " + std::to_string(cols) + " values");
  std::ofstream out = open_for_writing(path);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j)
      out << (j ? " " : "") << v[static_cast<std::size_t>(i) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(j)];
    out << '\n';
  }
  BSRFLOW_REQUIRE(out.good(), Errc::io, "write to '" + path + "' failed");
}

}  // namespace

void write_dump(const std::string& dir, const EdgeList& g, const std::vector<double>& X,
                const std::vector<GcnLayerWeights>& layers, const std::vector<double>& output, const NormOptions& norm,
                const std::string& dtype) {
  BSRFLOW_REQUIRE(!layers.empty(), Errc::invalid_argument, "write_dump: no layers");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  BSRFLOW_REQUIRE(!ec, Errc::io, "cannot create directory '" + dir + "': " + ec.message());
  const std::string d = dir + "/";
  {
    std::ofstream out = open_for_writing(d + "edges.txt");
    write_edge_list(out, g);
  }
  write_matrix(d + "features.txt", X, g.nodes, layers[0].in);
  for (std::size_t l = 0; l < layers.size(); ++l) {
    write_matrix(d + "weight" + std::to_string(l) + ".txt", layers[l].W, layers[l].in, layers[l].out);
    write_matrix(d + "bias" + std::to_string(l) + ".txt", layers[l].bias, 1, layers[l].out);
  }
  write_matrix(d + "output.txt", output, g.nodes, layers.back().out);
  std::ofstream meta = open_for_writing(d + "meta.txt");
  meta << "nodes " << g.nodes << "\nlayers " << layers.size() << "\nnormalize " << int{norm.normalize}
       << "\nadd_self_loops " << int{norm.add_self_loops} << "\nimproved " << int{norm.improved} << "\ndtype " << dtype
       << "\n";
}

std::vector<double> read_dump_matrix(const std::string& path, int rows, int cols) {
  std::ifstream in(path);
  BSRFLOW_REQUIRE(in.good(), Errc::io, "cannot open '" + path + "' for reading");
  std::vector<double> v(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
  for (double& x : v) BSRFLOW_REQUIRE(static_cast<bool>(in >> x), Errc::parse, path + ": fewer values than " +
                                                                                     std::to_string(v.size()));
  return v;
}

}  // namespace bsrflow::gnn
