// convert_bench's measurements (issue 2): for each block size b, bsrflow::CsrToBsr
// (symbolic + numeric, then the numeric refresh alone) and cuSPARSE csr2bsr (Nnz + allocation
// + csr2bsr, then csr2bsr alone) on the Poisson matrix. bsrflow's BSR is compared with
// cuSPARSE's (row_ptr, col_idx and values bit for bit) before anything is timed; when they
// differ, the host oracle (formats/host_convert.hpp) decides which one is wrong, and a wrong
// bsrflow result is not timed.
//
// Each numeric kernel variant (--numeric) is its own system: "bsrflow" is the library's default
// kernel (kCsrToBsrNumericDefault), "bsrflow-<variant>" another (convert_system_name), each with a symbolic+numeric and a
// numeric row, its output checked bit for bit against bsrflow's before it is timed. Unless
// --no-pool-kept, every system also gets a kPoolKeptPhase row: symbolic+numeric while the memory
// pool keeps freed memory (no fresh page mapping for the allocations).
//
// Byte model of the numeric refresh (GB/s): the CSR values read once plus every BSR value
// written once (zero fill included): (nnz + nnzb * b * b) * sizeof(T). Index or scatter-map
// traffic is not counted: it is overhead the kernel adds to the unavoidable bytes.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "bsrflow/apps/common/probes.hpp"
#include "bsrflow/apps/common/record.hpp"
#include "bsrflow/apps/common/run_info.hpp"
#include "bsrflow/apps/convert_bench/convert_cli.hpp"

namespace bsrflow::bench {

inline constexpr const char* kPoolKeptPhase = "symbolic+numeric, pool kept";

// "bsrflow" for the default numeric kernel, "bsrflow-<name>" for another.
std::string convert_system_name(CsrToBsrNumeric variant);

struct ConvertRun {
  RunInfo info;
  BandwidthResult copy;  // device-to-device copy probe of this run
  std::vector<Record> records;
};

// Needs a GPU. Progress goes to `log` when not null.
ConvertRun run_convert_bench(const ConvertOptions& options, std::ostream* log);

// Adds speedup_vs_cusparse (same block and phase) and target_met to the records.
void add_convert_comparisons(std::vector<Record>& records);

// Markdown table + footer.
std::string convert_markdown(const std::vector<Record>& records, const TimingConfig& timing);

}  // namespace bsrflow::bench
