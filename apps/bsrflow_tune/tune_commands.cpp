#include "bsrflow/apps/bsrflow_tune/tune_commands.hpp"

#include <cstdio>
#include <filesystem>
#include <string>

#include "bsrflow/apps/bsr_bench/block_patterns.hpp"
#include "bsrflow/apps/bsr_bench/suites.hpp"
#include "bsrflow/apps/common/gpu_guard.hpp"
#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/ops/gemm_plan.hpp"

namespace bsrflow::bench {

namespace {

std::string fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

}  // namespace

void list_cache(const TuningCache& cache, std::ostream& out) {
  const std::vector<TuningEntry> entries = cache.entries();
  if (entries.empty()) {
    out << "no entries in " << cache.file().string() << '\n';
    return;
  }
  out << entries.size() << " entries in " << cache.file().string() << '\n';
  for (const TuningEntry& e : entries)
    out << e.config.name() << "  " << fixed(e.tuned_ms, 4) << " ms (heuristic " << fixed(e.heuristic_ms, 4)
        << " ms, x" << fixed(e.heuristic_ms / e.tuned_ms, 3) << ")  " << e.when << "  " << e.key.text() << '\n';
}

void clear_cache(TuningCache& cache, std::ostream& out) {
  if (!std::filesystem::exists(cache.file())) {
    out << "nothing to remove: " << cache.file().string() << " does not exist\n";
    return;
  }
  const std::size_t n = cache.clear();
  out << "removed " << cache.file().string() << " (" << n << " entries)\n";
}

int tune_cases(const std::vector<BenchCase>& cases, TuningCache& cache, std::ostream& out) {
  Stream stream;
  int tuned = 0;
  for (const BenchCase& c : cases) {
    check_case(c);
    const BlockPattern p = make_block_pattern(c.pattern, c.block_rows(), c.block_cols(), c.density, c.seed);
    const DeviceBuffer<int> row_ptr = DeviceBuffer<int>::from_host(p.row_ptr, stream);
    const DeviceBuffer<int> col_idx = DeviceBuffer<int>::from_host(p.col_idx, stream);
    const GemmBsrOperand A{c.m, c.k, c.R, c.C, p.nnzb(), row_ptr.data(), col_idx.data(), nullptr};
    const DenseDesc B{c.k, c.n, c.ldb(), c.b_layout, c.dtype};
    const DenseDesc C{c.m, c.n, c.ldc(), c.c_layout, c.dtype};
    GemmOptions o;
    o.tuning = GemmTuning::exhaustive;
    o.tuning_cache = &cache;
    const GemmPlan plan = plan_gemm(A, c.dtype, B, C, o, stream);
    out << c.label() << ": " << (plan.tuning_note().empty() ? plan.name() : plan.tuning_note()) << '\n';
    if (plan.tuning_source() == TuningSource::tuned) ++tuned;
  }
  return tuned;
}

int run_bsrflow_tune(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  const TuneCommand cmd = parse_tune_command(argc, argv);
  if (cmd.kind == TuneCommand::Kind::help) {
    out << tune_help();
    return 0;
  }
  TuningCache cache(cmd.cache_dir.empty() ? default_tuning_cache_dir() : std::filesystem::path(cmd.cache_dir),
                    [&err](const std::string& line) { err << "warning: " << line << '\n'; });
  switch (cmd.kind) {
    case TuneCommand::Kind::list: list_cache(cache, out); return 0;
    case TuneCommand::Kind::clear: clear_cache(cache, out); return 0;
    case TuneCommand::Kind::tune: {
      if (gpu_count() == 0) {
        err << "bsrflow-tune: no CUDA GPU found; 'tune' needs an NVIDIA Hopper GPU (list and clear work without "
               "one)\n";
        return kExitNoGpu;
      }
      const std::vector<BenchCase> cases = suite_cases(cmd.suite);
      const int tuned = tune_cases(cases, cache, out);
      out << "tuned " << tuned << " of " << cases.size() << " cases into " << cache.file().string() << '\n';
      return 0;
    }
    case TuneCommand::Kind::help: break;
  }
  return 0;
}

}  // namespace bsrflow::bench
