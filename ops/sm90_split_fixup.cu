#include "bsrflow/ops/sm90_split_fixup.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <climits>
#include <string>

#include "bsrflow/core/error.hpp"

namespace bsrflow::sm90 {
namespace {

constexpr int kThreads = 256;
constexpr int kVec = 4;  // columns per thread (N is a multiple of 8 on this path)

__device__ float load_out(const void* c, std::int64_t i, DType t) {
  switch (t) {
    case DType::f32: return static_cast<const float*>(c)[i];
    case DType::f16: return __half2float(static_cast<const __half*>(c)[i]);
    default: return __bfloat162float(static_cast<const __nv_bfloat16*>(c)[i]);
  }
}
__device__ void store_out(void* c, std::int64_t i, DType t, float v) {
  switch (t) {
    case DType::f32: static_cast<float*>(c)[i] = v; break;
    case DType::f16: static_cast<__half*>(c)[i] = __float2half_rn(v); break;
    default: static_cast<__nv_bfloat16*>(c)[i] = __float2bfloat16_rn(v); break;
  }
}

// One thread per kVec adjacent columns of one row (float4 reads of the partial tiles, two pieces
// in flight at a time); a CTA holds whole group rows (cluster * swath / kVec threads each), or,
// for groups wider than kThreads * kVec columns (swath 1024 in CTA pairs), blockIdx.y's slice
// of them. Pieces are added one after the other in piece order: the sum is the same bits every run.
__global__ void __launch_bounds__(kThreads) split_fixup_kernel(const FixupParams p) {
  const int rows_per_cta = static_cast<int>(blockDim.y);
  const int ctas_per_tile = (p.R + rows_per_cta - 1) / rows_per_cta;
  const int entry = static_cast<int>(blockIdx.x) / ctas_per_tile;
  const int r = (static_cast<int>(blockIdx.x) - entry * ctas_per_tile) * rows_per_cta + static_cast<int>(threadIdx.y);
  if (r >= p.R) return;
  const SplitTile s = p.tiles[entry];
  const std::int64_t gr = static_cast<std::int64_t>(s.row) * p.R + r;
  const int local = static_cast<int>(blockIdx.y * blockDim.x + threadIdx.x) * kVec;  // column within the group
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
    const float4 a = part[q * step / kVec], b = part[(q + 1) * step / kVec];
    sum[0] = (sum[0] + a.x) + b.x;
    sum[1] = (sum[1] + a.y) + b.y;
    sum[2] = (sum[2] + a.z) + b.z;
    sum[3] = (sum[3] + a.w) + b.w;
  }
  if (q < s.count) {
    const float4 a = part[q * step / kVec];
    sum[0] += a.x;
    sum[1] += a.y;
    sum[2] += a.z;
    sum[3] += a.w;
  }
#pragma unroll
  for (int v = 0; v < kVec; ++v) {
    if (gc + v >= p.n) break;
    const std::int64_t off = p.c_col_major ? (gc + v) * p.ldc + gr : gr * p.ldc + gc + v;
    float out = p.alpha * sum[v];
    if (p.beta != 0.0f) out += p.beta * load_out(p.c, off, p.out);
    store_out(p.c, off, p.out, out);
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
  const std::int64_t ctas_per_tile = (params.R + block.y - 1) / block.y;
  const std::int64_t blocks = static_cast<std::int64_t>(params.num_tiles) * ctas_per_tile;
  BSRFLOW_REQUIRE(blocks <= INT_MAX, Errc::unsupported,
                  std::to_string(params.num_tiles) + " split tiles exceed the fix-up kernel's grid");
  const dim3 grid(static_cast<unsigned>(blocks), static_cast<unsigned>((vecs + per_row - 1) / per_row));
  split_fixup_kernel<<<grid, block, 0, stream>>>(params);
  BSRFLOW_CHECK_LAUNCH("split_fixup_kernel");
}

}  // namespace bsrflow::sm90
