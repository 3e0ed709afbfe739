// Task graphs of conversions, ops, library calls and user kernels, captured into CUDA Graphs.
//
// Three phases (Taskflow's cudaGraph / PyTorch's CUDAGraph are the usability anchors):
//
//   TaskGraph g("step");                                     // 1. build: records tasks only;
//   Task a = g.kernel("axpy", axpy_launch(n, ...));          //    no CUDA call, no allocation
//   Task b = g.capture("gemm", [&](CaptureContext& ctx) { plan.run(A, B, C, 1.f, 0.f, ctx.stream()); });
//   a.precede(b);                                            //    a before b; unrelated tasks
//   GraphExec exec = g.instantiate(stream);                  // 2. instantiate: captures, allocates
//   exec.launch(stream);                                     // 3. replay, many times
//   exec.update(a, axpy_launch(n, ..., new_y));              //    new arguments, same topology
//
// Task kinds: explicit kernel nodes from a KernelLaunch (updatable in place), stream-captured
// callables (cuBLAS, cuSPARSE, CUB, bsrflow plans: each becomes a child graph, re-capturable),
// memset and device copy nodes, and device-side loops (loop(): a CUDA conditional WHILE node, so
// an iterative solver is one launch). Independent tasks run concurrently.
//
// Tasks are handles, valid while their graph lives. Errors are bsrflow::Error:
//  - a.precede(b) with b from another graph (a loop body is a graph of its own): invalid_argument;
//  - a dependency that closes a cycle: invalid_argument, naming the cycle;
//  - a captured task that synchronises, allocates or frees memory, or (in a loop body) launches
//    a host function: capture, naming the task (at instantiate);
//  - launching after a buffer that a task uses() was freed: invalid_argument, naming both.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/kernel_launch.hpp"
#include "bsrflow/graph/loop_control.hpp"

namespace bsrflow {

class TaskGraph;
class GraphExec;
class CaptureContext;
namespace detail {
struct GraphImpl;
}

// A handle to one task of a TaskGraph.
class Task {
 public:
  Task() = default;

  // This task runs before each of `others` (all in the same graph).
  template <class... Ts>
  Task& precede(Task other, Ts... others) {
    add_edge(*this, other);
    (add_edge(*this, others), ...);
    return *this;
  }
  // This task runs after each of `others`.
  template <class... Ts>
  Task& succeed(Task other, Ts... others) {
    add_edge(other, *this);
    (add_edge(others, *this), ...);
    return *this;
  }
  // Declares that the task reads or writes `buffer`: launching the instantiated graph after the
  // buffer was freed is refused with an error instead of touching freed memory.
  template <class T>
  Task& uses(const DeviceBuffer<T>& buffer, std::string label = "buffer") {
    return uses_lifetime(buffer.lifetime(), std::move(label));
  }
  Task& uses_lifetime(std::weak_ptr<const void> lifetime, std::string label);

  const std::string& name() const;
  bool empty() const noexcept { return graph_ == nullptr; }
  std::uint64_t graph_id() const noexcept { return graph_id_; }
  int id() const noexcept { return id_; }

 private:
  friend class TaskGraph;
  friend struct detail::GraphImpl;
  Task(detail::GraphImpl* graph, std::uint64_t graph_id, int id) : graph_(graph), graph_id_(graph_id), id_(id) {}
  static void add_edge(Task from, Task to);

  detail::GraphImpl* graph_ = nullptr;
  std::uint64_t graph_id_ = 0;
  int id_ = -1;
};

// How a loop runs: conditional WHILE nodes (one launch for the whole loop) or host-checked
// chunks of unrolled iterations (one launch and one host check per chunk).
enum class LoopMode : std::uint8_t { automatic, conditional_node, host_checked };

struct LoopOptions {
  unsigned max_iterations = 1000;
  LoopMode mode = LoopMode::automatic;  // automatic: conditional nodes when the driver has them
  int unroll = 8;                       // host-checked mode: iterations per launch
};

// Device memory of one loop's control words; the user owns it (build never allocates) and
// reads the iteration count back after a launch. Bound to one instantiated graph at a time.
class LoopState {
 public:
  explicit LoopState(cudaStream_t stream);
  LoopWords* words() noexcept { return words_.data(); }
  // The words as the last launch left them (copies back and synchronises `stream`).
  LoopWords read(cudaStream_t stream) const;
  // Iterations completed by the last launch (synchronises `stream`).
  unsigned iterations(cudaStream_t stream) const { return read(stream).iteration; }
  // Whether the last launch's loop stopped by decision or limit (synchronises `stream`).
  bool stopped(cudaStream_t stream) const { return read(stream).stop != 0; }
  // Zeroes the iteration count and the stop flag (stream-ordered), for kernels that use the
  // control outside a graph; a graph does this itself at every launch.
  void reset(cudaStream_t stream);
  std::weak_ptr<const void> lifetime() const noexcept { return words_.lifetime(); }

 private:
  friend class TaskGraph;
  DeviceBuffer<LoopWords> words_;
  std::shared_ptr<std::weak_ptr<const void>> binding_ = std::make_shared<std::weak_ptr<const void>>();
};

// A loop task: its body is a graph of its own, run while the body's decider says so.
class Loop {
 public:
  Task task() const noexcept { return task_; }  // the loop as one task of the enclosing graph
  TaskGraph& body() const noexcept { return *body_; }
  LoopControl control() const noexcept { return control_; }  // for the body's kernels

 private:
  friend class TaskGraph;
  Loop(Task task, TaskGraph* body, LoopControl control) : task_(task), body_(body), control_(control) {}
  Task task_;
  TaskGraph* body_;
  LoopControl control_;
};

// What a captured task sees: the stream to enqueue on, and memory owned by the instantiated
// graph (allocated outside the capture, kept across replays; re-captures of the task get the
// same memory back when they ask for the same sizes in the same order).
class CaptureContext {
 public:
  cudaStream_t stream() const noexcept { return stream_; }
  void* workspace(std::size_t bytes);
  template <class T>
  T* workspace_of(std::size_t count) {
    return static_cast<T*>(workspace(count * sizeof(T)));
  }
  bool recapturing() const noexcept { return recapturing_; }

 private:
  friend class GraphExec;
  struct Slot;
  using Slots = std::vector<std::shared_ptr<Slot>>;
  CaptureContext(cudaStream_t stream, Slots* slots, Slots* retired, bool recapturing)
      : stream_(stream), slots_(slots), retired_(retired), recapturing_(recapturing) {}
  cudaStream_t stream_;
  Slots* slots_;    // this task's workspace, in request order
  Slots* retired_;  // replaced by a larger request; the live graph may still use them
  std::size_t next_ = 0;
  bool recapturing_;
};

using CaptureFn = std::function<void(CaptureContext&)>;

class TaskGraph {
 public:
  explicit TaskGraph(std::string name = "graph");
  ~TaskGraph();
  TaskGraph(TaskGraph&&) noexcept;
  TaskGraph& operator=(TaskGraph&&) noexcept;
  TaskGraph(const TaskGraph&) = delete;
  TaskGraph& operator=(const TaskGraph&) = delete;

  // An explicit kernel node (its arguments can be replaced in place: GraphExec::update).
  Task kernel(std::string name, const KernelLaunch& launch);
  // Work enqueued by `body` on ctx.stream(), captured into a child graph at instantiate (and
  // again by GraphExec::recapture). It must not synchronise, allocate or free.
  Task capture(std::string name, CaptureFn body);
  // Sets `bytes` bytes at `dst` (device memory) to `value`.
  Task memset(std::string name, void* dst, int value, std::size_t bytes);
  // Copies `bytes` bytes device to device.
  Task copy(std::string name, void* dst, const void* src, std::size_t bytes);
  // A device-side loop; `state` must outlive the instantiated graph.
  Loop loop(std::string name, LoopState& state, LoopOptions options = {});

  // Captures, builds and instantiates the CUDA Graph and uploads it on `stream`. The result is
  // independent of this TaskGraph (it keeps copies of the tasks).
  GraphExec instantiate(cudaStream_t stream) const;

  const std::string& name() const;
  std::size_t size() const;  // tasks directly in this graph

 private:
  friend class GraphExec;
  friend struct detail::GraphImpl;
  std::unique_ptr<detail::GraphImpl> impl_;
};

}  // namespace bsrflow
