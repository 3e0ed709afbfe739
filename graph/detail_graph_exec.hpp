// GraphExec's state, shared by the files that build (graph_build.cpp), capture (capture.cpp) and
// launch / update (graph_exec.cpp) it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "bsrflow/graph/detail_graph_impl.hpp"
#include "bsrflow/graph/graph_exec.hpp"

namespace bsrflow {

// Device memory a captured task asked for (CaptureContext::workspace); freed with the GraphExec.
struct CaptureContext::Slot {
  void* ptr = nullptr;
  std::size_t bytes = 0;
  Slot() = default;
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;
  ~Slot();
};

namespace detail {

using TaskKey = std::pair<std::uint64_t, int>;  // (graph id, task id)

// Where one task lives in the instantiated graph(s).
struct NodeRef {
  int exec = 0;                    // index into GraphExec::Impl::execs
  cudaGraphNode_t node = nullptr;  // node in the template graph that exec was instantiated from
  TaskRecord* record = nullptr;    // in GraphExec::Impl::tasks
  const GraphImpl* level = nullptr;  // the graph (top level or loop body) holding the task
  bool in_body = false;
  // Host-checked loop bodies: the body template `body` is embedded once per unrolled iteration
  // as these child nodes of the chunk graph; an update re-embeds it.
  cudaGraph_t body = nullptr;
  std::vector<cudaGraphNode_t> chunk_children;
};

// One step of a launch: replay an executable graph, or drive a host-checked loop.
struct LaunchStep {
  int exec = 0;
  const LoopSpec* loop = nullptr;  // non-null: host-checked loop whose chunk graph is `exec`
};

}  // namespace detail

struct GraphExec::Impl {
  std::unique_ptr<detail::GraphImpl> tasks;  // snapshot of the TaskGraph
  LoopMode mode = LoopMode::conditional_node;
  std::string mode_reason;
  cudaStream_t capture_stream = nullptr;
  std::vector<cudaGraph_t> graphs;         // templates; execs[i] was instantiated from graphs[i]
  std::vector<cudaGraph_t> bodies;         // host-checked loop bodies (embedded in chunk graphs)
  bool template_stale = false;             // a recapture could not be mirrored into graphs[]
  std::vector<cudaGraphExec_t> execs;
  std::vector<detail::LaunchStep> steps;
  std::map<detail::TaskKey, detail::NodeRef> nodes;
  std::map<detail::TaskKey, std::vector<std::shared_ptr<CaptureContext::Slot>>> workspaces;
  std::vector<std::shared_ptr<CaptureContext::Slot>> retired;  // replaced by a recapture; freed last
  std::vector<std::pair<std::string, detail::BufferUse>> buffers;  // (task, use) for launch checks
  std::vector<LoopWords*> host_checked_words;  // reset before each launch in host-checked mode
  LoopWords* pinned = nullptr;                 // host-checked loop polling
  cudaEvent_t last_launch = nullptr;
  std::shared_ptr<const char> alive = std::make_shared<const char>(0);  // LoopState binding
  Stats stats;
  mutable std::mutex mutex;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl();

  const detail::NodeRef& node_of(Task task, detail::TaskKind kind, const char* operation) const;
  // Captures `record` on capture_stream and checks what it produced (capture.cpp).
  cudaGraph_t capture(const detail::TaskRecord& record, const detail::GraphImpl& level, bool in_body,
                      bool recapturing);
};

namespace detail {
// Builds and instantiates `impl` from impl.tasks (graph_build.cpp).
void build_exec(GraphExec::Impl& impl, cudaStream_t stream);
// A 1-D memset of `bytes` bytes.
cudaMemsetParams memset_params(void* dst, int value, std::size_t bytes);
}  // namespace detail

}  // namespace bsrflow
