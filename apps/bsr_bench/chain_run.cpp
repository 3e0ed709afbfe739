#include "bsrflow/apps/bsr_bench/chain_run.hpp"

#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

ChainRun::ChainRun(std::vector<std::unique_ptr<PreparedRun>> links) : owned_(std::move(links)) {
  BSRFLOW_REQUIRE(owned_.size() >= 2, Errc::invalid_argument,
                  "a chain needs at least two links (got " + std::to_string(owned_.size()) + ")");
  for (std::size_t i = 1; i <= owned_.size(); ++i) {
    PreparedRun* link = owned_[i % owned_.size()].get();
    BSRFLOW_REQUIRE(link != nullptr, Errc::invalid_argument, "chain link " + std::to_string(i % owned_.size()) + " is null");
    order_.push_back(link);
  }
  std::vector<PreparedRun*> baselines;
  for (PreparedRun* link : order_)
    if (PreparedRun* b = link->baseline()) baselines.push_back(b);
  // Every link is the same system on the same pattern: all have a baseline or none has.
  BSRFLOW_REQUIRE(baselines.empty() || baselines.size() == order_.size(), Errc::invalid_argument,
                  "chain links disagree on having a baseline");
  if (!baselines.empty()) baseline_.reset(new ChainRun(std::move(baselines)));
}

ChainRun::ChainRun(std::vector<PreparedRun*> order) : order_(std::move(order)) {}

void ChainRun::run(cudaStream_t stream) {
  for (PreparedRun* link : order_) link->run(stream);
}

}  // namespace bsrflow::bench
