// Instantiation: turns the recorded tasks into CUDA graph nodes and executable graphs.
//
// Conditional mode: one graph; a loop is a WHILE conditional node whose handle is created here and
// written into the LoopState's device words (so body kernels, built before any CUDA graph exists,
// find it), with a memset that resets the words as a root of the graph that holds the loop.
//
// Host-checked mode: the top level is cut into segments at the loops (a task goes after every loop
// it depends on, transitively), each segment one executable graph; a loop becomes a chunk graph
// of `unroll` copies of its body that launch() replays until the device words say stop.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>
#include <vector>

#include "bsrflow/core/error.hpp"
#include "bsrflow/graph/detail_graph_exec.hpp"

namespace bsrflow::detail {
namespace {

std::vector<int> topological_order(const GraphImpl& g) {
  const std::size_t n = g.tasks.size();
  std::vector<int> pending(n), order;
  order.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    pending[i] = static_cast<int>(g.tasks[i].predecessors.size());
    if (pending[i] == 0) order.push_back(static_cast<int>(i));
  }
  for (std::size_t head = 0; head < order.size(); ++head)
    for (int s : g.tasks[static_cast<std::size_t>(order[head])].successors)
      if (--pending[static_cast<std::size_t>(s)] == 0) order.push_back(s);
  // precede() refuses cycles, so every task is ordered.
  return order;
}

bool driver_has_conditional_nodes(int* version) {
  *version = 0;
  if (cudaDriverGetVersion(version) != cudaSuccess) return false;
  return *version >= 12030;
}

std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

class Builder {
 public:
  Builder(GraphExec::Impl& impl, cudaStream_t stream) : impl_(impl), stream_(stream) {}

  void build() {
    const GraphImpl& top = *impl_.tasks;
    resolve_mode(top);
    if (impl_.mode == LoopMode::conditional_node) {
      cudaGraph_t g = new_graph();
      add_level(top, g, static_cast<int>(impl_.graphs.size()) - 1, false);
      impl_.steps.push_back({instantiate(g), nullptr});
    } else {
      build_host_checked(top);
      BSRFLOW_CUDA(cudaMallocHost(reinterpret_cast<void**>(&impl_.pinned), sizeof(LoopWords)));
    }
    collect_buffers(top);
    BSRFLOW_CUDA(cudaEventCreateWithFlags(&impl_.last_launch, cudaEventDisableTiming));
    BSRFLOW_CUDA(cudaStreamSynchronize(stream_));  // loop words written, graphs uploaded
  }

 private:
  void resolve_mode(const GraphImpl& top) {
    std::string host_checked_by, conditional_by;
    for (const TaskRecord& t : top.tasks) {
      if (t.kind != TaskKind::loop) continue;
      for (const TaskRecord& inner : GraphImpl::of(*t.body).tasks)
        BSRFLOW_REQUIRE(inner.kind != TaskKind::loop, Errc::unsupported,
                        top.describe() + ": loop '" + inner.name + "' inside the body of loop '" + t.name +
                            "': nested loops are not supported");
      if (t.loop.options.mode == LoopMode::host_checked && host_checked_by.empty()) host_checked_by = t.name;
      if (t.loop.options.mode == LoopMode::conditional_node && conditional_by.empty()) conditional_by = t.name;
    }
    BSRFLOW_REQUIRE(host_checked_by.empty() || conditional_by.empty(), Errc::unsupported,
                    top.describe() + ": loop '" + host_checked_by + "' asks for host-checked mode and loop '" +
                        conditional_by + "' for conditional nodes; one graph runs all its loops one way");
    int version = 0;
    const bool supported = driver_has_conditional_nodes(&version);
    if (!host_checked_by.empty()) {
      impl_.mode = LoopMode::host_checked;
      impl_.mode_reason = "host-checked loops (asked for by loop '" + host_checked_by + "')";
    } else if (supported) {
      impl_.mode = LoopMode::conditional_node;
      impl_.mode_reason = "conditional WHILE nodes (driver " + version_text(version) + ")";
    } else {
      BSRFLOW_REQUIRE(conditional_by.empty(), Errc::unsupported,
                      top.describe() + ": loop '" + conditional_by + "' needs conditional graph nodes, which driver " +
                          version_text(version) + " lacks (12.3 or newer needed)");
      impl_.mode = LoopMode::host_checked;
      impl_.mode_reason = "host-checked loops: driver " + version_text(version) +
                          " has no conditional graph nodes (12.3 or newer needed)";
    }
  }

  cudaGraph_t new_graph() {
    cudaGraph_t g = nullptr;
    BSRFLOW_CUDA(cudaGraphCreate(&g, 0));
    impl_.graphs.push_back(g);
    return g;
  }

  int instantiate(cudaGraph_t g) {
    cudaGraphExec_t exec = nullptr;
    BSRFLOW_CUDA(cudaGraphInstantiateWithFlags(&exec, g, 0));
    impl_.execs.push_back(exec);
    BSRFLOW_CUDA(cudaGraphUpload(exec, stream_));
    return static_cast<int>(impl_.execs.size()) - 1;
  }

  void bind_loop(const TaskRecord& r, const std::string& where) {
    BSRFLOW_REQUIRE(!r.loop.state_lifetime.expired(), Errc::invalid_argument,
                    where + ": loop '" + r.name + "': its LoopState was destroyed before instantiation");
    BSRFLOW_REQUIRE(r.loop.binding->expired(), Errc::invalid_argument,
                    where + ": loop '" + r.name +
                        "': its LoopState is bound to another live instantiated graph; give each GraphExec its own "
                        "TaskGraph and LoopState");
    *r.loop.binding = impl_.alive;
  }

  void write_words(LoopWords* words, cudaGraphConditionalHandle handle, bool has_handle) {
    LoopWords w{};
    w.handle = handle;
    w.has_handle = has_handle ? 1 : 0;
    BSRFLOW_CUDA(cudaMemcpyAsync(words, &w, sizeof w, cudaMemcpyHostToDevice, stream_));
  }

  // Adds every task of `level` to `g`; loops become WHILE nodes (conditional mode only).
  void add_level(const GraphImpl& level, cudaGraph_t g, int exec, bool in_body) {
    std::vector<cudaGraphNode_t> roots;  // loop-word resets, before everything else at this level
    for (const TaskRecord& t : level.tasks) {
      if (t.kind != TaskKind::loop) continue;
      bind_loop(t, level.describe());
      cudaMemsetParams p{};
      p.dst = &t.loop.words->iteration;  // iteration and stop: two adjacent 4-byte words
      p.value = 0;
      p.elementSize = 4;
      p.width = 2;
      p.height = 1;
      cudaGraphNode_t reset = nullptr;
      BSRFLOW_CUDA(cudaGraphAddMemsetNode(&reset, g, nullptr, 0, &p));
      roots.push_back(reset);
    }
    std::vector<cudaGraphNode_t> node_of(level.tasks.size(), nullptr);
    for (int id : topological_order(level)) {
      const TaskRecord& t = level.tasks[static_cast<std::size_t>(id)];
      std::vector<cudaGraphNode_t> deps;
      for (int p : t.predecessors) deps.push_back(node_of[static_cast<std::size_t>(p)]);
      if (deps.empty()) deps = roots;
      node_of[static_cast<std::size_t>(id)] = add_task(level, t, g, deps, exec, in_body);
    }
  }

  cudaGraphNode_t add_task(const GraphImpl& level, const TaskRecord& t, cudaGraph_t g,
                           const std::vector<cudaGraphNode_t>& deps, int exec, bool in_body) {
    cudaGraphNode_t node = nullptr;
    const cudaGraphNode_t* d = deps.empty() ? nullptr : deps.data();
    switch (t.kind) {
      case TaskKind::kernel: {
        const cudaKernelNodeParams p = t.kernel.node_params();
        BSRFLOW_CUDA(cudaGraphAddKernelNode(&node, g, d, deps.size(), &p));
        if (t.kernel.is_cooperative()) {
          cudaLaunchAttributeValue value{};
          value.cooperative = 1;
          BSRFLOW_CUDA(cudaGraphKernelNodeSetAttribute(node, cudaLaunchAttributeCooperative, &value));
        }
        break;
      }
      case TaskKind::memset:
        if (t.bytes == 0) {
          BSRFLOW_CUDA(cudaGraphAddEmptyNode(&node, g, d, deps.size()));
        } else {
          const cudaMemsetParams p = memset_params(t.dst, t.value, t.bytes);
          BSRFLOW_CUDA(cudaGraphAddMemsetNode(&node, g, d, deps.size(), &p));
        }
        break;
      case TaskKind::copy:
        if (t.bytes == 0) {
          BSRFLOW_CUDA(cudaGraphAddEmptyNode(&node, g, d, deps.size()));
        } else {
          BSRFLOW_CUDA(cudaGraphAddMemcpyNode1D(&node, g, d, deps.size(), t.dst, t.src, t.bytes, cudaMemcpyDefault));
        }
        break;
      case TaskKind::capture: {
        cudaGraph_t child = impl_.capture(t, level, in_body, false);
        const cudaError_t status = cudaGraphAddChildGraphNode(&node, g, d, deps.size(), child);
        (void)cudaGraphDestroy(child);  // the node holds its own copy
        BSRFLOW_CUDA(status);
        break;
      }
      case TaskKind::loop: {
        cudaGraphConditionalHandle handle = 0;
        BSRFLOW_CUDA(cudaGraphConditionalHandleCreate(&handle, g, t.loop.options.max_iterations > 0 ? 1u : 0u,
                                                      cudaGraphCondAssignDefault));
        write_words(t.loop.words, handle, true);
        cudaGraphNodeParams p{};
        p.type = cudaGraphNodeTypeConditional;
        p.conditional.handle = handle;
        p.conditional.type = cudaGraphCondTypeWhile;
        p.conditional.size = 1;
        BSRFLOW_CUDA(cudaGraphAddNode(&node, g, d, nullptr, deps.size(), &p));
        add_level(GraphImpl::of(*t.body), p.conditional.phGraph_out[0], exec, true);
        break;
      }
    }
    NodeRef& ref = impl_.nodes[{level.id, static_cast<int>(&t - level.tasks.data())}];
    ref.exec = exec;
    ref.node = node;
    ref.record = const_cast<TaskRecord*>(&t);
    ref.level = &level;
    ref.in_body = in_body;
    return node;
  }

  void build_host_checked(const GraphImpl& top) {
    // Segment of each task: the number of loops it follows (transitively); loops of segment s
    // run after the plain tasks of segment s.
    const std::vector<int> order = topological_order(top);
    std::vector<int> segment(top.tasks.size(), 0);
    int last = 0;
    for (int id : order) {
      const TaskRecord& t = top.tasks[static_cast<std::size_t>(id)];
      for (int p : t.predecessors) {
        const TaskRecord& pt = top.tasks[static_cast<std::size_t>(p)];
        segment[static_cast<std::size_t>(id)] = std::max(
            segment[static_cast<std::size_t>(id)], segment[static_cast<std::size_t>(p)] + (pt.kind == TaskKind::loop ? 1 : 0));
      }
      last = std::max(last, segment[static_cast<std::size_t>(id)]);
    }
    for (int s = 0; s <= last; ++s) {
      cudaGraph_t g = nullptr;
      std::vector<cudaGraphNode_t> node_of(top.tasks.size(), nullptr);
      for (int id : order) {
        const TaskRecord& t = top.tasks[static_cast<std::size_t>(id)];
        if (segment[static_cast<std::size_t>(id)] != s || t.kind == TaskKind::loop) continue;
        if (g == nullptr) g = new_graph();
        std::vector<cudaGraphNode_t> deps;
        for (int p : t.predecessors)
          if (node_of[static_cast<std::size_t>(p)] != nullptr) deps.push_back(node_of[static_cast<std::size_t>(p)]);
        node_of[static_cast<std::size_t>(id)] = add_task(top, t, g, deps, static_cast<int>(impl_.graphs.size()) - 1, false);
      }
      if (g != nullptr) impl_.steps.push_back({instantiate(g), nullptr});
      for (int id : order) {
        const TaskRecord& t = top.tasks[static_cast<std::size_t>(id)];
        if (segment[static_cast<std::size_t>(id)] == s && t.kind == TaskKind::loop) add_host_checked_loop(top, t);
      }
    }
  }

  void add_host_checked_loop(const GraphImpl& top, const TaskRecord& t) {
    bind_loop(t, top.describe());
    write_words(t.loop.words, 0, false);
    impl_.host_checked_words.push_back(t.loop.words);
    cudaGraph_t body = nullptr;
    BSRFLOW_CUDA(cudaGraphCreate(&body, 0));
    impl_.bodies.push_back(body);
    cudaGraph_t chunk = new_graph();
    const int exec = static_cast<int>(impl_.graphs.size()) - 1;
    const GraphImpl& level = GraphImpl::of(*t.body);
    add_level(level, body, exec, true);
    std::vector<cudaGraphNode_t> children;
    for (int u = 0; u < t.loop.options.unroll; ++u) {
      cudaGraphNode_t child = nullptr;
      const cudaGraphNode_t* prev = children.empty() ? nullptr : &children.back();
      BSRFLOW_CUDA(cudaGraphAddChildGraphNode(&child, chunk, prev, prev ? 1 : 0, body));
      children.push_back(child);
    }
    for (std::size_t i = 0; i < level.tasks.size(); ++i) {
      NodeRef& ref = impl_.nodes[{level.id, static_cast<int>(i)}];
      ref.body = body;
      ref.chunk_children = children;
    }
    impl_.steps.push_back({instantiate(chunk), &t.loop});
  }

  void collect_buffers(const GraphImpl& level) {
    for (const TaskRecord& t : level.tasks) {
      for (const BufferUse& use : t.buffers) impl_.buffers.emplace_back(t.name, use);
      if (t.body) collect_buffers(GraphImpl::of(*t.body));
    }
  }

  GraphExec::Impl& impl_;
  cudaStream_t stream_;
};

}  // namespace

cudaMemsetParams memset_params(void* dst, int value, std::size_t bytes) {
  cudaMemsetParams p{};
  p.dst = dst;
  p.value = static_cast<unsigned>(value) & 0xFFu;
  p.elementSize = 1;
  p.width = bytes;
  p.height = 1;
  return p;
}

void build_exec(GraphExec::Impl& impl, cudaStream_t stream) { Builder(impl, stream).build(); }

}  // namespace bsrflow::detail
