// bsrflow's Hopper GEMM planned with exhaustive autotuning (GemmTuning::exhaustive): the tuner
// times every tunable configuration on the case's own pattern in prepare() (reported as prep_ms,
// the one-time cost a user pays), and the timed run is the winner's plan.run alone. The report
// compares it with "bsrflow_sm90" (the heuristic) case by case: where the winner is another
// configuration, the runner times the two plans in alternating pairs (the heuristic plan is this
// run's baseline), so that drift between two series timed one after the other is not read as a
// gain or a loss.
//
// The tuner stores its winners in a cache private to this process (a temporary directory,
// removed at exit): a benchmark must neither read stale results from the user's cache nor write
// into it.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "bsrflow/apps/bsr_bench/plan_run.hpp"
#include "bsrflow/apps/bsr_bench/sm90_variants.hpp"
#include "bsrflow/apps/bsr_bench/system_registry.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/gemm_plan.hpp"
#include "bsrflow/ops/tuning_cache.hpp"

namespace bsrflow::bench {

namespace {

// A tuning cache in a fresh temporary directory, removed when the process exits.
class PrivateCache {
 public:
  PrivateCache() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "bsr_bench_tuning_XXXXXX").string();
    BSRFLOW_REQUIRE(::mkdtemp(tmpl.data()) != nullptr, Errc::io, "cannot create a temporary tuning cache directory");
    dir_ = tmpl;
    cache_ = std::make_unique<TuningCache>(dir_);
  }
  ~PrivateCache() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  TuningCache& cache() { return *cache_; }

 private:
  std::filesystem::path dir_;
  std::unique_ptr<TuningCache> cache_;
};

TuningCache& private_cache() {
  static PrivateCache cache;
  return cache.cache();
}

template <class T>
class TunedRun : public PreparedRun {
 public:
  TunedRun(const Operands<T>& ops, cudaStream_t stream) : ops_(ops), heuristic_(ops, sm90_options(), stream) {
    GemmOptions o;
    o.kernel = GemmOptions::Choice::sm90;
    o.tuning = GemmTuning::exhaustive;
    o.tuning_cache = &private_cache();
    const auto start = std::chrono::steady_clock::now();
    plan_ = plan_gemm(ops.A, describe(ops.B), describe(ops.C), o, stream);
    prep_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
  void run(cudaStream_t stream) override { plan_.run<T, T>(ops_.A, ops_.B, ops_.C, 1.0f, 0.0f, stream); }
  std::string config() const override { return plan_.name(); }
  double prep_ms() const override { return prep_ms_; }
  std::string note() const override { return plan_.tuning_note(); }
  PreparedRun* baseline() override { return &heuristic_; }

 private:
  Operands<T> ops_;
  PlanRun<T> heuristic_;  // what bsrflow_sm90 runs
  GemmPlan plan_;
  double prep_ms_ = 0;
};

class Sm90TunedSystem : public System {
 public:
  std::string name() const override { return "bsrflow_sm90_tuned"; }
  SystemKind kind() const override { return SystemKind::bsrflow; }
  std::string description() const override {
    return "bsrflow::plan_gemm, Hopper kernel, exhaustive autotuning on the case's pattern (prep_ms = tuning time)";
  }
  std::string unsupported_reason(const BenchCase&) const override { return {}; }
  std::unique_ptr<PreparedRun> prepare(const CaseInputs& in) override { return prepare_typed<TunedRun>(in, in.stream); }
};

}  // namespace

std::unique_ptr<System> make_sm90_tuned_system() { return std::make_unique<Sm90TunedSystem>(); }

}  // namespace bsrflow::bench
