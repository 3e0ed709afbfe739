// spmv_bench's measurements: for each case (matrix x dtype), bsrflow's SpMV in every --variants
// configuration, the first configuration again with the fused dot (CG's p . Ap), cuSPARSE CSR
// SpMV (cusparseSpMV, CSR_ALG1) on the same matrix in CSR form, and for square blocks cuSPARSE
// bsrmv. y = A x with alpha 1, beta 0; x random, never zero.
//
// Every result is checked against the CPU reference (ops/cpu_spmv.hpp, fp64) before it is timed:
// ||y - ref|| / ||ref|| within 1e-12 (f64) or 1e-5 (f32), the fused dot within the same bound
// relative to sum |w_i y_i|. A mismatch marks the row "wrong" and it is not timed.
//
// Byte model (GB/s and % of copy): the bytes that must move once, in the system's own format:
//   BSR (bsrflow, bsrmv): (block rows + 1) * 4 + nnzb * 4 + nnzb * R * C * sizeof(T) + (cols + rows) * sizeof(T)
//   CSR (cuSPARSE CSR):   (rows + 1) * 4 + nnz * (4 + sizeof(T)) + (cols + rows) * sizeof(T)
// (for block 1 both are the same number). The fused dot also reads w: + rows * sizeof(T).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "bsrflow/apps/common/probes.hpp"
#include "bsrflow/apps/common/record.hpp"
#include "bsrflow/apps/common/run_info.hpp"
#include "bsrflow/apps/spmv_bench/spmv_cli.hpp"

namespace bsrflow::bench {

struct SpmvBenchRun {
  RunInfo info;
  BandwidthResult copy;  // device-to-device copy probe of this run
  std::vector<Record> records;
};

// The byte models above (value_size = sizeof(T)).
std::int64_t bsr_spmv_bytes(int rows, int cols, int R, int C, std::int64_t nnzb, int value_size);
std::int64_t csr_spmv_bytes(int rows, int cols, std::int64_t nnz, int value_size);

// Needs a GPU. Progress goes to `log` when not null.
SpmvBenchRun run_spmv_bench(const SpmvBenchOptions& options, std::ostream* log);

// Adds to each timed row: speedup_vs_cusparse_csr and (block cases) speedup_vs_bsrmv (peer ms /
// ms, same case), and to bsrflow rows the target (>= 80% of the copy bandwidth) and target_met.
void add_spmv_comparisons(std::vector<Record>& records);

// Markdown table + footer.
std::string spmv_markdown(const std::vector<Record>& records, const TimingConfig& timing);

}  // namespace bsrflow::bench
