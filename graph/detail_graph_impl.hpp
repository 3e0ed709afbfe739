// What a TaskGraph records: plain data, no CUDA objects. GraphExec keeps a deep copy of it, so an
// instantiated graph outlives and ignores later changes to the TaskGraph it came from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bsrflow/core/kernel_launch.hpp"
#include "bsrflow/graph/task_graph.hpp"

namespace bsrflow::detail {

enum class TaskKind : std::uint8_t { kernel, capture, memset, copy, loop };

const char* task_kind_name(TaskKind kind) noexcept;

struct BufferUse {
  std::weak_ptr<const void> lifetime;
  std::string label;
};

struct LoopSpec {
  LoopWords* words = nullptr;
  std::shared_ptr<std::weak_ptr<const void>> binding;  // LoopState::binding_
  std::weak_ptr<const void> state_lifetime;
  LoopOptions options;
};

struct TaskRecord {
  TaskKind kind = TaskKind::kernel;
  std::string name;
  KernelLaunch kernel;
  CaptureFn capture;
  void* dst = nullptr;           // memset / copy
  const void* src = nullptr;     // copy
  int value = 0;                 // memset
  std::size_t bytes = 0;         // memset / copy
  LoopSpec loop;
  std::unique_ptr<TaskGraph> body;  // loop: the body's own graph
  std::vector<int> successors;
  std::vector<int> predecessors;
  std::vector<BufferUse> buffers;
};

struct GraphImpl {
  std::string name;
  std::uint64_t id = 0;              // unique per process; tasks remember it
  const GraphImpl* parent = nullptr;  // the enclosing graph of a loop body
  std::string parent_task;           // the loop's name, for messages
  std::vector<TaskRecord> tasks;

  static std::uint64_t next_id();
  Task add(TaskRecord record);
  // "graph 'g'" or "loop body 'cg' of graph 'g'".
  std::string describe() const;
  // Deep copy of the records (loop bodies included), for an instantiated graph.
  std::unique_ptr<GraphImpl> snapshot() const;
  static const GraphImpl& of(const TaskGraph& graph) { return *graph.impl_; }
};

}  // namespace bsrflow::detail
