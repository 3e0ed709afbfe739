// The speed-of-light probe of bsrflow_sm90: the copy-only variant of the Hopper kernel
// (GemmOptions::copy_only) in the configuration that the tuned plan of bsrflow_sm90 picks for
// the case (same swath, orientation, k-chunk and stages, same schedule): the same TMA loads of
// A's blocks and B's slices through L2 into shared memory, no math, nothing written. Its
// effective rate 2 * nnzb * R * C * N / t is what the case's % SOL divides by (together with
// cuBLAS dense; see add_comparisons). It writes no output, so it is not checked (correct = null).
//
// NOTES: only f16 copy-only kernels are instantiated (ops/sm90_instances.cuh). The loads move
// 16-bit elements whatever their type, so a bf16 case runs the f16 probe on its own bytes; the
// record's config (..._f16_..._copy) and note say so.
#include "bsrflow/apps/bsr_bench/system_registry.hpp"
#include "bsrflow/ops/gemm_plan.hpp"

namespace bsrflow::bench {

namespace {

template <class T>
BsrView<const __half> as_f16(const BsrView<const T>& A) {
  return {A.rows, A.cols, A.R, A.C, A.nnzb, A.row_ptr, A.col_idx, reinterpret_cast<const __half*>(A.values)};
}
template <class T>
DenseView<const __half> as_f16(const DenseView<const T>& v) {
  return {reinterpret_cast<const __half*>(v.data), v.rows, v.cols, v.ld, v.layout};
}
template <class T>
DenseView<__half> as_f16(const DenseView<T>& v) {
  return {reinterpret_cast<__half*>(v.data), v.rows, v.cols, v.ld, v.layout};
}

template <class T>
class CopyProbeRun : public PreparedRun {
 public:
  CopyProbeRun(const Operands<T>& ops, cudaStream_t stream)
      : A_(as_f16(ops.A)), B_(as_f16(ops.B)), C_(as_f16(ops.C)),
        plan_(plan_gemm(A_, describe(B_), describe(C_), probe_options(ops, stream), stream)) {}
  void run(cudaStream_t stream) override { plan_.run<__half, __half>(A_, B_, C_, 1.0f, 0.0f, stream); }
  std::string config() const override { return plan_.name(); }
  std::string note() const override {
    std::string text = "copy-only probe of bsrflow_sm90's configuration: loads only, no output, not checked";
    if constexpr (!std::is_same_v<T, __half>) text += "; the f16 probe on the bf16 bytes (same loads)";
    return text;
  }

 private:
  // The tuned plan's configuration with copy_only set.
  static GemmOptions probe_options(const Operands<T>& ops, cudaStream_t stream) {
    const GemmPlan tuned = plan_gemm(ops.A, describe(ops.B), describe(ops.C), sm90_options(), stream);
    return copy_probe_options(tuned.config());
  }
  BsrView<const __half> A_;
  DenseView<const __half> B_;
  DenseView<__half> C_;
  GemmPlan plan_;
};

class CopyProbeSystem : public System {
 public:
  std::string name() const override { return "bsrflow_sm90_copy_probe"; }
  SystemKind kind() const override { return SystemKind::sol_probe; }
  std::string description() const override {
    return "copy-only variant of bsrflow_sm90's configuration (TMA loads, no math, no output): the SOL probe";
  }
  std::string unsupported_reason(const BenchCase&) const override { return {}; }
  bool checked() const override { return false; }
  std::unique_ptr<PreparedRun> prepare(const CaseInputs& in) override {
    return prepare_typed<CopyProbeRun>(in, in.stream);
  }
};

}  // namespace

std::unique_ptr<System> make_sm90_copy_probe_system() { return std::make_unique<CopyProbeSystem>(); }

}  // namespace bsrflow::bench
