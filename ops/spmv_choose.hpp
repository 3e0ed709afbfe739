// The SpMV planner's decision as a pure host function (testable without a GPU): which kernel and
// configuration a plan runs for a block shape, the row lengths and the options.
#pragma once

#include <cstdint>

#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/ops/spmv.hpp"

namespace bsrflow {

// What the choice needs to know about A's pattern (from its row_ptr).
struct SpmvRowStats {
  std::int64_t block_rows = 0;
  std::int64_t nnzb = 0;
  std::int64_t max_row_blocks = 0;  // blocks of the longest block row
};

// The options (Errc::invalid_argument) and a forced team or bulk kernel's block shape
// (Errc::unsupported); spmv.hpp lists the messages. plan_spmv calls it before it touches the
// device.
void check_spmv_options(int R, int C, const SpmvOptions& options);

// check_spmv_options, then the choice. `device`: the GPU the plan is for (cc_major >= 9 has
// cp.async.bulk; a default DeviceInfo has none). A forced bulk kernel without the bulk copies, or
// on a block row of more values than one stage holds, is Errc::unsupported. R, C in [1, 8]
// (checked by the caller).
SpmvConfig choose_spmv_config(DType dtype, int R, int C, const SpmvRowStats& rows, const SpmvOptions& options,
                              const DeviceInfo& device);

}  // namespace bsrflow
