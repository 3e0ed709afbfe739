// Cold-L2 timing: a scratch buffer of twice the L2 size, written before a timed run so that the
// run does not find the previous run's data in L2 (the benchmarks' timing and the autotuner's
// confirmation round).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "bsrflow/core/device_buffer.hpp"

namespace bsrflow {

// Evicts L2 by writing a scratch buffer of 2 x `l2_bytes` (allocated on construction).
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
