// GraphExec: instantiate (TaskGraph::instantiate), launch, in-place updates, teardown.
#include "bsrflow/graph/graph_exec.hpp"

#include <cuda_runtime_api.h>

#include <string>
#include <utility>

#include "bsrflow/core/error.hpp"
#include "bsrflow/graph/detail_graph_exec.hpp"

namespace bsrflow {

GraphExec TaskGraph::instantiate(cudaStream_t stream) const {
  BSRFLOW_REQUIRE(impl_->parent == nullptr, Errc::invalid_argument,
                  impl_->describe() + " is instantiated with the graph that holds the loop, not alone");
  auto impl = std::make_unique<GraphExec::Impl>();
  impl->tasks = impl_->snapshot();
  BSRFLOW_CUDA(cudaStreamCreateWithFlags(&impl->capture_stream, cudaStreamNonBlocking));
  detail::build_exec(*impl, stream);
  impl->stats.instantiations = 1;
  return GraphExec(std::move(impl));
}

GraphExec::Impl::~Impl() {
  // Destructors cannot throw: failures here mean a broken context, reported by the next call.
  if (last_launch != nullptr) {
    (void)cudaEventSynchronize(last_launch);  // no launch of this graph may still read workspace
    (void)cudaEventDestroy(last_launch);
  }
  for (cudaGraphExec_t e : execs) (void)cudaGraphExecDestroy(e);
  for (cudaGraph_t g : graphs) (void)cudaGraphDestroy(g);
  for (cudaGraph_t g : bodies) (void)cudaGraphDestroy(g);
  if (capture_stream != nullptr) (void)cudaStreamDestroy(capture_stream);
  if (pinned != nullptr) (void)cudaFreeHost(pinned);
}

const detail::NodeRef& GraphExec::Impl::node_of(Task task, detail::TaskKind kind, const char* operation) const {
  const auto it = nodes.find({task.graph_id(), task.id()});
  BSRFLOW_REQUIRE(!task.empty() && it != nodes.end(), Errc::invalid_argument,
                  std::string(operation) + ": task '" + task.name() + "' is not part of this instantiated graph");
  BSRFLOW_REQUIRE(it->second.record->kind == kind, Errc::invalid_argument,
                  std::string(operation) + ": task '" + it->second.record->name + "' is a " +
                      detail::task_kind_name(it->second.record->kind) + " task, not a " +
                      detail::task_kind_name(kind) + " task");
  return it->second;
}

GraphExec::GraphExec() = default;
GraphExec::GraphExec(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
GraphExec::~GraphExec() = default;
GraphExec::GraphExec(GraphExec&&) noexcept = default;
GraphExec& GraphExec::operator=(GraphExec&&) noexcept = default;

namespace {
GraphExec::Impl& checked(const std::unique_ptr<GraphExec::Impl>& impl) {
  BSRFLOW_REQUIRE(impl != nullptr, Errc::invalid_argument, "GraphExec: empty (default-constructed or moved-from)");
  return *impl;
}

// Applies an update to one node: directly when the driver takes it, else by re-embedding a
// host-checked loop body, else through a whole-graph cudaGraphExecUpdate from the template.
template <class PerNode>
void apply_update(GraphExec::Impl& impl, const detail::NodeRef& ref, PerNode per_node, GraphExec::Stats& stats) {
  cudaGraphExec_t exec = impl.execs[static_cast<std::size_t>(ref.exec)];
  if (!ref.chunk_children.empty()) {
    for (cudaGraphNode_t child : ref.chunk_children)
      BSRFLOW_CUDA(cudaGraphExecChildGraphNodeSetParams(exec, child, ref.body));
    ++stats.node_updates;
    return;
  }
  if (per_node(exec) == cudaSuccess) {
    ++stats.node_updates;
    return;
  }
  (void)cudaGetLastError();
  BSRFLOW_REQUIRE(!impl.template_stale, Errc::unsupported,
                  "update of task '" + ref.record->name +
                      "': the driver needs a whole-graph update here, which would undo an earlier recapture; "
                      "instantiate the graph again");
  cudaGraphExecUpdateResultInfo info{};
  BSRFLOW_CUDA(cudaGraphExecUpdate(exec, impl.graphs[static_cast<std::size_t>(ref.exec)], &info));
  ++stats.whole_graph_updates;
}
}  // namespace

void GraphExec::launch(cudaStream_t stream) {
  Impl& impl = checked(impl_);
  std::lock_guard lock(impl.mutex);
  for (const auto& [task, use] : impl.buffers)
    BSRFLOW_REQUIRE(!use.lifetime.expired(), Errc::invalid_argument,
                    "launch of " + impl.tasks->describe() + ": " + use.label + " used by task '" + task +
                        "' was freed after the graph was built; keep it alive or build a new graph");
  for (LoopWords* words : impl.host_checked_words)
    BSRFLOW_CUDA(cudaMemsetAsync(&words->iteration, 0, 2 * sizeof(unsigned), stream));
  for (const detail::LaunchStep& step : impl.steps) {
    cudaGraphExec_t exec = impl.execs[static_cast<std::size_t>(step.exec)];
    if (step.loop == nullptr) {
      BSRFLOW_CUDA(cudaGraphLaunch(exec, stream));
      continue;
    }
    // Host-checked loop: chunks of unrolled iterations until the device words say stop.
    const unsigned max_iterations = step.loop->options.max_iterations;
    auto poll = [&] {
      BSRFLOW_CUDA(cudaMemcpyAsync(impl.pinned, step.loop->words, sizeof(LoopWords), cudaMemcpyDeviceToHost, stream));
      BSRFLOW_CUDA(cudaStreamSynchronize(stream));
      return impl.pinned->stop == 0 && impl.pinned->iteration < max_iterations;
    };
    while (poll()) BSRFLOW_CUDA(cudaGraphLaunch(exec, stream));
  }
  BSRFLOW_CUDA(cudaEventRecord(impl.last_launch, stream));
  ++impl.stats.launches;
}

void GraphExec::update(Task kernel_task, const KernelLaunch& launch) {
  Impl& impl = checked(impl_);
  std::lock_guard lock(impl.mutex);
  const detail::NodeRef& ref = impl.node_of(kernel_task, detail::TaskKind::kernel, "update");
  BSRFLOW_REQUIRE(!launch.empty() && launch.func() == ref.record->kernel.func(), Errc::invalid_argument,
                  "update: task '" + ref.record->name +
                      "' was built with another kernel function; a different kernel needs a new graph");
  BSRFLOW_REQUIRE(launch.is_cooperative() == ref.record->kernel.is_cooperative(), Errc::invalid_argument,
                  "update: task '" + ref.record->name + "' was built as a " +
                      (ref.record->kernel.is_cooperative() ? "cooperative" : "non-cooperative") +
                      " launch; the update must be one too");
  const cudaKernelNodeParams p = launch.node_params();
  BSRFLOW_CUDA(cudaGraphKernelNodeSetParams(ref.node, &p));  // keep the template in step
  apply_update(impl, ref, [&](cudaGraphExec_t e) { return cudaGraphExecKernelNodeSetParams(e, ref.node, &p); },
               impl.stats);
  ref.record->kernel = launch;  // its argument copy is what the template now points to
}

void GraphExec::update_memset(Task memset_task, void* dst, int value) {
  Impl& impl = checked(impl_);
  std::lock_guard lock(impl.mutex);
  const detail::NodeRef& ref = impl.node_of(memset_task, detail::TaskKind::memset, "update_memset");
  BSRFLOW_REQUIRE(dst != nullptr || ref.record->bytes == 0, Errc::invalid_argument,
                  "update_memset: task '" + ref.record->name + "': null destination");
  if (ref.record->bytes > 0) {
    const cudaMemsetParams p = detail::memset_params(dst, value, ref.record->bytes);
    BSRFLOW_CUDA(cudaGraphMemsetNodeSetParams(ref.node, &p));
    apply_update(impl, ref, [&](cudaGraphExec_t e) { return cudaGraphExecMemsetNodeSetParams(e, ref.node, &p); },
                 impl.stats);
  }
  ref.record->dst = dst;
  ref.record->value = value;
}

void GraphExec::update_copy(Task copy_task, void* dst, const void* src) {
  Impl& impl = checked(impl_);
  std::lock_guard lock(impl.mutex);
  const detail::NodeRef& ref = impl.node_of(copy_task, detail::TaskKind::copy, "update_copy");
  const std::size_t bytes = ref.record->bytes;
  BSRFLOW_REQUIRE((dst != nullptr && src != nullptr) || bytes == 0, Errc::invalid_argument,
                  "update_copy: task '" + ref.record->name + "': null source or destination");
  if (bytes > 0) {
    BSRFLOW_CUDA(cudaGraphMemcpyNodeSetParams1D(ref.node, dst, src, bytes, cudaMemcpyDefault));
    apply_update(
        impl, ref,
        [&](cudaGraphExec_t e) { return cudaGraphExecMemcpyNodeSetParams1D(e, ref.node, dst, src, bytes, cudaMemcpyDefault); },
        impl.stats);
  }
  ref.record->dst = dst;
  ref.record->src = src;
}

void GraphExec::recapture(Task capture_task) {
  Impl& impl = checked(impl_);
  std::lock_guard lock(impl.mutex);
  const detail::NodeRef& ref = impl.node_of(capture_task, detail::TaskKind::capture, "recapture");
  BSRFLOW_REQUIRE(ref.chunk_children.empty(), Errc::unsupported,
                  "recapture: task '" + ref.record->name +
                      "' is in a host-checked loop body, where captured tasks cannot be swapped; instantiate again");
  cudaGraph_t fresh = impl.capture(*ref.record, *ref.level, ref.in_body, true);
  const cudaError_t status =
      cudaGraphExecChildGraphNodeSetParams(impl.execs[static_cast<std::size_t>(ref.exec)], ref.node, fresh);
  if (status != cudaSuccess) {
    (void)cudaGraphDestroy(fresh);
    (void)cudaGetLastError();
    BSRFLOW_FAIL(Errc::invalid_argument, ref.level->describe() + ": recapture of task '" + ref.record->name +
                                             "' does not fit the instantiated graph (" + cudaGetErrorName(status) +
                                             "): the captured work changed shape; instantiate the graph again");
  }
  // Mirror it into the template so a later whole-graph update does not bring the old work back.
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeGraph;
  p.graph.graph = fresh;
  if (cudaGraphNodeSetParams(ref.node, &p) != cudaSuccess) {
    (void)cudaGetLastError();
    impl.template_stale = true;
  }
  (void)cudaGraphDestroy(fresh);
  ++impl.stats.recaptures;
}

LoopMode GraphExec::loop_mode() const { return checked(impl_).mode; }
const std::string& GraphExec::loop_mode_reason() const { return checked(impl_).mode_reason; }
cudaGraphExec_t GraphExec::native() const {
  const Impl& impl = checked(impl_);
  return impl.execs.empty() ? nullptr : impl.execs.front();
}
GraphExec::Stats GraphExec::stats() const {
  const Impl& impl = checked(impl_);
  std::lock_guard lock(impl.mutex);
  return impl.stats;
}

}  // namespace bsrflow
