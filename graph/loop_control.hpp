// The device side of a graph loop (TaskGraph::loop). A LoopControl is a small trivially-copyable
// value that body kernels take as a parameter; one thread of the kernel that decides (typically
// the last block of a grid reduction) calls end_iteration(keep_going) once per iteration.
//
//   __global__ void step(..., LoopControl loop) {
//     if (loop.stopped()) return;          // needed only in host-checked mode (see below)
//     ...
//     if (decider_thread) loop.end_iteration(residual > tol);
//   }
//
// With conditional graph nodes (the default; driver >= 12.3, always true under CUDA 13) the loop
// is a WHILE node whose condition end_iteration sets on the device, so the whole loop is one graph
// launch. In host-checked mode (LoopMode::host_checked, or no conditional nodes) the body is
// unrolled a few times per launch and the host checks `stop` between launches; iterations after
// the stop inside one unrolled chunk still launch, so body kernels must return at entry when
// stopped() (bsrflow's own solver kernels do).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "bsrflow/core/host_device.hpp"

namespace bsrflow {

// Device words of one loop, owned by a LoopState. Written on the device by end_iteration() and
// start(); reset (iteration = stop = 0) by the graph at the start of every launch.
struct LoopWords {
  cudaGraphConditionalHandle handle = 0;  // the WHILE node's condition (valid when has_handle)
  unsigned iteration = 0;                 // iterations completed in this launch
  int stop = 0;                           // 1 once the loop decided to stop (or hit its limit)
  int has_handle = 0;                     // 0 in host-checked mode
  int reserved = 0;
};

struct LoopControl {
  LoopWords* words = nullptr;
  unsigned max_iterations = 0;

#if defined(__CUDACC__)
  // One thread, once per iteration, after all work that decides has run: counts the iteration
  // and lets another run only if keep_going and the iteration limit is not reached.
  __device__ void end_iteration(bool keep_going) const {
    const unsigned done = words->iteration + 1;
    words->iteration = done;
    const bool again = keep_going && done < max_iterations;
    if (!again) words->stop = 1;
    if (words->has_handle != 0) cudaGraphSetConditional(words->handle, again ? 1u : 0u);
  }
  // Optional, from one thread of a kernel that precedes the loop task: whether the first
  // iteration runs at all (without it, the loop runs at least once when max_iterations > 0).
  __device__ void start(bool run) const {
    const bool go = run && max_iterations > 0;
    if (!go) words->stop = 1;
    if (words->has_handle != 0) cudaGraphSetConditional(words->handle, go ? 1u : 0u);
  }
  // True once the loop has decided to stop; body kernels return at entry when it is.
  __device__ bool stopped() const { return *static_cast<volatile const int*>(&words->stop) != 0; }
#endif
};

}  // namespace bsrflow
