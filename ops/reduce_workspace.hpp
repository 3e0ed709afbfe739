// Workspace of the deterministic grid-wide reductions (device_reduce.cuh: grid_sum), host side.
//
// Two-phase, CUB style: size it (reduce_workspace_bytes), let the owner allocate, carve the view
// (make_reduce_workspace), zero the ticket once (reduce_workspace_init). After that every launch
// that reduces through it leaves the ticket at 0 again, so launches, graph replays and device
// loops reuse it without any host work. ReduceScratch does all four for owners who want one
// object.
//
// One workspace serves one reduction at a time: two kernels that may run concurrently (other
// streams, parallel graph branches), or two grid_sum calls inside one kernel, need two.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow {

inline constexpr int kMaxReduceWidth = 4;                      // values summed at once (K of grid_sum)
inline constexpr std::size_t kReduceWorkspaceAlignment = 256;  // of the memory handed to make_reduce_workspace

// Trivially copyable view, passed to kernels by value.
template <class T>
struct ReduceWorkspace {
  T* partials = nullptr;       // (width, max_blocks): value k of block b at partials[k * max_blocks + b]
  unsigned* ticket = nullptr;  // blocks of the running reduction done so far; 0 between reductions
  int max_blocks = 0;          // largest grid (gridDim.x) it serves
  int width = 0;               // most values per block (K <= width)
};

// Bytes needed for grids of up to `max_blocks` blocks reducing `width` values at once: 256 for the
// ticket, then the partials, rounded up to 256. Throws Error(invalid_argument) for max_blocks < 1,
// width outside [1, 4] or value_size 0.
std::size_t reduce_workspace_bytes(int max_blocks, int width, std::size_t value_size);

namespace detail {
// The shared checks of make_reduce_workspace (returns the partials' address).
void* carve_reduce_workspace(void* memory, std::size_t bytes, int max_blocks, int width, std::size_t value_size);
// The shared checks of check_reduce_workspace.
void check_reduce_workspace(const void* partials, const void* ticket, int ws_max_blocks, int ws_width,
                            std::int64_t grid_blocks, int width, std::string_view op);
}  // namespace detail

// Carves a workspace out of caller-owned device memory of `bytes` bytes, 256-byte aligned. The
// ticket must be zeroed once before first use (reduce_workspace_init). Throws
// Error(invalid_argument) for null or misaligned memory, or fewer bytes than
// reduce_workspace_bytes(max_blocks, width, sizeof(T)).
template <class T>
ReduceWorkspace<T> make_reduce_workspace(void* memory, std::size_t bytes, int max_blocks, int width) {
  void* partials = detail::carve_reduce_workspace(memory, bytes, max_blocks, width, sizeof(T));
  return {static_cast<T*>(partials), static_cast<unsigned*>(memory), max_blocks, width};
}

// Zeroes the ticket (stream-ordered memset; capturable). Once after allocation; grid_sum resets
// it itself after every use. Throws Error(invalid_argument) when the view has no ticket.
template <class T>
void reduce_workspace_init(const ReduceWorkspace<T>& ws, cudaStream_t stream) {
  BSRFLOW_REQUIRE(ws.ticket != nullptr, Errc::invalid_argument, "reduce_workspace_init: the workspace has no ticket");
  BSRFLOW_CUDA(cudaMemsetAsync(ws.ticket, 0, sizeof(unsigned), stream));
}

// Host-side precondition of a launch that calls grid_sum<.., K = width> on `grid_blocks` blocks.
// Throws Error(invalid_argument), `op` naming the operation, first failing check wins:
//   "dot: the reduce workspace is not set up (null partials or ticket)"
//   "dot: the reduce workspace is not set up (max_blocks 0, width 1)"
//   "dot: the grid has 40 blocks but the reduce workspace serves at most 32"
//   "dot: the reduce workspace holds 1 value(s) per block, 2 needed"
template <class T>
void check_reduce_workspace(const ReduceWorkspace<T>& ws, std::int64_t grid_blocks, int width, std::string_view op) {
  detail::check_reduce_workspace(ws.partials, ws.ticket, ws.max_blocks, ws.width, grid_blocks, width, op);
}

// Owning workspace: device memory (stream-ordered) + the view, ticket zeroed on `stream`.
template <class T>
class ReduceScratch {
 public:
  ReduceScratch() = default;
  ReduceScratch(int max_blocks, int width, cudaStream_t stream)
      : memory_(reduce_workspace_bytes(max_blocks, width, sizeof(T)) + kReduceWorkspaceAlignment, stream) {
    // NOTES: the slack of one alignment unit makes the carve independent of the allocator's
    // alignment (cudaMallocAsync does not document one).
    const auto address = reinterpret_cast<std::uintptr_t>(memory_.data());
    const std::size_t skip = (kReduceWorkspaceAlignment - address % kReduceWorkspaceAlignment) % kReduceWorkspaceAlignment;
    ws_ = make_reduce_workspace<T>(memory_.data() + skip, memory_.size() - skip, max_blocks, width);
    reduce_workspace_init(ws_, stream);
  }

  const ReduceWorkspace<T>& view() const noexcept { return ws_; }
  std::size_t bytes() const noexcept { return memory_.bytes(); }
  // Expires when the memory is freed (for task graphs that track buffer lifetimes).
  std::weak_ptr<const void> lifetime() const noexcept { return memory_.lifetime(); }

 private:
  DeviceBuffer<unsigned char> memory_;
  ReduceWorkspace<T> ws_{};
};

}  // namespace bsrflow
