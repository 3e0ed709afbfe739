// Cold-L2 timing: before a timed run, L2 must hold neither the previous run's data nor dirty lines
// (the benchmarks' timing and the autotuner's confirmation round).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "bsrflow/core/device_buffer.hpp"

namespace bsrflow {

// Writes a scratch buffer of 2 x `l2_bytes` (allocated on construction), which evicts everything
// else from L2 and writes back the dirty lines the previous run left, then drops the scratch's own
// lines from L2 without writing them back (`discard.global.L2`, sm_80 and later). The timed run
// then starts from an L2 with none of its data and no dirty line to write back: a flush by writes
// alone left ~1 x L2 of dirty lines whose write-back the next run paid for, up to half of the DRAM
// traffic of a 23 MB skinny product (docs/perf_log.md entry 59). Only the scratch is discarded:
// other allocations never share its 128-byte lines.
class L2Flusher {
 public:
  L2Flusher(std::size_t l2_bytes, cudaStream_t stream);
  void flush(cudaStream_t stream);
  std::size_t bytes() const { return scratch_.bytes(); }

 private:
  DeviceBuffer<unsigned char> scratch_;
  int next_value_ = 0;  // alternates so consecutive flushes really write new data
};

}  // namespace bsrflow
