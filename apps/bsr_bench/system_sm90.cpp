// bsrflow's Hopper GEMM through its public plan API: the plan (kernel choice, device schedule,
// workspace) is made in prepare(), outside the timed region; run() is plan.run alone. On shapes
// the Hopper kernel cannot take the plan falls back to the reference kernel, which this system
// reports as unsupported rather than timing the fallback under the fast kernel's name.
#include "bsrflow/apps/bsr_bench/system_registry.hpp"
#include "bsrflow/ops/gemm_plan.hpp"

namespace bsrflow::bench {

namespace {

template <class T>
class Sm90Run : public PreparedRun {
 public:
  Sm90Run(const Operands<T>& ops, cudaStream_t stream)
      : ops_(ops), plan_(plan_gemm(ops.A, describe(ops.B), describe(ops.C), sm90_only(), stream)) {}
  void run(cudaStream_t stream) override { plan_.run<T, T>(ops_.A, ops_.B, ops_.C, 1.0f, 0.0f, stream); }

 private:
  static GemmOptions sm90_only() {
    GemmOptions options;
    options.kernel = GemmOptions::Choice::sm90;  // throw Error(unsupported) instead of falling back
    return options;
  }
  Operands<T> ops_;
  GemmPlan plan_;
};

class Sm90System : public System {
 public:
  std::string name() const override { return "bsrflow_sm90"; }
  SystemKind kind() const override { return SystemKind::bsrflow; }
  std::string description() const override { return "bsrflow::plan_gemm, Hopper WGMMA + TMA kernel (tuned config)"; }
  std::string unsupported_reason(const BenchCase&) const override { return {}; }
  std::unique_ptr<PreparedRun> prepare(const CaseInputs& in) override {
    return prepare_typed<Sm90Run>(in, in.stream);
  }
};

}  // namespace

std::unique_ptr<System> make_sm90_system() { return std::make_unique<Sm90System>(); }

}  // namespace bsrflow::bench
