#include "bsrflow/apps/bsr_bench/system_registry.hpp"

#include <limits>

namespace bsrflow::bench {

double PreparedRun::prep_ms() const { return std::numeric_limits<double>::quiet_NaN(); }

std::vector<std::unique_ptr<System>> make_all_systems() {
  std::vector<std::unique_ptr<System>> systems;
  // bsrflow paths first: the reference kernel (the oracle), then the Hopper kernel (heuristic,
  // then autotuned) and its copy-only speed-of-light probe, then the skinny kernel (N <= 64).
  systems.push_back(make_reference_system());
  systems.push_back(make_sm90_system());
  systems.push_back(make_sm90_tuned_system());
  systems.push_back(make_sm90_copy_probe_system());
  systems.push_back(make_skinny_system());  // N <= 64 only
  // cuBLAS dense (the "vs dense" denominator, then its rate on random data), then the sparse peers.
  systems.push_back(make_cublas_dense_system());
  systems.push_back(make_cublas_dense_random_system());
  systems.push_back(make_cusparse_bsr_system());
  systems.push_back(make_cusparse_blocked_ell_system());
  return systems;
}

std::vector<std::string> system_names() {
  std::vector<std::string> names;
  for (const auto& s : make_all_systems()) names.push_back(s->name());
  return names;
}

}  // namespace bsrflow::bench
