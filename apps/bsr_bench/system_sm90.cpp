// bsrflow's Hopper GEMM through its public plan API: the plan (kernel choice, device schedule,
// workspace) is made in prepare(), outside the timed region; run() is plan.run alone. The plan
// is forced onto the Hopper kernel: where it cannot run the case is reported as unsupported
// rather than timing the reference fallback under the fast kernel's name.
//
// "bsrflow_sm90" is the tuned configuration; --sm90-configs adds one system per requested
// variant (sm90_variants.hpp), each named by its plan.
#include <optional>

#include "bsrflow/apps/bsr_bench/plan_run.hpp"
#include "bsrflow/apps/bsr_bench/system_registry.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/gemm_plan.hpp"

namespace bsrflow::bench {

namespace {

class Sm90System : public System {
 public:
  Sm90System(std::string name, std::optional<Sm90Variant> variant, GemmOptions options)
      : name_(std::move(name)), variant_(variant), options_(options) {}
  std::string name() const override { return name_; }
  SystemKind kind() const override { return SystemKind::bsrflow; }
  std::string description() const override {
    return "bsrflow::plan_gemm, Hopper WGMMA + TMA kernel (" +
           (variant_ ? "forced to " + variant_name(*variant_) : std::string("tuned config")) + ")";
  }
  std::string unsupported_reason(const BenchCase&) const override { return {}; }
  std::string variant() const override { return variant_ ? variant_name(*variant_) : std::string(); }
  std::unique_ptr<PreparedRun> prepare(const CaseInputs& in) override {
    return prepare_typed<PlanRun>(in, options_, in.stream);
  }

 private:
  std::string name_;
  std::optional<Sm90Variant> variant_;
  GemmOptions options_;
};

}  // namespace

std::unique_ptr<System> make_sm90_system() {
  return std::make_unique<Sm90System>("bsrflow_sm90", std::nullopt, sm90_options());
}

std::unique_ptr<System> make_sm90_variant_system(const BenchCase& c, const Sm90Variant& v, const DeviceInfo& device) {
  std::string name = "bsrflow_sm90[" + variant_name(v) + "]";
  const GemmOptions options = sm90_variant_options(v, c);
  try {
    name = sm90_plan_name(c, options, device);
  } catch (const Error&) {
    // prepare() meets the same refusal and records it under the fallback name.
  }
  return std::make_unique<Sm90System>(std::move(name), v, options);
}

}  // namespace bsrflow::bench
