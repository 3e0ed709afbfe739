// A "system" is one way of computing C = A * B that bsr_bench times: a bsrflow GEMM path or a
// peer library. Adding one is one class and one line in system_registry.cpp:
//
//   class MySystem : public System {
//     std::string name() const override { return "bsrflow_sm90"; }
//     SystemKind kind() const override { return SystemKind::bsrflow; }
//     std::string unsupported_reason(const BenchCase& c) const override;  // "" = supported
//     std::unique_ptr<PreparedRun> prepare(const CaseInputs& in) override;  // plan, workspace
//   };
//
// prepare() does everything a user does once per pattern (plans, conversions, workspaces) and
// may synchronise (prepare_typed below is its usual body); PreparedRun::run() is what is timed
// and must only enqueue the product.
#pragma once

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <variant>

#include "bsrflow/apps/bsr_bench/bench_case.hpp"
#include "bsrflow/apps/bsr_bench/block_patterns.hpp"
#include "bsrflow/apps/common/cusparse_check.hpp"
#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/dense.hpp"

namespace bsrflow::bench {

enum class SystemKind {
  bsrflow,         // a bsrflow GEMM path
  dense_baseline,  // cuBLAS on the densified matrix: the "vs dense" denominator
  dense_random,    // cuBLAS on random dense data of the same shape: dense GEMM's rate without zeros (reference only)
  sparse_peer,     // another library's sparse product: the "vs best peer" denominator
  sol_probe,       // a speed-of-light probe (writes no output): the "% SOL" denominator
};

// Device operands of one case in its dtype: A (row-major R x C blocks), B, and the output C
// that every system writes (the runner poisons it before each check).
template <class T>
struct Operands {
  BsrView<const T> A;
  DenseView<const T> B;
  DenseView<T> C;
};

// What prepare() gets. The pointers stay valid until the PreparedRun is destroyed.
struct CaseInputs {
  const BenchCase* bench_case = nullptr;
  const BlockPattern* pattern = nullptr;  // A's structure on the host
  std::variant<Operands<__half>, Operands<__nv_bfloat16>> operands;
  cudaStream_t stream = nullptr;
  CublasHandle* cublas = nullptr;
  cusparseHandle_t cusparse = nullptr;
};

class PreparedRun {
 public:
  virtual ~PreparedRun() = default;
  // Enqueues C = A * B on `stream` (what is timed).
  virtual void run(cudaStream_t stream) = 0;
  // One-time cost a user pays before the first run (format conversion), NaN if none.
  virtual double prep_ms() const;
  // A remark for the report (e.g. how much padding Blocked-ELL needed); "" if none.
  virtual std::string note() const { return {}; }
  // The kernel configuration that runs (a bsrflow plan's name()); "" if not applicable.
  virtual std::string config() const { return {}; }
  // A second way to compute the same product that this run is compared with in alternating
  // pairs (time_pair_ratios): the autotuned system's heuristic plan; nullptr when there is none.
  virtual PreparedRun* baseline() { return nullptr; }
};

class System {
 public:
  virtual ~System() = default;
  virtual std::string name() const = 0;
  virtual SystemKind kind() const = 0;
  virtual std::string description() const = 0;
  // "" when the system can run `c`; otherwise why not (the case is recorded as unsupported).
  virtual std::string unsupported_reason(const BenchCase& c) const = 0;
  bool supports(const BenchCase& c) const { return unsupported_reason(c).empty(); }
  // Throws Error(unsupported) when the library rejects the case at run time.
  virtual std::unique_ptr<PreparedRun> prepare(const CaseInputs& in) = 0;
  // Slow oracles (the reference kernel on CUDA cores) time fewer runs; see RunnerConfig.
  virtual bool slow() const { return false; }
  // false for probes that write no output: their records have correct = null (not applicable).
  virtual bool checked() const { return true; }
  // The --sm90-configs variant this system forces (sm90_variants.hpp); "" for none.
  virtual std::string variant() const { return {}; }
};

// The body of most prepare()s: Run<T>(operands, args...) for the case's element type T.
template <template <class> class Run, class... Args>
std::unique_ptr<PreparedRun> prepare_typed(const CaseInputs& in, const Args&... args) {
  return std::visit(
      [&](const auto& ops) -> std::unique_ptr<PreparedRun> {
        using T = std::remove_cv_t<std::remove_pointer_t<decltype(ops.C.data)>>;
        return std::make_unique<Run<T>>(ops, args...);
      },
      in.operands);
}

}  // namespace bsrflow::bench
