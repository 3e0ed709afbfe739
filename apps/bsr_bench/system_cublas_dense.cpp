// cuBLAS dense GEMM on the densified A in the same dtype: the "vs dense" baseline. Its rate is
// reported as the dense rate 2*M*N*K/t (what cuBLAS actually achieves), so the sparse systems'
// ratio_to_dense compares effective work rates.
//
// The densified A is mostly zeros (87.5% at 12.5% density), and the GPU clocks higher on zeros:
// cuBLAS runs ~17% faster on it than on random data of the same shape (perf_log entry 34, H100 and
// H200). cublas_dense_random times the same call on random dense values (never zero, as the
// bench's operands), so every run also shows the rate dense GEMM reaches on ordinary data. It
// computes another product, so it is not checked and is neither a peer nor the denominator.
#include "bsrflow/apps/bsr_bench/system_registry.hpp"
#include "bsrflow/apps/common/cublas_dense_gemm.hpp"
#include "bsrflow/apps/common/densify.hpp"
#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/random_fill.hpp"
#include "bsrflow/ops/cublas_check.hpp"

namespace bsrflow::bench {

namespace {

template <class T>
class CublasDenseRun : public PreparedRun {
 public:
  // random_a: A's shape filled with random values instead of A's blocks (cublas_dense_random).
  CublasDenseRun(const Operands<T>& ops, CublasHandle* handle, cudaStream_t stream, bool random_a)
      : ops_(ops), handle_(handle),
        dense_a_(static_cast<std::size_t>(ops.A.rows) * static_cast<std::size_t>(ops.A.cols), stream) {
    if (random_a) fill_random_nonzero(dense_a_.data(), static_cast<std::int64_t>(dense_a_.size()), kRandomSeed, stream);
    else densify_bsr(ops.A, dense_view(), stream);
  }
  void run(cudaStream_t stream) override {
    handle_->set_stream(stream);
    cublas_dense_gemm<T>(handle_->get(), DenseView<const T>(dense_view()), ops_.B, ops_.C);
  }

 private:
  static constexpr std::uint64_t kRandomSeed = 0x5eed'de45e;
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
    return prepare_typed<CublasDenseRun>(in, in.cublas, in.stream, false);
  }
};

class CublasDenseRandomSystem : public System {
 public:
  std::string name() const override { return "cublas_dense_random"; }
  SystemKind kind() const override { return SystemKind::dense_random; }
  std::string description() const override {
    return "cublasGemmEx on random dense data of A's shape (f32 compute): dense GEMM's rate without zeros, not checked";
  }
  std::string unsupported_reason(const BenchCase&) const override { return {}; }
  std::unique_ptr<PreparedRun> prepare(const CaseInputs& in) override {
    return prepare_typed<CublasDenseRun>(in, in.cublas, in.stream, true);
  }
  bool checked() const override { return false; }  // another product: nothing to compare it with
};

}  // namespace

std::unique_ptr<System> make_cublas_dense_system() { return std::make_unique<CublasDenseSystem>(); }
std::unique_ptr<System> make_cublas_dense_random_system() { return std::make_unique<CublasDenseRandomSystem>(); }

}  // namespace bsrflow::bench
