// cuBLAS dense GEMM on the densified A in the same dtype: the "vs dense" baseline. Its rate is
// reported as the dense rate 2*M*N*K/t (what cuBLAS actually achieves), so the sparse systems'
// ratio_to_dense compares effective work rates.
#include "bsrflow/apps/bsr_bench/system_registry.hpp"
#include "bsrflow/apps/common/cublas_dense_gemm.hpp"
#include "bsrflow/apps/common/densify.hpp"
#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/ops/cublas_check.hpp"

namespace bsrflow::bench {

namespace {

template <class T>
class CublasDenseRun : public PreparedRun {
 public:
  CublasDenseRun(const Operands<T>& ops, CublasHandle* handle, cudaStream_t stream)
      : ops_(ops), handle_(handle),
        dense_a_(static_cast<std::size_t>(ops.A.rows) * static_cast<std::size_t>(ops.A.cols), stream) {
    densify_bsr(ops.A, dense_view(), stream);
  }
  void run(cudaStream_t stream) override {
    handle_->set_stream(stream);
    cublas_dense_gemm<T>(handle_->get(), DenseView<const T>(dense_view()), ops_.B, ops_.C);
  }

 private:
  DenseView<T> dense_view() { return {dense_a_.data(), ops_.A.rows, ops_.A.cols, ops_.A.cols, Layout::row_major}; }

  Operands<T> ops_;
  CublasHandle* handle_;
  DeviceBuffer<T> dense_a_;  // (M, K) row-major
};

class CublasDenseSystem : public System {
 public:
  std::string name() const override { return "cublas_dense"; }
  SystemKind kind() const override { return SystemKind::dense_baseline; }
  std::string description() const override { return "cublasGemmEx on the densified A (f32 compute)"; }
  std::string unsupported_reason(const BenchCase&) const override { return {}; }
  std::unique_ptr<PreparedRun> prepare(const CaseInputs& in) override {
    return prepare_typed<CublasDenseRun>(in, in.cublas, in.stream);
  }
};

}  // namespace

std::unique_ptr<System> make_cublas_dense_system() { return std::make_unique<CublasDenseSystem>(); }

}  // namespace bsrflow::bench
