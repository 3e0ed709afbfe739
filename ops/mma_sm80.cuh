// sm_80-style warp-level primitives (also on Hopper): asynchronous 16-byte global -> shared
// copies (cp.async), ldmatrix fragment loads and the m16n8k16 tensor-core MMA with f32
// accumulation. The skinny BSR GEMM (skinny_kernel.cuh) is built from these; the Hopper kernel
// uses TMA and wgmma instead (sm90_tma.cuh, sm90_wgmma.cuh).
#pragma once

#include <cstdint>

namespace bsrflow::sm80 {

__device__ __forceinline__ std::uint32_t smem_addr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// Copies `bytes` (0..16) from global `src` into the 16 bytes at shared `dst` and zero-fills the
// rest; with bytes == 0 nothing is read (src must still be a valid address). L2 only (.cg): the
// streamed operand is read once.
__device__ __forceinline__ void cp_async_16(std::uint32_t dst, const void* src, int bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(bytes) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
// Waits until at most N of this thread's committed groups are still in flight.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// Four 8x8 16-bit matrices; lane l gives the address of row (l % 8) of matrix (l / 8).
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], std::uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
// The same, each matrix transposed (a row-major k x n tile becomes the MMA's B fragment).
__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&r)[4], std::uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

// d += a * b for one m16n8k16 tile: a = 16 x 16 (row), b = 16 x 8 (col), f32 accumulators.
template <bool Bf16>
__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                             std::uint32_t b1) {
  if constexpr (Bf16) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  } else {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
}

// Byte offset of 16-byte chunk `q` of a tile whose rows are 2^log_cpr chunks long, swizzled so
// that ldmatrix's eight rows at one chunk column fall in eight different 16-byte bank groups
// (and cp.async's consecutive chunks stay conflict-free): within each 128-byte line the chunk
// index is XORed with the row (rows of >= 128 bytes) or with the line (shorter rows).
__device__ __forceinline__ std::uint32_t swizzled_chunk(std::uint32_t q, int log_cpr) {
  const std::uint32_t line = q >> 3;
  const std::uint32_t key = (log_cpr >= 3 ? (q >> log_cpr) : line) & 7u;
  return (line << 7) | (((q & 7u) ^ key) << 4);
}

}  // namespace bsrflow::sm80
