// An instantiated TaskGraph: launched (replayed) many times, updated in place between launches.
//
// Updates never re-instantiate: update() replaces a kernel task's arguments / grid
// (cudaGraphExecKernelNodeSetParams, or a whole-graph cudaGraphExecUpdate where the driver
// refuses the per-node call, e.g. inside some conditional bodies), update_memset / update_copy
// retarget 1-D memset and copy tasks, recapture() runs a capture task's callable again and swaps
// the new child graph in (same topology required). stats() counts each kind, so a caller can
// check that the update path was taken.
//
// Launches of one GraphExec are ordered by CUDA (a launch starts after the previous one of the
// same executable graph ends, whatever the stream); GraphExec serialises its own host state, so
// several host threads may launch and update it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <string>

#include "bsrflow/core/kernel_launch.hpp"
#include "bsrflow/graph/task_graph.hpp"

namespace bsrflow {

class GraphExec {
 public:
  GraphExec();
  ~GraphExec();  // waits for the last launch, then frees the graph's workspace
  GraphExec(GraphExec&&) noexcept;
  GraphExec& operator=(GraphExec&&) noexcept;
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;

  // Replays the graph on `stream`. Throws Error(invalid_argument) if a buffer that a task
  // declared with uses() was freed. In host-checked loop mode this synchronises `stream` once
  // per chunk of loop iterations.
  void launch(cudaStream_t stream);

  // New arguments / grid for a kernel task (same kernel function).
  void update(Task kernel_task, const KernelLaunch& launch);
  // New destination / value / size for a memset task, or source / destination for a copy task
  // (1-D, same number of bytes: the node's shape is part of the topology).
  void update_memset(Task memset_task, void* dst, int value);
  void update_copy(Task copy_task, void* dst, const void* src);
  // Captures the task's callable again (it sees whatever its closure refers to now) and swaps
  // the result in; the captured work must have the same topology as at instantiation.
  void recapture(Task capture_task);

  LoopMode loop_mode() const;               // conditional_node or host_checked, as resolved
  const std::string& loop_mode_reason() const;  // why, in words (printed by the benchmarks)
  cudaGraphExec_t native() const;           // the executable graph (first segment in host-checked mode)

  struct Stats {
    int instantiations = 0;       // always 1: updates never re-instantiate
    long long launches = 0;
    int node_updates = 0;         // per-node parameter updates applied
    int whole_graph_updates = 0;  // updates that needed cudaGraphExecUpdate
    int recaptures = 0;
  };
  Stats stats() const;

  struct Impl;

 private:
  friend class TaskGraph;
  explicit GraphExec(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace bsrflow
