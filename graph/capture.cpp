// Capture of one task's callable into a child graph, and the checks that make an illegal capture
// an error naming the task instead of a broken graph later.
//
// NOTES: capture runs in cudaStreamCaptureModeThreadLocal, so a call from this thread that would
// synchronise or allocate outside the stream (cudaMalloc, cudaMemcpy, cudaStreamSynchronize...)
// fails and invalidates the capture. cudaMallocAsync / cudaFreeAsync are legal in a capture but
// become memory nodes that a replayed solver step must not have (and that a loop body may not
// hold): the produced graph is scanned for them.
#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "bsrflow/core/error.hpp"
#include "bsrflow/graph/detail_graph_exec.hpp"

namespace bsrflow {

CaptureContext::Slot::~Slot() {
  if (ptr != nullptr) (void)cudaFree(ptr);
}

void* CaptureContext::workspace(std::size_t bytes) {
  const std::size_t index = next_++;
  if (index < slots_->size() && (*slots_)[index]->bytes >= bytes) return (*slots_)[index]->ptr;
  auto slot = std::make_shared<Slot>();
  slot->bytes = bytes;
  if (bytes > 0) {
    // Allocated outside the graph: cudaMalloc is illegal in this thread's capture mode, so relax
    // the mode for this one call.
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    BSRFLOW_CUDA(cudaThreadExchangeStreamCaptureMode(&mode));
    const cudaError_t status = cudaMalloc(&slot->ptr, bytes);
    (void)cudaThreadExchangeStreamCaptureMode(&mode);
    BSRFLOW_CUDA(status);
  }
  if (index < slots_->size()) {
    retired_->push_back((*slots_)[index]);  // the instantiated graph may still read it
    (*slots_)[index] = slot;
  } else {
    slots_->push_back(slot);
  }
  return slot->ptr;
}

namespace {

void abort_capture(cudaStream_t stream) {
  cudaGraph_t partial = nullptr;
  (void)cudaStreamEndCapture(stream, &partial);
  if (partial != nullptr) (void)cudaGraphDestroy(partial);
  (void)cudaGetLastError();
}

const char* node_type_name(cudaGraphNodeType type) {
  switch (type) {
    case cudaGraphNodeTypeHost: return "host function";
    case cudaGraphNodeTypeWaitEvent: return "event wait";
    case cudaGraphNodeTypeEventRecord: return "event record";
    case cudaGraphNodeTypeExtSemaphoreSignal: return "external semaphore signal";
    case cudaGraphNodeTypeExtSemaphoreWait: return "external semaphore wait";
    case cudaGraphNodeTypeMemAlloc: return "memory allocation";
    case cudaGraphNodeTypeMemFree: return "memory free";
    default: return "unsupported";
  }
}

// Scans `graph` (child graphs included) for node types the task may not produce.
void check_nodes(cudaGraph_t graph, const std::string& task, const std::string& where, bool in_body) {
  std::size_t count = 0;
  BSRFLOW_CUDA(cudaGraphGetNodes(graph, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  if (count > 0) BSRFLOW_CUDA(cudaGraphGetNodes(graph, nodes.data(), &count));
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type{};
    BSRFLOW_CUDA(cudaGraphNodeGetType(node, &type));
    switch (type) {
      case cudaGraphNodeTypeKernel:
      case cudaGraphNodeTypeMemcpy:
      case cudaGraphNodeTypeMemset:
      case cudaGraphNodeTypeEmpty:
      case cudaGraphNodeTypeConditional:
        break;
      case cudaGraphNodeTypeGraph: {
        cudaGraph_t child = nullptr;
        BSRFLOW_CUDA(cudaGraphChildGraphNodeGetGraph(node, &child));
        check_nodes(child, task, where, in_body);
        break;
      }
      case cudaGraphNodeTypeMemAlloc:
      case cudaGraphNodeTypeMemFree:
        BSRFLOW_FAIL(Errc::capture, where + ": task '" + task +
                                        "' allocates or frees device memory while captured (cudaMallocAsync / "
                                        "cudaFreeAsync); allocate before instantiating, or take memory from "
                                        "CaptureContext::workspace");
      default:
        if (in_body)
          BSRFLOW_FAIL(Errc::capture, where + ": task '" + task + "' produced a " + node_type_name(type) +
                                          " node; a loop body may hold only kernel, memset, memcpy, "
                                          "child-graph and conditional nodes");
        break;
    }
  }
}

}  // namespace

cudaGraph_t GraphExec::Impl::capture(const detail::TaskRecord& record, const detail::GraphImpl& level, bool in_body,
                                     bool recapturing) {
  const std::string where = level.describe();
  auto& slots = workspaces[{level.id, static_cast<int>(&record - level.tasks.data())}];
  BSRFLOW_CUDA(cudaStreamBeginCapture(capture_stream, cudaStreamCaptureModeThreadLocal));
  CaptureContext ctx(capture_stream, &slots, &retired, recapturing);
  try {
    record.capture(ctx);
  } catch (const Error& e) {
    abort_capture(capture_stream);
    BSRFLOW_FAIL(Errc::capture, where + ": task '" + record.name + "' failed while captured: " + e.message());
  } catch (...) {
    abort_capture(capture_stream);
    throw;
  }
  cudaGraph_t graph = nullptr;
  const cudaError_t status = cudaStreamEndCapture(capture_stream, &graph);
  if (status != cudaSuccess) {
    if (graph != nullptr) (void)cudaGraphDestroy(graph);
    (void)cudaGetLastError();
    BSRFLOW_FAIL(Errc::capture, where + ": task '" + record.name + "' broke its stream capture (" +
                                    cudaGetErrorName(status) +
                                    "): it called something that synchronises or allocates outside the stream "
                                    "(cudaMalloc, cudaMemcpy, cudaStreamSynchronize, ...); allocate before "
                                    "instantiating, or take memory from CaptureContext::workspace");
  }
  try {
    check_nodes(graph, record.name, where, in_body);
    std::size_t count = 0;
    BSRFLOW_CUDA(cudaGraphGetNodes(graph, nullptr, &count));
    if (count == 0) {  // nothing enqueued: keep the child graph non-empty
      cudaGraphNode_t empty = nullptr;
      BSRFLOW_CUDA(cudaGraphAddEmptyNode(&empty, graph, nullptr, 0));
    }
  } catch (...) {
    (void)cudaGraphDestroy(graph);
    throw;
  }
  return graph;
}

}  // namespace bsrflow
