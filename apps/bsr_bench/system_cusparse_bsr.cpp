// cuSPARSE BSR SpMM (CUSPARSE_SPMM_BSR_ALG1) on the same BSR arrays. Which dtype / layout /
// block shape combinations it takes is left to cuSPARSE: a CUSPARSE_STATUS_NOT_SUPPORTED answer
// is recorded as "unsupported", never replaced by another algorithm.
#include "bsrflow/apps/bsr_bench/system_registry.hpp"
#include "bsrflow/apps/common/cusparse_bsr_spmm.hpp"

namespace bsrflow::bench {

namespace {

template <class T>
class CusparseBsrRun : public PreparedRun {
 public:
  CusparseBsrRun(const Operands<T>& ops, cusparseHandle_t handle, cudaStream_t stream)
      : spmm_(handle, ops.A, ops.B, ops.C, stream) {}
  void run(cudaStream_t stream) override { spmm_.run(stream); }

 private:
  CusparseBsrSpmm<T> spmm_;
};

class CusparseBsrSystem : public System {
 public:
  std::string name() const override { return "cusparse_bsr"; }
  SystemKind kind() const override { return SystemKind::sparse_peer; }
  std::string description() const override { return "cusparseSpMM, BSR, CUSPARSE_SPMM_BSR_ALG1 (row-major blocks)"; }
  // Seen on an H100 with CUDA 13.0: cusparseSpMM answers CUSPARSE_STATUS_INVALID_VALUE (not
  // NOT_SUPPORTED) for a 16x64 block, so non-square blocks are declared unsupported up front.
  std::string unsupported_reason(const BenchCase& c) const override {
    if (c.R != c.C) return "cuSPARSE BSR SpMM takes square blocks only";
    return {};
  }
  std::unique_ptr<PreparedRun> prepare(const CaseInputs& in) override {
    return prepare_typed<CusparseBsrRun>(in, in.cusparse, in.stream);
  }
};

}  // namespace

std::unique_ptr<System> make_cusparse_bsr_system() { return std::make_unique<CusparseBsrSystem>(); }

}  // namespace bsrflow::bench
