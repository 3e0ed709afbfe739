#include "bsrflow/ops/sm90_split_fixup.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <climits>
#include <string>

#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/sm90_epilogue.cuh"  // update_from_float, update4_from_float
#include "bsrflow/ops/sm90_tma.cuh"

namespace bsrflow::sm90 {
namespace {

constexpr int kThreads = 256;
constexpr int kVec = 4;  // columns per thread (N is a multiple of 8 on this path)

// Until split tile `entry` has all its partial tiles in global memory (the GEMM kernel, which may
// still be running, signals each part); one thread spins, the CTA follows.
__device__ void wait_ready(const FixupParams& p, const SplitTile& s, int entry) {
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    const int target = s.count * p.ready_per_piece;
    int seen;
    for (;;) {
      asm volatile("ld.acquire.gpu.global.s32 %0, [%1];\n" : "=r"(seen) : "l"(p.split_ready + entry) : "memory");
      if (seen >= target) break;
      __nanosleep(200);
    }
  }
  __syncthreads();
}

// One work item: rows [r0, r0 + blockDim.y) of split tile `entry`, columns of slice `slice` of its
// group (one thread per kVec adjacent columns; float4 reads of the partial tiles, two pieces in
// flight at a time, through L2: the GEMM kernel wrote them during this grid's life).
__device__ void reduce_item(const FixupParams& p, const SplitTile& s, int r0, int slice) {
  const int r = r0 + static_cast<int>(threadIdx.y);
  if (r >= p.R) return;
  const int height = p.R / p.row_group;  // of a block
  const int within = r / height;         // the partial tile's within-th block row
  const int block_row = p.row_group > 1 ? p.group_rows[s.row * p.row_group + within] : s.row;
  if (block_row < 0) return;  // past the last block row (a partial group)
  const std::int64_t gr = static_cast<std::int64_t>(block_row) * height + (r - within * height);
  const int local = static_cast<int>(slice * blockDim.x + threadIdx.x) * kVec;  // column within the group
  const std::int64_t gc = static_cast<std::int64_t>(s.group) * p.cluster * p.swath + local;
  if (local >= p.cluster * p.swath || gr >= p.m || gc >= p.n) return;  // past the group, M, N (a phantom swath)
  const int rank = local / p.swath;
  const int col = local - rank * p.swath;
  const std::int64_t tile = static_cast<std::int64_t>(p.R) * p.swath;
  const std::int64_t step = p.cluster * tile;  // from one piece's tile to the next one's
  const float4* part = reinterpret_cast<const float4*>(p.partials + static_cast<std::int64_t>(s.first_slot + rank) * tile +
                                                       static_cast<std::int64_t>(r) * p.swath + col);
  float sum[kVec] = {0.0f, 0.0f, 0.0f, 0.0f};
  int q = 0;
  for (; q + 2 <= s.count; q += 2) {
    const float4 a = __ldcg(part + q * step / kVec), b = __ldcg(part + (q + 1) * step / kVec);
    sum[0] = (sum[0] + a.x) + b.x;
    sum[1] = (sum[1] + a.y) + b.y;
    sum[2] = (sum[2] + a.z) + b.z;
    sum[3] = (sum[3] + a.w) + b.w;
  }
  if (q < s.count) {
    const float4 a = __ldcg(part + q * step / kVec);
    sum[0] += a.x;
    sum[1] += a.y;
    sum[2] += a.z;
    sum[3] += a.w;
  }
  if (!p.c_col_major) {
    // The four columns are adjacent in C: one vector (the plan requires N % 8 == 0, ldc % 8 == 0
    // and a 16-byte aligned C, and gc is a multiple of 4), not four scalar accesses.
    const float4 v = make_float4(p.alpha * sum[0], p.alpha * sum[1], p.alpha * sum[2], p.alpha * sum[3]);
    update4_from_float(p.c, gr * p.ldc + gc, p.out, v, p.beta);
    return;
  }
#pragma unroll
  for (int v = 0; v < kVec; ++v) {
    if (gc + v >= p.n) break;
    update_from_float(p.c, (gc + v) * p.ldc + gr, p.out, p.alpha * sum[v], p.beta);
  }
}

// Items (split tile, rows of a CTA, column slice) are taken in list order from a counter, so CTAs
// that start early - on SMs the GEMM kernel has left - take the first tiles, which its longest
// pieces finish first. Pieces are added one after the other in piece order: the sum is the same
// bits every run, whichever CTA computes it.
__global__ void __launch_bounds__(kThreads) split_fixup_kernel(const FixupParams p, int rows_per_item,
                                                               int items_per_tile, int slices, int num_items) {
  __shared__ int item;
  for (;;) {
    if (threadIdx.x == 0 && threadIdx.y == 0) item = atomicAdd(p.next_item, 1);
    __syncthreads();
    const int i = item;
    __syncthreads();  // everyone has read `item` before thread 0 takes the next one
    if (i >= num_items) break;
    const int entry = i / items_per_tile;
    const int within = i - entry * items_per_tile;
    const SplitTile s = p.tiles[entry];
    wait_ready(p, s, entry);
    reduce_item(p, s, (within / slices) * rows_per_item, within % slices);
  }
  // This grid must not end before the GEMM grid (whose C writes a later kernel may read), and the
  // counters are reset only once no GEMM signal can arrive any more.
  grid_dependency_wait();
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    __threadfence();
    if (atomicAdd(p.finished, 1) == static_cast<int>(gridDim.x) - 1) {
      for (int t = 0; t < p.num_tiles; ++t) p.split_ready[t] = 0;
      *p.next_item = 0;
      *p.finished = 0;
    }
  }
}

}  // namespace

void launch_split_fixup(const FixupParams& params, cudaStream_t stream) {
  if (params.num_tiles == 0 || params.n == 0) return;
  const int group_cols = params.cluster * params.swath;
  BSRFLOW_REQUIRE(group_cols % kVec == 0, Errc::unsupported,
                  "split fix-up: a swath group of " + std::to_string(group_cols) + " columns is not whole 4-vectors");
  const int vecs = group_cols / kVec;
  const int per_row = vecs < kThreads ? vecs : kThreads;  // threads per group row in one CTA
  const dim3 block(static_cast<unsigned>(per_row), static_cast<unsigned>(kThreads / per_row));
  const int slices = (vecs + per_row - 1) / per_row;
  const int rows_per_item = static_cast<int>(block.y);
  const std::int64_t items_per_tile = static_cast<std::int64_t>((params.R + rows_per_item - 1) / rows_per_item) * slices;
  const std::int64_t items = static_cast<std::int64_t>(params.num_tiles) * items_per_tile;
  const int grid = static_cast<int>(std::min<std::int64_t>(items, params.max_ctas));
  // Every CTA takes one item past the last before it stops: the counter reaches items + grid.
  BSRFLOW_REQUIRE(items <= INT_MAX - grid, Errc::unsupported,
                  std::to_string(params.num_tiles) + " split tiles exceed the fix-up kernel's work counter");
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(grid));
  config.blockDim = block;
  config.stream = stream;
  cudaLaunchAttribute attribute = programmatic_serialization();
  config.attrs = &attribute;
  config.numAttrs = 1;
  BSRFLOW_CUDA(cudaLaunchKernelEx(&config, split_fixup_kernel, params, rows_per_item, static_cast<int>(items_per_tile),
                                  slices, static_cast<int>(items)));
  BSRFLOW_CHECK_LAUNCH("split_fixup_kernel");
}

}  // namespace bsrflow::sm90
