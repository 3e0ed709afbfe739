// A chain of products for --chain L (BenchCase::chain): L prepared runs of one system, one per
// set of weights (A's values on A's pattern), enqueued back to back on one stream as one timed
// run, as an LLM decode step launches its layers. What a chain shows that a single launch after
// an L2 flush cannot: launch gaps, overlap between consecutive kernels (programmatic dependent
// launch lets the next product's set-up run under the previous one's tail), and clocks under
// back-to-back work. The runner divides the chain's times by L: figures are per product.
#pragma once

#include <memory>
#include <vector>

#include "bsrflow/apps/bsr_bench/system.hpp"

namespace bsrflow::bench {

class ChainRun : public PreparedRun {
 public:
  // links[0] is the case's own product (the weights the reference result was computed with); it
  // runs last, so that C after a chain is that product: a chain whose links overlap wrongly (an
  // earlier link's stores landing after a later one's) fails the runner's check. The other links
  // are the same plan on other weights; their own results are overwritten, not checked.
  // Throws Error(invalid_argument) for fewer than two links or a null one.
  explicit ChainRun(std::vector<std::unique_ptr<PreparedRun>> links);

  void run(cudaStream_t stream) override;
  std::size_t length() const { return order_.size(); }
  // What the case's own product reports (prep_ms: the one-time cost of one link).
  double prep_ms() const override { return order_.back()->prep_ms(); }
  std::string note() const override { return order_.back()->note(); }
  std::string config() const override { return order_.back()->config(); }
  // The links' baselines as a chain of the same order; nullptr when the links have none.
  PreparedRun* baseline() override { return baseline_.get(); }

 private:
  explicit ChainRun(std::vector<PreparedRun*> order);  // a chain of runs owned elsewhere

  std::vector<std::unique_ptr<PreparedRun>> owned_;
  std::vector<PreparedRun*> order_;  // launch order: links 1 .. L-1, then link 0
  std::unique_ptr<ChainRun> baseline_;
};

}  // namespace bsrflow::bench
