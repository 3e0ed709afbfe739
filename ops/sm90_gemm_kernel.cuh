// The Hopper BSR x dense GEMM kernel: C = alpha * A_bsr * B + beta * C.
//
// Persistent grid (one CTA per SM), 3 warpgroups: warpgroup 0 gives up registers and one or two of
// its warps produce (TMA into a ring of `stages` shared-memory stages on mbarriers); warpgroups 1
// and 2 take the registers and consume with wgmma, then run the epilogue while the producer
// already loads the next tile. Geometry comes from KernelTraits (sm90_kernel_traits.cuh).
#pragma once

#include "bsrflow/ops/sm90_consumer.cuh"
#include "bsrflow/ops/sm90_gemm_params.hpp"
#include "bsrflow/ops/sm90_kernel_traits.cuh"
#include "bsrflow/ops/sm90_producer.cuh"
#include "bsrflow/ops/sm90_tma.cuh"

namespace bsrflow::sm90 {

template <class K>
__global__ void __launch_bounds__(K::kThreads, 1) bsr_gemm_kernel(const __grid_constant__ GemmParams p) {
  extern __shared__ unsigned char smem_raw[];
  // Swizzled tiles need 1024-byte aligned shared addresses; dynamic smem only promises 16.
  const std::uint32_t raw = smem_addr(smem_raw);
  Ring<K> ring{smem_raw + (((raw + 1023u) & ~1023u) - raw), p.stages};

  // Broadcast from lane 0, so that ptxas knows them warp-uniform: what derives from them (the
  // consumers' wgmma descriptors, per stage) then lives in uniform registers instead of being
  // computed per thread and moved over with R2UR every stage (perf_log entry 49).
  const int wg = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x) / 128, 0);
  const int warp = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x) / 32 % 4, 0);
  const int lane = threadIdx.x % 32;

  if (threadIdx.x == 0) {
    tma_prefetch_map(&p.tmap_a);
    tma_prefetch_map(&p.tmap_b);
    for (int s = 0; s < p.stages; ++s) {
      mbar_init(ring.full(s), 1);                             // the producer's arrive_expect_tx
      mbar_init(ring.empty(s), K::kConsumers * p.cluster);    // each consumer warpgroup of the cluster
    }
    mbar_fence_init();
  }
  // The peer's multicasts and arrivals target this CTA's barriers: they must exist first.
  if (p.cluster > 1) cluster_sync();
  else __syncthreads();

  // The split fix-up kernel may start on the SMs this grid's CTAs leave (it waits for each split
  // tile's readiness itself); every CTA must say so for it to launch before this grid ends.
  grid_launch_dependents();

  const TileLoop loop = tile_loop(p, static_cast<int>(cluster_rank()));
  if (wg == 0) {
    setmaxnreg_dec<K::kProducerRegs>();
    if (warp < K::kProducerWarps) produce<K>(p, ring, loop, warp, lane);
  } else {
    setmaxnreg_inc<K::kConsumerRegs>();
    consume<K>(p, ring, loop, wg - 1, warp, lane);
  }
  // Neither CTA of a pair leaves while the other may still arrive on its barriers.
  if (p.cluster > 1) cluster_sync();
}

}  // namespace bsrflow::sm90
