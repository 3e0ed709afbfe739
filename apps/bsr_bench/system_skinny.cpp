// bsrflow's skinny GEMM (N <= 64: TMA + mma.sync, one CTA per piece of a block row) through
// the public plan API, forced onto that kernel: where it cannot run, the case is reported as
// unsupported rather than timing another kernel under its name. For N <= 64 it is also what an
// automatic plan picks.
#include "bsrflow/apps/bsr_bench/plan_run.hpp"
#include "bsrflow/apps/bsr_bench/system_registry.hpp"
#include "bsrflow/ops/tuning_skinny.hpp"

namespace bsrflow::bench {

namespace {

class SkinnySystem : public System {
 public:
  std::string name() const override { return "bsrflow_skinny"; }
  SystemKind kind() const override { return SystemKind::bsrflow; }
  std::string description() const override {
    return "bsrflow::plan_gemm, skinny kernel for N <= 64 (TMA ring, mma.sync, split rows reduced in-kernel)";
  }
  std::string unsupported_reason(const BenchCase& c) const override {
    if (c.n > skinny::kMaxN)
      return "N (" + std::to_string(c.n) + ") is above " + std::to_string(skinny::kMaxN) +
             ", the skinny kernel's widest tile";
    return {};
  }
  std::unique_ptr<PreparedRun> prepare(const CaseInputs& in) override {
    GemmOptions o;
    o.kernel = GemmOptions::Choice::skinny;
    return prepare_typed<PlanRun>(in, o, in.stream);
  }
};

}  // namespace

std::unique_ptr<System> make_skinny_system() { return std::make_unique<SkinnySystem>(); }

}  // namespace bsrflow::bench
