// bsrflow's reference kernel (CUDA cores): the oracle every other system is checked against,
// timed too so the report shows what the fast path gains over it.
#include "bsrflow/apps/bsr_bench/system_registry.hpp"
#include "bsrflow/ops/reference_gemm.hpp"

namespace bsrflow::bench {

namespace {

template <class T>
class ReferenceRun : public PreparedRun {
 public:
  explicit ReferenceRun(const Operands<T>& ops) : ops_(ops) {}
  void run(cudaStream_t stream) override { reference_gemm<T, T>(ops_.A, ops_.B, ops_.C, 1.0f, 0.0f, stream); }

 private:
  Operands<T> ops_;
};

class ReferenceSystem : public System {
 public:
  std::string name() const override { return "bsrflow_reference"; }
  SystemKind kind() const override { return SystemKind::bsrflow; }
  std::string description() const override { return "bsrflow::reference_gemm (CUDA cores, any block shape)"; }
  std::string unsupported_reason(const BenchCase&) const override { return {}; }
  bool slow() const override { return true; }
  std::unique_ptr<PreparedRun> prepare(const CaseInputs& in) override {
    return prepare_typed<ReferenceRun>(in);
  }
};

}  // namespace

std::unique_ptr<System> make_reference_system() { return std::make_unique<ReferenceSystem>(); }

}  // namespace bsrflow::bench
