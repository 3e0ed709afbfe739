// Deterministic grid-wide sums inside one kernel (device code only).
//
//   ReduceWorkspace<double> ws = ...;                    // reduce_workspace.hpp: size, carve, init
//   double mine[2] = {x * y, r * r};                     // each thread's share (0 if it has none)
//   double total[2];
//   if (grid_sum<256, 2>(mine, ws, total)) {             // every thread of every block calls it
//     if (threadIdx.x == 0) { *dot_xy = total[0]; ... }  // last block: the grid-wide sums
//   }
//
// Contract:
//  - Called by ALL threads of every block, uniformly (no thread may have returned early), once
//    per kernel per workspace. The block is 1-D with exactly kBlockThreads threads and the grid
//    is 1-D with gridDim.x <= ws.max_blocks; K <= ws.width. Check that on the host with
//    check_reduce_workspace (reduce_workspace.hpp). A launch that breaks these preconditions gets
//    false in every thread and nothing written (there are no device asserts in bsrflow), which
//    the host check exists to prevent.
//  - Returns true in every thread of exactly one block, the last to finish; `total[k]` then holds
//    the grid-wide sum of value[k] in all of its threads. Elsewhere it returns false and leaves
//    `total` untouched. The last block may go on with follow-up work (a CG coefficient, a graph
//    loop condition); every other block has published everything it will publish here.
//  - Deterministic: block sums are cub::BlockReduce (a fixed tree for a fixed kBlockThreads), and
//    the last block adds the per-block partials in an order fixed by gridDim.x and kBlockThreads
//    alone (thread t takes blocks t, t + kBlockThreads, ... in increasing order, then one more
//    BlockReduce). The result is bitwise identical run to run for the same grid and block size,
//    whichever block happens to finish last. (It is not a strict left-to-right sum over blocks:
//    that would make one thread add up to tens of thousands of partials in sequence.)
//  - The ticket is back at 0 when the call returns in the last block (atomicInc wraps it), so
//    the next launch, graph replay or loop iteration needs no reset. If a launch is aborted
//    midway (a CUDA error), zero it again with reduce_workspace_init.
//
// NOTES (memory ordering): block b publishes its partials with plain stores from thread 0, then
// __threadfence() (fence.sc.gpu), then takes a ticket with atomicInc (a relaxed gpu-scope RMW).
// The block that draws ticket gridDim.x - 1 knows every other block has already done its
// atomicInc, and each of those atomics is ordered after that block's partial stores by its
// fence: fence ; atomic (writer) and atomic ; fence (reader) synchronise in the PTX memory model.
// So thread 0 of the last block runs a second __threadfence() after its atomic, and the barrier
// that follows (__syncthreads, CTA-scope ordering) extends that to the block's other threads
// before any of them reads a partial. The partials are then read with ld.global.cg (__ldcg),
// which goes to L2 and never hits an L1 line this SM may hold from before: belt and braces, as
// L1 is not coherent across SMs. Reusing the workspace in the next reduction is safe because the
// last block's reads complete before the kernel does (stream order) - but two reductions in one
// kernel on one workspace are NOT safe: a block may enter the second while the last block of the
// first still reads partials, and its ticket would count toward the first.
#pragma once

#include <cub/block/block_reduce.cuh>

#include "bsrflow/ops/reduce_workspace.hpp"

namespace bsrflow {

template <int kBlockThreads, int K, class T>
__device__ bool grid_sum(const T (&value)[K], ReduceWorkspace<T> ws, T (&total)[K]) {
  static_assert(K >= 1 && K <= kMaxReduceWidth, "grid_sum reduces 1 to 4 values at once");
  static_assert(kBlockThreads % 32 == 0 && kBlockThreads >= 32 && kBlockThreads <= 1024,
                "kBlockThreads must be a multiple of the warp size, at most 1024");
  using BlockReduce = cub::BlockReduce<T, kBlockThreads>;
  __shared__ typename BlockReduce::TempStorage s_reduce[K];  // one per value: no barrier between the K sums
  __shared__ T s_total[K];                                   // (K) grid-wide sums, broadcast in the last block
  __shared__ bool s_last;

  // Preconditions (uniform over the grid, so all blocks agree): see the contract above.
  if (ws.partials == nullptr || ws.ticket == nullptr || gridDim.x > static_cast<unsigned>(ws.max_blocks) ||
      K > ws.width || gridDim.y != 1 || gridDim.z != 1 || blockDim.x != kBlockThreads || blockDim.y != 1 ||
      blockDim.z != 1)
    return false;

  const unsigned block = blockIdx.x;
  const unsigned blocks = gridDim.x;
  const auto stride = static_cast<std::size_t>(ws.max_blocks);  // between the K rows of partials

  // ---- 1. This block's sums, published by thread 0 ------------------------------------------
  T block_sum[K];  // (K) valid in thread 0 only
#pragma unroll
  for (int k = 0; k < K; ++k) block_sum[k] = BlockReduce(s_reduce[k]).Sum(value[k]);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int k = 0; k < K; ++k) ws.partials[k * stride + block] = block_sum[k];
    __threadfence();                                     // partials visible before the ticket
    const unsigned ticket = atomicInc(ws.ticket, blocks - 1);  // wraps to 0 at the last block
    s_last = ticket == blocks - 1;
    if (s_last) __threadfence();                         // every block's partials visible from here on
  }
  __syncthreads();  // s_last to every thread; also ends the use of s_reduce above
  if (!s_last) return false;

  // ---- 2. Last block: all partials, in an order fixed by the grid size ------------------------
  T sum[K];
#pragma unroll
  for (int k = 0; k < K; ++k) sum[k] = T(0);
  for (unsigned b = threadIdx.x; b < blocks; b += kBlockThreads) {
#pragma unroll
    for (int k = 0; k < K; ++k) sum[k] += __ldcg(ws.partials + k * stride + b);
  }
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const T grid_total = BlockReduce(s_reduce[k]).Sum(sum[k]);
    if (threadIdx.x == 0) s_total[k] = grid_total;
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < K; ++k) total[k] = s_total[k];
  return true;
}

}  // namespace bsrflow
