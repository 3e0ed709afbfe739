// Uses the installed headers and libraries: a host conversion, validation errors, device query,
// a task graph's build phase (no CUDA call), the PCG options (graph/ headers install whole) and a
// GEMM tuning cache round trip.
#include <bsrflow/core/device_info.hpp>
#include <bsrflow/core/error.hpp>
#include <bsrflow/formats/host_convert.hpp>
#include <bsrflow/graph/pcg.hpp>
#include <bsrflow/graph/task_graph.hpp>
#include <bsrflow/ops/tuning_cache.hpp>

#include <stdlib.h>

#include <cstdio>
#include <filesystem>

int main() {
  bsrflow::HostCsr<float> csr;
  csr.rows = 4;
  csr.cols = 4;
  csr.row_ptr = {0, 1, 2, 3, 4};
  csr.col_idx = {0, 1, 2, 3};
  csr.values = {1.f, 2.f, 3.f, 4.f};
  const auto bsr = bsrflow::host::csr_to_bsr(csr, 2, 2, bsrflow::Padding::reject);
  if (bsr.nnzb() != 2) return 1;
  csr.col_idx[1] = 7;  // out of range: must be reported, not crash
  try {
    (void)bsrflow::host::csr_to_bsr(csr, 2, 2, bsrflow::Padding::reject);
    return 1;
  } catch (const bsrflow::Error& e) {
    if (e.code() != bsrflow::Errc::invalid_structure) return 1;
  }
  bsrflow::TaskGraph g("consumer");
  auto a = g.memset("a", reinterpret_cast<void*>(0x100), 0, 16);
  auto b = g.memset("b", reinterpret_cast<void*>(0x200), 0, 16);
  a.precede(b);
  try {
    b.precede(a);  // a cycle: refused at build time
    return 1;
  } catch (const bsrflow::Error& e) {
    if (e.code() != bsrflow::Errc::invalid_argument) return 1;
  }
  const bsrflow::PcgOptions options{.rtol = 1e-8, .preconditioner = bsrflow::Preconditioner::block_jacobi};
  if (options.max_iterations == 0) return 1;
  {  // the GEMM tuning cache (no CUDA call): store into a fresh directory, look up, clear
    char dir[] = "/tmp/bsrflow_consumer_XXXXXX";
    if (mkdtemp(dir) == nullptr) return 1;
    bsrflow::TuningCache cache(dir);
    bsrflow::TuningEntry e;
    e.key = bsrflow::tuning_key({"consumer GPU", 132, 90, 13000, 13000, bsrflow::bsrflow_version()}, bsrflow::DType::f16,
                                bsrflow::DType::f16, 64, 64, bsrflow::Layout::row_major, bsrflow::Layout::row_major, 4096,
                                bsrflow::PatternStats{64, 64, 512, 8});
    e.config = {{256, bsrflow::GemmOrientation::direct, 64}, 4, true};
    e.tuned_ms = e.heuristic_ms = 1.0;
    e.when = "now";
    cache.store(e);
    if (!cache.lookup(e.key) || cache.clear() != 1) return 1;
    std::filesystem::remove_all(dir);
  }
  std::printf("consumer ok: %d GPU(s)\n", bsrflow::gpu_count());
  return 0;
}
