// The timed part of a bsrflow system: a GemmPlan made once in the constructor (kernel choice,
// schedule, workspace - outside the timed region), then plan.run alone.
#pragma once

#include <string>

#include "bsrflow/apps/bsr_bench/system.hpp"
#include "bsrflow/ops/gemm_plan.hpp"

namespace bsrflow::bench {

template <class T>
class PlanRun : public PreparedRun {
 public:
  PlanRun(const Operands<T>& ops, const GemmOptions& options, cudaStream_t stream)
      : ops_(ops), plan_(plan_gemm(ops.A, describe(ops.B), describe(ops.C), options, stream)) {}
  void run(cudaStream_t stream) override { plan_.run<T, T>(ops_.A, ops_.B, ops_.C, 1.0f, 0.0f, stream); }
  std::string config() const override { return plan_.name(); }

 private:
  Operands<T> ops_;
  GemmPlan plan_;
};

}  // namespace bsrflow::bench
