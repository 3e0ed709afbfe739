// Comparing two ways of doing the same work by timing them in alternating pairs: drift over the
// measurement (clocks, temperature, another process) then hits both alike, where two series timed
// one after the other differed by 1-3% on identical work on the lent H100s (perf_log entry 44).
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <vector>

#include "bsrflow/core/l2_flusher.hpp"

namespace bsrflow {

// Enqueues one run of the work on the stream it is given.
using StreamWork = std::function<void(cudaStream_t)>;

// `warmup` untimed runs of each, then `pairs` pairs: a then b, then b then a, and so on (neither
// always runs first after a flush, nor always follows the other), each run between two CUDA
// events and after a flush when `flusher` is given. Returns t(a) / t(b) for each pair; synchronises
// `stream`. Throws Error(invalid_argument) if pairs < 1 or warmup < 0.
std::vector<double> time_pair_ratios(const StreamWork& a, const StreamWork& b, int pairs, int warmup,
                                     L2Flusher* flusher, cudaStream_t stream);

}  // namespace bsrflow
