// Hopper asynchronous copies and their barriers through inline PTX: mbarrier init / arrive /
// expect-tx / parity wait, TMA tensor loads (cp.async.bulk.tensor) completed on an mbarrier,
// and the register re-partitioning (setmaxnreg) between producer and consumer warpgroups.
//
// Device code only. The tensor maps themselves are encoded on the host (sm90_tensor_map.hpp)
// and reach the kernel as __grid_constant__ parameters.
//
// NOTES:
// - Not <cuda/barrier> (7 s per TU on CI) and not <cuda/ptx> (3.9 s): a dozen one-line wrappers.
// - Parity waits: a barrier's phase flips each time its pending count reaches zero. Waiting for
//   parity `p` returns once the phase with that parity has completed. A fresh barrier is in phase
//   0, and waiting for parity 1 returns at once ("the previous phase"), which is how a producer
//   treats all ring slots as free on its first pass.
// - The TMA byte count of a box is the full box even where it lies outside the tensor (those
//   elements are zero-filled), so expect_tx always announces whole boxes.
// - A multicast box from the cluster peer may complete its bytes on a barrier before the local
//   producer's arrive.expect_tx for that phase: the tx-count goes transiently negative, and the
//   phase still cannot complete without the local arrival.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace bsrflow::sm90 {

#if defined(__CUDACC__)

__device__ __forceinline__ std::uint32_t smem_addr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// ---- mbarrier -----------------------------------------------------------------------------------

__device__ __forceinline__ void mbar_init(std::uint64_t* bar, std::uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(arrivals) : "memory");
}

// Makes initialised barriers visible to the async proxy (TMA) and to the other threads.
__device__ __forceinline__ void mbar_fence_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

// One arrival plus `bytes` of expected transaction count (the producer, before its TMA loads).
// Every barrier and TMA function also takes the shared-memory address (smem_addr) itself, for
// loops that compute it once (the skinny kernel's producer: perf_log entry 59).
__device__ __forceinline__ void mbar_arrive_expect_tx(std::uint32_t bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive_expect_tx(std::uint64_t* bar, std::uint32_t bytes) {
  mbar_arrive_expect_tx(smem_addr(bar), bytes);
}

__device__ __forceinline__ void mbar_arrive(std::uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_arrive(std::uint64_t* bar) { mbar_arrive(smem_addr(bar)); }

__device__ __forceinline__ bool mbar_try_wait(std::uint32_t bar, std::uint32_t parity) {
  std::uint32_t done = 0;
  asm volatile(
      "{\n.reg .pred p;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(bar), "r"(parity)
      : "memory");
  return done != 0;
}
__device__ __forceinline__ bool mbar_try_wait(std::uint64_t* bar, std::uint32_t parity) {
  return mbar_try_wait(smem_addr(bar), parity);
}

// Blocks until the phase with parity `parity` of `bar` has completed (try_wait itself suspends
// the thread for a system-dependent time, so this loop does not spin hot).
__device__ __forceinline__ void mbar_wait(std::uint32_t bar, std::uint32_t parity) {
  while (!mbar_try_wait(bar, parity)) {
  }
}
__device__ __forceinline__ void mbar_wait(std::uint64_t* bar, std::uint32_t parity) { mbar_wait(smem_addr(bar), parity); }

// ---- Clusters -----------------------------------------------------------------------------------

// This CTA's rank in its cluster (0 when launched without clusters).
__device__ __forceinline__ std::uint32_t cluster_rank() {
  std::uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}

// One arrival on the barrier at the same shared-memory offset as `bar` in cluster CTA `cta`.
// Default semantics (release, CTA scope), as CUTLASS's ClusterBarrier::arrive: what it orders is
// this warpgroup's finished wgmma reads of a stage before the peer's TMA overwrites it.
// (perf_log entry 7: the first measurement used .release.cluster.)
__device__ __forceinline__ void mbar_arrive_cluster(std::uint64_t* bar, std::uint32_t cta) {
  std::uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(remote) : "r"(smem_addr(bar)), "r"(cta));
  asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];\n" ::"r"(remote) : "memory");
}

// All threads of every CTA in the cluster: barrier with release / acquire at cluster scope.
__device__ __forceinline__ void cluster_sync() {
  asm volatile(
      "barrier.cluster.arrive.release.aligned;\n"
      "barrier.cluster.wait.acquire.aligned;\n" ::
          : "memory");
}

// ---- TMA ------------------------------------------------------------------------------------------

// The tensor map lives in kernel parameter space (__grid_constant__); its generic address is
// what cp.async.bulk.tensor takes.
__device__ __forceinline__ void tma_prefetch_map(const void* map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<std::uint64_t>(map)) : "memory");
}

// L2 eviction priority of the lines a TMA load brings in: when a set needs room, evict-first
// lines go before normal ones, and normal ones before evict-last ones.
enum class L2Priority { evict_first, evict_normal, evict_last };
__device__ __forceinline__ std::uint64_t l2_load_policy(L2Priority priority) {
  std::uint64_t policy;
  if (priority == L2Priority::evict_last)
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;\n" : "=l"(policy));
  else if (priority == L2Priority::evict_first)
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;\n" : "=l"(policy));
  else asm volatile("createpolicy.fractional.L2::evict_normal.b64 %0, 1.0;\n" : "=l"(policy));
  return policy;
}

// Box at coordinates (c0 innermost, c1[, c2]) of a 2-D / 3-D map into shared memory at `dst`,
// completing on `bar`, its lines cached in L2 under `policy` (l2_load_policy).
__device__ __forceinline__ void tma_load_2d(std::uint32_t dst, const void* map, std::uint32_t bar, int c0, int c1,
                                            std::uint64_t policy) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1, {%3, "
      "%4}], [%2], %5;\n" ::"r"(dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1), "l"(policy)
      : "memory");
}
__device__ __forceinline__ void tma_load_2d(void* dst, const void* map, std::uint64_t* bar, int c0, int c1,
                                            std::uint64_t policy) {
  tma_load_2d(smem_addr(dst), map, smem_addr(bar), c0, c1, policy);
}
__device__ __forceinline__ void tma_load_3d(std::uint32_t dst, const void* map, std::uint32_t bar, int c0, int c1,
                                            int c2, std::uint64_t policy) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1, {%3, "
      "%4, %5}], [%2], %6;\n" ::"r"(dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1), "r"(c2), "l"(policy)
      : "memory");
}
__device__ __forceinline__ void tma_load_3d(void* dst, const void* map, std::uint64_t* bar, int c0, int c1, int c2,
                                            std::uint64_t policy) {
  tma_load_3d(smem_addr(dst), map, smem_addr(bar), c0, c1, c2, policy);
}

// As tma_load_3d (with a policy), but the box lands at the same shared-memory offset in every CTA
// of `cta_mask` (this cluster's ranks) and completes bytes on each one's barrier at `bar`'s offset.
__device__ __forceinline__ void tma_load_3d_multicast(void* dst, const void* map, std::uint64_t* bar, int c0, int c1,
                                                      int c2, std::uint16_t cta_mask, std::uint64_t policy) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint "
      "[%0], [%1, {%3, %4, %5}], [%2], %6, %7;\n" ::"r"(smem_addr(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(smem_addr(bar)), "r"(c0), "r"(c1), "r"(c2), "h"(cta_mask),
      "l"(policy)
      : "memory");
}

// `bytes` contiguous bytes at `src` (global) into shared memory at `dst`, completing on `bar`,
// cached in L2 under `policy`: the non-tensor bulk copy. dst, src and bytes multiples of 16.
__device__ __forceinline__ void bulk_load(void* dst, const void* src, std::uint32_t bytes, std::uint64_t* bar,
                                          std::uint64_t policy) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;\n" ::
          "r"(smem_addr(dst)),
      "l"(reinterpret_cast<std::uint64_t>(src)), "r"(bytes), "r"(smem_addr(bar)), "l"(policy)
      : "memory");
}

// Box of shared memory at `src` -> tensor coordinates (c0 innermost, c1) of a 2-D map. Out-of-
// bounds elements of the box are not written. Tracked by the issuing thread's bulk groups.
__device__ __forceinline__ void tma_store_2d(const void* map, const void* src, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(
                   reinterpret_cast<std::uint64_t>(map)),
               "r"(smem_addr(src)), "r"(c0), "r"(c1)
               : "memory");
}
__device__ __forceinline__ void bulk_commit_group() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }
// Until at most `Pending` of this thread's bulk groups still read their shared memory.
template <int Pending>
__device__ __forceinline__ void bulk_wait_group_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(Pending) : "memory");
}
// Until at most `Pending` of this thread's bulk groups are incomplete (writes done).
template <int Pending>
__device__ __forceinline__ void bulk_wait_group() {
  asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(Pending) : "memory");
}
// Makes this thread's generic-proxy shared-memory writes visible to the async proxy (a TMA
// store that reads them next).
__device__ __forceinline__ void fence_proxy_async_smem() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// Orders this thread's async-proxy global writes (completed TMA stores) before its later
// generic-proxy operations, e.g. the release that tells another grid the data is there.
__device__ __forceinline__ void fence_proxy_async_global() {
  asm volatile("fence.proxy.async.global;\n" ::: "memory");
}

// Adds `v` to the global `counter` at GPU scope with acquire-release semantics and returns the
// old value: a ticket. Preceded by a CTA barrier, it publishes the writes of every thread of the
// CTA (release is cumulative over what the barrier ordered before it); the CTA that reads the
// last ticket sees the writes the other CTAs published (acquire), and after a second barrier so
// do all its threads. One fence by one thread instead of a __threadfence by each.
__device__ __forceinline__ int atomic_add_acq_rel_gpu(int* counter, int v) {
  int old;
  asm volatile("atom.acq_rel.gpu.global.add.s32 %0, [%1], %2;\n" : "=r"(old) : "l"(counter), "r"(v) : "memory");
  return old;
}

// Adds `v` to the global `counter` at GPU scope with release semantics (no result): what this thread
// wrote before, and what a CTA barrier ordered before it, is visible to a GPU-scope acquire that
// reads the sum.
__device__ __forceinline__ void red_add_release_gpu(int* counter, int v) {
  asm volatile("red.release.gpu.global.add.s32 [%0], %1;\n" ::"l"(counter), "r"(v) : "memory");
}

// ---- Programmatic dependent launch ----------------------------------------------------------------

// This CTA lets a grid launched after it with programmatic stream serialization start (once every
// CTA of this grid has said so or exited). A no-op without such a dependent.
__device__ __forceinline__ void grid_launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}
// Until the grids this one programmatically depends on have completed and their writes are
// visible. Returns at once without such a dependency.
__device__ __forceinline__ void grid_dependency_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}

// The launch attribute that lets a grid start before the one ahead of it in the stream has
// finished (once that one says so with grid_launch_dependents, or ends); the grid must then
// grid_dependency_wait before it touches what the earlier grid writes.
inline cudaLaunchAttribute programmatic_serialization() {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  return attribute;
}

// ---- Register re-partitioning ---------------------------------------------------------------------

// Every thread of the warpgroup must execute the same setmaxnreg.
template <int Registers>
__device__ __forceinline__ void setmaxnreg_dec() {
  static_assert(Registers % 8 == 0 && Registers >= 24 && Registers <= 256, "setmaxnreg: 24..256, multiple of 8");
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Registers));
}
template <int Registers>
__device__ __forceinline__ void setmaxnreg_inc() {
  static_assert(Registers % 8 == 0 && Registers >= 24 && Registers <= 256, "setmaxnreg: 24..256, multiple of 8");
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Registers));
}

// The calling thread's lane, read from %laneid each time (volatile: never hoisted or kept live).
__device__ __forceinline__ int lane_id() {
  int lane;
  asm volatile("mov.u32 %0, %%laneid;\n" : "=r"(lane));
  return lane;
}

// Named barrier among `threads` threads (a multiple of 32); id 0 is __syncthreads().
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

#endif  // __CUDACC__

}  // namespace bsrflow::sm90
