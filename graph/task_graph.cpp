// The build phase: records tasks and edges, checks dependencies. No CUDA call happens here except
// in LoopState (which the user constructs to own a loop's device words).
#include "bsrflow/graph/task_graph.hpp"

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "bsrflow/core/error.hpp"
#include "bsrflow/graph/detail_graph_impl.hpp"

namespace bsrflow {
namespace detail {

const char* task_kind_name(TaskKind kind) noexcept {
  switch (kind) {
    case TaskKind::kernel: return "kernel";
    case TaskKind::capture: return "capture";
    case TaskKind::memset: return "memset";
    case TaskKind::copy: return "copy";
    case TaskKind::loop: return "loop";
  }
  return "task";
}

std::uint64_t GraphImpl::next_id() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}

Task GraphImpl::add(TaskRecord record) {
  const int id = static_cast<int>(tasks.size());
  if (record.name.empty()) record.name = std::string(task_kind_name(record.kind)) + "#" + std::to_string(id);
  tasks.push_back(std::move(record));
  return Task(this, this->id, id);
}

std::string GraphImpl::describe() const {
  if (parent == nullptr) return "graph '" + name + "'";
  return "loop body '" + parent_task + "' of " + parent->describe();
}

std::unique_ptr<GraphImpl> GraphImpl::snapshot() const {
  auto copy = std::make_unique<GraphImpl>();
  copy->name = name;
  copy->id = id;
  copy->parent = parent;
  copy->parent_task = parent_task;
  copy->tasks.reserve(tasks.size());
  for (const TaskRecord& t : tasks) {
    TaskRecord r;
    r.kind = t.kind;
    r.name = t.name;
    r.kernel = t.kernel;
    r.capture = t.capture;
    r.dst = t.dst;
    r.src = t.src;
    r.value = t.value;
    r.bytes = t.bytes;
    r.loop = t.loop;
    r.successors = t.successors;
    r.predecessors = t.predecessors;
    r.buffers = t.buffers;
    if (t.body) {
      r.body = std::make_unique<TaskGraph>(t.body->name());
      r.body->impl_ = t.body->impl_->snapshot();
      r.body->impl_->parent = copy.get();
    }
    copy->tasks.push_back(std::move(r));
  }
  return copy;
}

namespace {
// A path of task ids from `from` to `target` along successor edges, empty if none.
bool find_path(const GraphImpl& g, int from, int target, std::vector<int>& path, std::vector<char>& seen) {
  path.push_back(from);
  if (from == target) return true;
  seen[static_cast<std::size_t>(from)] = 1;
  for (int next : g.tasks[static_cast<std::size_t>(from)].successors)
    if (!seen[static_cast<std::size_t>(next)] && find_path(g, next, target, path, seen)) return true;
  path.pop_back();
  return false;
}
}  // namespace

}  // namespace detail

// ---- Task -------------------------------------------------------------------------------------

void Task::add_edge(Task from, Task to) {
  BSRFLOW_REQUIRE(!from.empty() && !to.empty(), Errc::invalid_argument,
                  "precede/succeed: an empty Task handle (default-constructed, not made by a TaskGraph)");
  detail::GraphImpl& g = *from.graph_;
  if (from.graph_id_ != to.graph_id_) {
    BSRFLOW_FAIL(Errc::invalid_argument,
                 "task '" + to.name() + "' belongs to " + to.graph_->describe() + ", not to " + g.describe() +
                     " of task '" + from.name() +
                     "': dependencies stay inside one graph (a loop body is a graph of its own)");
  }
  auto& succ = g.tasks[static_cast<std::size_t>(from.id_)].successors;
  for (int s : succ)
    if (s == to.id_) return;  // already there
  std::vector<int> path;
  std::vector<char> seen(g.tasks.size(), 0);
  if (detail::find_path(g, to.id_, from.id_, path, seen)) {
    std::string cycle;
    for (int id : path) cycle += "'" + g.tasks[static_cast<std::size_t>(id)].name + "' -> ";
    cycle += "'" + to.name() + "'";
    BSRFLOW_FAIL(Errc::invalid_argument, g.describe() + ": '" + from.name() + "' before '" + to.name() +
                                             "' would close the cycle " + cycle);
  }
  succ.push_back(to.id_);
  g.tasks[static_cast<std::size_t>(to.id_)].predecessors.push_back(from.id_);
}

Task& Task::uses_lifetime(std::weak_ptr<const void> lifetime, std::string label) {
  BSRFLOW_REQUIRE(!empty(), Errc::invalid_argument, "uses: an empty Task handle");
  const std::weak_ptr<const void> none;
  BSRFLOW_REQUIRE(lifetime.owner_before(none) || none.owner_before(lifetime), Errc::invalid_argument,
                  "uses: " + label + " of task '" + name() + "' is a default-constructed buffer (no memory to track)");
  graph_->tasks[static_cast<std::size_t>(id_)].buffers.push_back({std::move(lifetime), std::move(label)});
  return *this;
}

const std::string& Task::name() const {
  static const std::string none = "(empty task)";
  return empty() ? none : graph_->tasks[static_cast<std::size_t>(id_)].name;
}

// ---- LoopState --------------------------------------------------------------------------------

LoopState::LoopState(cudaStream_t stream) : words_(1, stream) { words_.fill_bytes(0, stream); }

LoopWords LoopState::read(cudaStream_t stream) const { return words_.to_host(stream).at(0); }

void LoopState::reset(cudaStream_t stream) {
  BSRFLOW_CUDA(cudaMemsetAsync(&words_.data()->iteration, 0, 2 * sizeof(unsigned), stream));
}

// ---- TaskGraph --------------------------------------------------------------------------------

TaskGraph::TaskGraph(std::string name) : impl_(std::make_unique<detail::GraphImpl>()) {
  impl_->name = std::move(name);
  impl_->id = detail::GraphImpl::next_id();
}
TaskGraph::~TaskGraph() = default;
TaskGraph::TaskGraph(TaskGraph&&) noexcept = default;
TaskGraph& TaskGraph::operator=(TaskGraph&&) noexcept = default;

const std::string& TaskGraph::name() const { return impl_->name; }
std::size_t TaskGraph::size() const { return impl_->tasks.size(); }

Task TaskGraph::kernel(std::string name, const KernelLaunch& launch) {
  BSRFLOW_REQUIRE(!launch.empty(), Errc::invalid_argument,
                  impl_->describe() + ": kernel task '" + name + "' has an empty KernelLaunch");
  detail::TaskRecord r;
  r.kind = detail::TaskKind::kernel;
  r.name = std::move(name);
  r.kernel = launch;
  return impl_->add(std::move(r));
}

Task TaskGraph::capture(std::string name, CaptureFn body) {
  BSRFLOW_REQUIRE(static_cast<bool>(body), Errc::invalid_argument,
                  impl_->describe() + ": capture task '" + name + "' has no callable");
  detail::TaskRecord r;
  r.kind = detail::TaskKind::capture;
  r.name = std::move(name);
  r.capture = std::move(body);
  return impl_->add(std::move(r));
}

Task TaskGraph::memset(std::string name, void* dst, int value, std::size_t bytes) {
  BSRFLOW_REQUIRE(dst != nullptr || bytes == 0, Errc::invalid_argument,
                  impl_->describe() + ": memset task '" + name + "' has a null destination");
  detail::TaskRecord r;
  r.kind = detail::TaskKind::memset;
  r.name = std::move(name);
  r.dst = dst;
  r.value = value;
  r.bytes = bytes;
  return impl_->add(std::move(r));
}

Task TaskGraph::copy(std::string name, void* dst, const void* src, std::size_t bytes) {
  BSRFLOW_REQUIRE((dst != nullptr && src != nullptr) || bytes == 0, Errc::invalid_argument,
                  impl_->describe() + ": copy task '" + name + "' has a null source or destination");
  detail::TaskRecord r;
  r.kind = detail::TaskKind::copy;
  r.name = std::move(name);
  r.dst = dst;
  r.src = src;
  r.bytes = bytes;
  return impl_->add(std::move(r));
}

Loop TaskGraph::loop(std::string name, LoopState& state, LoopOptions options) {
  BSRFLOW_REQUIRE(options.unroll >= 1 && options.unroll <= 64, Errc::invalid_argument,
                  impl_->describe() + ": loop '" + name + "': unroll must be in 1..64, not " +
                      std::to_string(options.unroll));
  detail::TaskRecord r;
  r.kind = detail::TaskKind::loop;
  r.name = std::move(name);
  r.loop.words = state.words();
  r.loop.binding = state.binding_;
  r.loop.state_lifetime = state.lifetime();
  r.loop.options = options;
  r.buffers.push_back({state.lifetime(), "LoopState"});
  r.body = std::make_unique<TaskGraph>(r.name + " body");
  TaskGraph* body = r.body.get();
  Task task = impl_->add(std::move(r));
  body->impl_->parent = impl_.get();
  body->impl_->parent_task = task.name();
  return Loop(task, body, LoopControl{state.words(), options.max_iterations});
}

}  // namespace bsrflow
