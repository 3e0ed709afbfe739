#include "bsrflow/ops/sm90_split_fixup.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <climits>
#include <string>

#include "bsrflow/core/error.hpp"

namespace bsrflow::sm90 {
namespace {

constexpr int kThreads = 256;

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

__global__ void __launch_bounds__(kThreads) split_fixup_kernel(const FixupParams p) {
  const int entry = blockIdx.x / p.R;
  const int r = blockIdx.x - entry * p.R;  // row within the block row
  const SplitTile s = p.tiles[entry];
  const std::int64_t gr = static_cast<std::int64_t>(s.row) * p.R + r;
  const int local = static_cast<int>(blockIdx.y) * kThreads + static_cast<int>(threadIdx.x);  // in the group
  const std::int64_t gc = static_cast<std::int64_t>(s.group) * p.cluster * p.swath + local;
  if (gr >= p.m || local >= p.cluster * p.swath || gc >= p.n) return;  // past M / N (a phantom swath)
  const int rank = local / p.swath;
  const int col = local - rank * p.swath;
  const std::int64_t tile = static_cast<std::int64_t>(p.R) * p.swath;
  const float* part = p.partials + static_cast<std::int64_t>(s.first_slot + rank) * tile +
                      static_cast<std::int64_t>(r) * p.swath + col;
  float sum = 0.0f;
  for (int q = 0; q < s.count; ++q) sum += part[static_cast<std::int64_t>(q) * p.cluster * tile];  // piece order
  const std::int64_t off = p.c_col_major ? gc * p.ldc + gr : gr * p.ldc + gc;
  float v = p.alpha * sum;
  if (p.beta != 0.0f) v += p.beta * load_out(p.c, off, p.out);
  store_out(p.c, off, p.out, v);
}

}  // namespace

void launch_split_fixup(const FixupParams& params, cudaStream_t stream) {
  if (params.num_tiles == 0 || params.n == 0) return;
  const std::int64_t blocks_x = static_cast<std::int64_t>(params.num_tiles) * params.R;
  BSRFLOW_REQUIRE(blocks_x <= INT_MAX, Errc::unsupported,
                  std::to_string(params.num_tiles) + " split tiles exceed the fix-up kernel's grid");
  const dim3 grid(static_cast<unsigned>(blocks_x),
                  static_cast<unsigned>((params.cluster * params.swath + kThreads - 1) / kThreads));
  split_fixup_kernel<<<grid, kThreads, 0, stream>>>(params);
  BSRFLOW_CHECK_LAUNCH("split_fixup_kernel");
}

}  // namespace bsrflow::sm90
