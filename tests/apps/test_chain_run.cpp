// ChainRun (bsr_bench --chain) on the CPU: launch order, what it reports, its baseline chain and
// its errors, with fake runs that log what they were asked to do.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/bsr_bench/chain_run.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;

namespace {

class FakeRun : public PreparedRun {
 public:
  FakeRun(std::string name, std::vector<std::string>& log, bool with_baseline)
      : name_(std::move(name)), log_(log) {
    if (with_baseline) baseline_ = std::make_unique<FakeRun>(name_ + "'", log, false);
  }
  void run(cudaStream_t) override { log_.push_back(name_); }
  double prep_ms() const override { return static_cast<double>(name_.size()); }
  std::string note() const override { return "note of " + name_; }
  std::string config() const override { return "config of " + name_; }
  PreparedRun* baseline() override { return baseline_.get(); }

 private:
  std::string name_;
  std::vector<std::string>& log_;
  std::unique_ptr<FakeRun> baseline_;
};

std::vector<std::unique_ptr<PreparedRun>> links(std::vector<std::string>& log, int n, bool with_baselines) {
  std::vector<std::unique_ptr<PreparedRun>> out;
  for (int i = 0; i < n; ++i) out.push_back(std::make_unique<FakeRun>("w" + std::to_string(i), log, with_baselines));
  return out;
}

}  // namespace

TEST_CASE("ChainRun launches links 1..L-1, then link 0 (the case's own weights) last", "[apps]") {
  std::vector<std::string> log;
  ChainRun chain(links(log, 4, false));
  CHECK(chain.length() == 4);
  chain.run(nullptr);
  CHECK(log == std::vector<std::string>{"w1", "w2", "w3", "w0"});
  chain.run(nullptr);  // every timed run is the whole chain again
  CHECK(log.size() == 8);
  // What it reports is link 0's: the product whose result the runner checks.
  CHECK(chain.config() == "config of w0");
  CHECK(chain.note() == "note of w0");
  CHECK(chain.prep_ms() == 2.0);
  CHECK(chain.baseline() == nullptr);  // the links have none
}

TEST_CASE("ChainRun's baseline is the links' baselines chained in the same order", "[apps]") {
  std::vector<std::string> log;
  ChainRun chain(links(log, 3, true));
  PreparedRun* baseline = chain.baseline();
  REQUIRE(baseline != nullptr);
  baseline->run(nullptr);
  CHECK(log == std::vector<std::string>{"w1'", "w2'", "w0'"});
  CHECK(baseline->config() == "config of w0'");
  CHECK(baseline->baseline() == nullptr);
}

TEST_CASE("ChainRun refuses a chain of fewer than two links, a null link and mixed baselines", "[apps]") {
  std::vector<std::string> log;
  CHECK_APP_ERROR(ChainRun(links(log, 1, false)), Errc::invalid_argument, "a chain needs at least two links (got 1)");
  CHECK_APP_ERROR(ChainRun(links(log, 0, false)), Errc::invalid_argument, "a chain needs at least two links (got 0)");
  // (CHECK_APP_ERROR evaluates its expression twice: each builds its links afresh.)
  const auto with_null = [&] {
    std::vector<std::unique_ptr<PreparedRun>> out = links(log, 3, false);
    out[2].reset();
    return out;
  };
  CHECK_APP_ERROR(ChainRun(with_null()), Errc::invalid_argument, "chain link 2 is null");
  const auto mixed = [&] {
    std::vector<std::unique_ptr<PreparedRun>> out = links(log, 2, true);
    out.push_back(std::make_unique<FakeRun>("w2", log, false));
    return out;
  };
  CHECK_APP_ERROR(ChainRun(mixed()), Errc::invalid_argument, "chain links disagree on having a baseline");
  CHECK(log.empty());  // nothing ran
}
