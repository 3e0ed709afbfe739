// cuSPARSE Blocked-ELL SpMM (CUSPARSE_SPMM_BLOCKED_ELL_ALG1): A is packed into Blocked-ELL,
// every block row padded to the longest one as the format needs. The packing is reported as
// prep_ms and the padding in the note; the SpMM walks the padding blocks, so its time pays too.
#include <cstdio>

#include "bsrflow/apps/bsr_bench/system_registry.hpp"
#include "bsrflow/apps/common/cusparse_blocked_ell_spmm.hpp"

namespace bsrflow::bench {

namespace {

template <class T>
class BlockedEllRun : public PreparedRun {
 public:
  BlockedEllRun(const Operands<T>& ops, const BlockPattern& pattern, cusparseHandle_t handle, cudaStream_t stream)
      : spmm_(handle, ops.A, pattern.longest_row(), ops.B, ops.C, stream), stored_(pattern.nnzb()),
        slots_(pattern.longest_row()) {}
  void run(cudaStream_t stream) override { spmm_.run(stream); }
  double prep_ms() const override { return spmm_.pack_ms(); }
  std::string note() const override {
    const double extra = stored_ > 0 ? static_cast<double>(spmm_.padded_blocks() - stored_) / stored_ : 0.0;
    char text[160];
    std::snprintf(text, sizeof(text), "ELL padded to %d blocks/row (+%.0f%% blocks, %.1f MB)", slots_, 100.0 * extra,
                  static_cast<double>(spmm_.bytes()) / 1e6);
    return text;
  }

 private:
  CusparseBlockedEllSpmm<T> spmm_;
  std::int64_t stored_;
  int slots_;
};

class BlockedEllSystem : public System {
 public:
  std::string name() const override { return "cusparse_blocked_ell"; }
  SystemKind kind() const override { return SystemKind::sparse_peer; }
  std::string description() const override {
    return "cusparseSpMM, Blocked-ELL padded to the longest block row, CUSPARSE_SPMM_BLOCKED_ELL_ALG1";
  }
  std::string unsupported_reason(const BenchCase& c) const override {
    if (c.R != c.C) return "Blocked-ELL takes square blocks only";
    return {};
  }
  std::unique_ptr<PreparedRun> prepare(const CaseInputs& in) override {
    return prepare_typed<BlockedEllRun>(in, *in.pattern, in.cusparse, in.stream);
  }
};

}  // namespace

std::unique_ptr<System> make_cusparse_blocked_ell_system() { return std::make_unique<BlockedEllSystem>(); }

}  // namespace bsrflow::bench
