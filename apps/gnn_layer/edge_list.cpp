#include "bsrflow/apps/gnn_layer/edge_list.hpp"

#include <cmath>
#include <fstream>
#include <istream>
#include <limits>
#include <ostream>
#include <sstream>

#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/matrix_market.hpp"

namespace bsrflow::gnn {
namespace {

[[noreturn]] void parse_error(const std::string& name, std::int64_t line, const std::string& what) {
  BSRFLOW_FAIL(Errc::parse, name + ":" + std::to_string(line) + ": " + what);
}

// A node id token: a non-negative integer that fits in int after the base shift.
int parse_id(const std::string& token, bool one_based, const std::string& name, std::int64_t line) {
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(token, &used);
  } catch (const std::exception&) {
    parse_error(name, line, "node id '" + token + "' is not an integer");
  }
  if (used != token.size()) parse_error(name, line, "node id '" + token + "' is not an integer");
  const long long lowest = one_based ? 1 : 0;
  if (v < lowest)
    parse_error(name, line, "node id " + token + " is below " + std::to_string(lowest) +
                                (one_based ? " (ids are 1-based)" : " (ids are 0-based)"));
  v -= lowest;
  if (v >= std::numeric_limits<int>::max()) parse_error(name, line, "node id " + token + " does not fit in int32");
  return static_cast<int>(v);
}

double parse_weight(const std::string& token, const std::string& name, std::int64_t line) {
  std::size_t used = 0;
  double w = 0;
  try {
    w = std::stod(token, &used);
  } catch (const std::exception&) {
    parse_error(name, line, "edge weight '" + token + "' is not a number");
  }
  if (used != token.size()) parse_error(name, line, "edge weight '" + token + "' is not a number");
  if (!std::isfinite(w)) parse_error(name, line, "edge weight '" + token + "' is not finite");
  return w;
}

}  // namespace

EdgeList read_snap_edges(std::istream& in, const std::string& name, const EdgeReadOptions& options) {
  EdgeList g;
  std::string text;
  std::int64_t line = 0;
  int largest = -1;
  bool any_weight = false;
  bool any_unweighted = false;
  while (std::getline(in, text)) {
    ++line;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    std::istringstream fields(text);
    std::string a, b, w, extra;
    if (!(fields >> a) || a[0] == '#' || a[0] == '%') continue;  // blank or comment
    if (!(fields >> b)) parse_error(name, line, "expected 'src dst [weight]', found one field");
    const bool has_weight = static_cast<bool>(fields >> w);
    if (fields >> extra) parse_error(name, line, "expected 'src dst [weight]', found more than three fields");
    const int s = parse_id(a, options.one_based, name, line);
    const int d = parse_id(b, options.one_based, name, line);
    if (has_weight) {
      if (any_unweighted) parse_error(name, line, "this edge has a weight but earlier ones do not");
      any_weight = true;
      g.weight.push_back(parse_weight(w, name, line));
    } else {
      if (any_weight) parse_error(name, line, "this edge has no weight but earlier ones do");
      any_unweighted = true;
    }
    g.src.push_back(s);
    g.dst.push_back(d);
    largest = std::max(largest, std::max(s, d));
  }
  g.nodes = std::max(largest + 1, options.min_nodes);
  return g;
}

EdgeList read_edge_file(const std::string& path, const EdgeReadOptions& options) {
  const bool mtx = path.size() >= 4 && path.compare(path.size() - 4, 4, ".mtx") == 0;
  if (mtx) {
    const HostCoo<double> coo = read_matrix_market<double>(path);
    BSRFLOW_REQUIRE(coo.rows == coo.cols, Errc::invalid_argument,
                    path + ": an adjacency matrix must be square, this one is " + std::to_string(coo.rows) + " x " +
                        std::to_string(coo.cols));
    EdgeList g;
    g.nodes = std::max(coo.rows, options.min_nodes);
    g.src = coo.row_idx;
    g.dst = coo.col_idx;
    g.weight = coo.values;
    return g;
  }
  std::ifstream in(path);
  BSRFLOW_REQUIRE(in.good(), Errc::io, "cannot open '" + path + "' for reading");
  return read_snap_edges(in, path, options);
}

void add_reverse_edges(EdgeList& g) {
  const std::int64_t m = g.edges();
  for (std::int64_t e = 0; e < m; ++e) {
    const auto i = static_cast<std::size_t>(e);
    if (g.src[i] == g.dst[i]) continue;
    g.src.push_back(g.dst[i]);
    g.dst.push_back(g.src[i]);
    if (g.weighted()) g.weight.push_back(g.weight[i]);
  }
}

void check_edge_list(const EdgeList& g) {
  BSRFLOW_REQUIRE(g.nodes >= 0, Errc::invalid_argument, "negative node count " + std::to_string(g.nodes));
  BSRFLOW_REQUIRE(g.src.size() == g.dst.size(), Errc::invalid_argument,
                  "edge list: " + std::to_string(g.src.size()) + " sources but " + std::to_string(g.dst.size()) +
                      " targets");
  BSRFLOW_REQUIRE(g.weight.empty() || g.weight.size() == g.src.size(), Errc::invalid_argument,
                  "edge list: " + std::to_string(g.weight.size()) + " weights for " + std::to_string(g.src.size()) +
                      " edges");
  for (std::size_t e = 0; e < g.src.size(); ++e) {
    const int s = g.src[e];
    const int d = g.dst[e];
    BSRFLOW_REQUIRE(s >= 0 && s < g.nodes && d >= 0 && d < g.nodes, Errc::invalid_argument,
                    "edge " + std::to_string(e) + ": " + std::to_string(s) + " -> " + std::to_string(d) +
                        " has a node outside [0, " + std::to_string(g.nodes) + ")");
  }
}

void write_edge_list(std::ostream& out, const EdgeList& g) {
  out << "# " << g.nodes << " nodes, " << g.edges() << " directed edges: src dst weight (0-based)\n";
  out.precision(17);
  for (std::int64_t e = 0; e < g.edges(); ++e) {
    const auto i = static_cast<std::size_t>(e);
    out << g.src[i] << ' ' << g.dst[i] << ' ' << g.weight_of(e) << '\n';
  }
}

}  // namespace bsrflow::gnn
