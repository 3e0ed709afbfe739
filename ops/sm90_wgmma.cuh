// Hopper warpgroup matrix multiply (wgmma) through inline PTX: shared-memory matrix descriptors,
// the fence / commit / wait protocol, and the m64nNk16 f16/bf16 -> f32 instructions the BSR GEMM
// uses (N in {16, 32, 64, 128, 256}, both operands in shared memory, "SS" form).
//
// Our own small header instead of CUTLASS/CuTe: those cost 16-50 s per TU on the 2-core CI.
// Device code only; it includes nothing from the host runtime.
//
// NOTES:
// - A wgmma reads its operands from shared memory asynchronously; the accumulator registers are
//   "in flight" until wait<N>() retires the group. The compiler does not know that, so every
//   accumulator is pinned with fence_operand() around the asynchronous region (otherwise it may
//   move reads of an accumulator above the wait).
// - Descriptor start addresses are 14 bits of (address >> 4): shared memory is < 256 KiB.
// - Swizzled layouts are defined on absolute shared-memory address bits, so every swizzled tile
//   starts 1024-byte aligned (the repeat of the 128-byte pattern) and base_offset stays 0.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define BSRFLOW_SM90_HD __host__ __device__
#else
#define BSRFLOW_SM90_HD
#endif

namespace bsrflow::sm90 {

// ---- Shared-memory matrix descriptor (PTX ISA: "Matrix Descriptor Format") --------------------

// Swizzle mode, encoded as in bits 62-63 of the descriptor.
enum class SmemSwizzle : std::uint32_t { none = 0, b128 = 1, b64 = 2, b32 = 3 };

// The swizzle whose row is `row_bytes` wide (32, 64 or 128 bytes); the K-major tiles of a
// k-chunk of 16 / 32 / 64 16-bit elements use exactly one such row per matrix row.
BSRFLOW_SM90_HD constexpr SmemSwizzle swizzle_for_row_bytes(int row_bytes) {
  return row_bytes == 128 ? SmemSwizzle::b128 : row_bytes == 64 ? SmemSwizzle::b64 : SmemSwizzle::b32;
}

// Bits: [0,14) start address >> 4, [16,30) leading-dimension byte offset >> 4, [32,46)
// stride-dimension byte offset >> 4, [49,52) base offset (0 here), [62,64) swizzle.
//
// For the two canonical layouts used here (16-bit elements):
// - K-major, swizzle of W bytes (W = K-chunk * 2): rows of W bytes, 8-row groups W*8 bytes
//   apart -> sbo = 8 * W; lbo is unused (1 by convention). A k16 step adds 32 bytes.
// - MN-major, 128-byte swizzle: 64 MN-contiguous elements per 128-byte row, 8 K-rows per
//   1024-byte atom -> sbo = 1024 (next 8 K-rows), lbo = byte distance between 64-wide MN
//   chunks. A k16 step adds 2048 bytes.
BSRFLOW_SM90_HD constexpr std::uint64_t make_smem_desc(std::uint32_t smem_addr, std::uint32_t lbo_bytes,
                                                       std::uint32_t sbo_bytes, SmemSwizzle swizzle) {
  return (static_cast<std::uint64_t>((smem_addr & 0x3FFFFu) >> 4)) |
         (static_cast<std::uint64_t>((lbo_bytes >> 4) & 0x3FFFu) << 16) |
         (static_cast<std::uint64_t>((sbo_bytes >> 4) & 0x3FFFu) << 32) |
         (static_cast<std::uint64_t>(swizzle) << 62);
}

// Descriptor `desc` (built for address 0) moved to shared address `smem_addr`.
BSRFLOW_SM90_HD constexpr std::uint64_t desc_at(std::uint64_t desc, std::uint32_t smem_addr) {
  return desc | make_smem_desc(smem_addr, 0, 0, SmemSwizzle::none);
}

// A descriptor from its low word (start address / 16, leading byte offset / 16) and its high word
// (stride byte offset / 16, base offset, swizzle).
BSRFLOW_SM90_HD constexpr std::uint64_t desc_from_words(std::uint32_t lo, std::uint32_t hi) {
  return (static_cast<std::uint64_t>(hi) << 32) | lo;
}

#if defined(__CUDACC__)

// ---- Ordering ---------------------------------------------------------------------------------

// Orders earlier register / shared-memory writes before the next wgmma reads them.
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }

// Closes the group of wgmma issued since the last commit.
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }

// Waits until at most `Pending` committed groups are still running.
template <int Pending>
__device__ __forceinline__ void wgmma_wait() {
  static_assert(Pending >= 0 && Pending <= 7, "wgmma.wait_group takes 0..7");
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(Pending) : "memory");
}

// Pins an accumulator register: the compiler may not move its uses across this point.
__device__ __forceinline__ void fence_operand(float& reg) { asm volatile("" : "+f"(reg)::"memory"); }

template <int N>
__device__ __forceinline__ void fence_operands(float (&regs)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) fence_operand(regs[i]);
}

// ---- m64nNk16 instructions (TransA / TransB = 1 means an MN-major operand) --------------------
//
// One macro per N: its asm takes the input type (f16 or bf16) as a string literal, pasted into the
// instruction name, so that both types share one operand list.

#define BSRFLOW_SM90_MMA_M64N16K16(TYPE)                                                                       \
  asm volatile(                                                                                                \
      "{\n.reg .pred p;\n"                                                                                     \
      "setp.ne.b32 p, %10, 0;\n"                                                                               \
      "wgmma.mma_async.sync.aligned.m64n16k16.f32." TYPE "." TYPE " "                                          \
      "{%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, %11, %12;\n}\n"                                      \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),                    \
        "+f"(d[7])                                                                                             \
      : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(TransA), "n"(TransB))

// (64, 16) f32 += (64, 16) x (16, 16), f16 or bf16 inputs; 8 accumulators per thread.
template <bool IsBf16, int TransA, int TransB>
__device__ __forceinline__ void mma_m64n16k16(float (&d)[8], std::uint64_t desc_a, std::uint64_t desc_b,
                                              int accumulate) {
  if constexpr (IsBf16) BSRFLOW_SM90_MMA_M64N16K16("bf16");
  else BSRFLOW_SM90_MMA_M64N16K16("f16");
}
#undef BSRFLOW_SM90_MMA_M64N16K16

#define BSRFLOW_SM90_MMA_M64N32K16(TYPE)                                                                       \
  asm volatile(                                                                                                \
      "{\n.reg .pred p;\n"                                                                                     \
      "setp.ne.b32 p, %18, 0;\n"                                                                               \
      "wgmma.mma_async.sync.aligned.m64n32k16.f32." TYPE "." TYPE " "                                          \
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15"                                  \
      "}, %16, %17, p, 1, 1, %19, %20;\n}\n"                                                                   \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),                    \
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),                \
        "+f"(d[14]), "+f"(d[15])                                                                               \
      : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(TransA), "n"(TransB))

// (64, 32) f32 += (64, 16) x (16, 32), f16 or bf16 inputs; 16 accumulators per thread.
template <bool IsBf16, int TransA, int TransB>
__device__ __forceinline__ void mma_m64n32k16(float (&d)[16], std::uint64_t desc_a, std::uint64_t desc_b,
                                              int accumulate) {
  if constexpr (IsBf16) BSRFLOW_SM90_MMA_M64N32K16("bf16");
  else BSRFLOW_SM90_MMA_M64N32K16("f16");
}
#undef BSRFLOW_SM90_MMA_M64N32K16

#define BSRFLOW_SM90_MMA_M64N64K16(TYPE)                                                                       \
  asm volatile(                                                                                                \
      "{\n.reg .pred p;\n"                                                                                     \
      "setp.ne.b32 p, %34, 0;\n"                                                                               \
      "wgmma.mma_async.sync.aligned.m64n64k16.f32." TYPE "." TYPE " "                                          \
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, "            \
      "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, %35, %36;\n}\n"         \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),                    \
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),                \
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),             \
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),             \
        "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])                                                     \
      : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(TransA), "n"(TransB))

// (64, 64) f32 += (64, 16) x (16, 64), f16 or bf16 inputs; 32 accumulators per thread.
template <bool IsBf16, int TransA, int TransB>
__device__ __forceinline__ void mma_m64n64k16(float (&d)[32], std::uint64_t desc_a, std::uint64_t desc_b,
                                              int accumulate) {
  if constexpr (IsBf16) BSRFLOW_SM90_MMA_M64N64K16("bf16");
  else BSRFLOW_SM90_MMA_M64N64K16("f16");
}
#undef BSRFLOW_SM90_MMA_M64N64K16

#define BSRFLOW_SM90_MMA_M64N128K16(TYPE)                                                                      \
  asm volatile(                                                                                                \
      "{\n.reg .pred p;\n"                                                                                     \
      "setp.ne.b32 p, %66, 0;\n"                                                                               \
      "wgmma.mma_async.sync.aligned.m64n128k16.f32." TYPE "." TYPE " "                                         \
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, "            \
      "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, "             \
      "%38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, "             \
      "%56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, %67, %68;\n}\n"                             \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),                    \
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),                \
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),             \
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),             \
        "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]),             \
        "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),             \
        "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),             \
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),             \
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]),             \
        "+f"(d[63])                                                                                            \
      : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(TransA), "n"(TransB))

// (64, 128) f32 += (64, 16) x (16, 128), f16 or bf16 inputs; 64 accumulators per thread.
template <bool IsBf16, int TransA, int TransB>
__device__ __forceinline__ void mma_m64n128k16(float (&d)[64], std::uint64_t desc_a, std::uint64_t desc_b,
                                               int accumulate) {
  if constexpr (IsBf16) BSRFLOW_SM90_MMA_M64N128K16("bf16");
  else BSRFLOW_SM90_MMA_M64N128K16("f16");
}
#undef BSRFLOW_SM90_MMA_M64N128K16

#define BSRFLOW_SM90_MMA_M64N256K16(TYPE)                                                                      \
  asm volatile(                                                                                                \
      "{\n.reg .pred p;\n"                                                                                     \
      "setp.ne.b32 p, %130, 0;\n"                                                                              \
      "wgmma.mma_async.sync.aligned.m64n256k16.f32." TYPE "." TYPE " "                                         \
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, "            \
      "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, "             \
      "%38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, "             \
      "%56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, "             \
      "%74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, "             \
      "%92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, "               \
      "%108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, "             \
      "%123, %124, %125, %126, %127}, %128, %129, p, 1, 1, %131, %132;\n}\n"                                   \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),                    \
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),                \
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),             \
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),             \
        "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]),             \
        "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),             \
        "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),             \
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),             \
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]),             \
        "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]),             \
        "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]),             \
        "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),             \
        "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]),             \
        "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]),             \
        "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),                      \
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]),                    \
        "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),                    \
        "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]),                    \
        "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])                     \
      : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(TransA), "n"(TransB))

// (64, 256) f32 += (64, 16) x (16, 256), f16 or bf16 inputs; 128 accumulators per thread.
template <bool IsBf16, int TransA, int TransB>
__device__ __forceinline__ void mma_m64n256k16(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b,
                                               int accumulate) {
  if constexpr (IsBf16) BSRFLOW_SM90_MMA_M64N256K16("bf16");
  else BSRFLOW_SM90_MMA_M64N256K16("f16");
}
#undef BSRFLOW_SM90_MMA_M64N256K16

// ---- Dispatch by element type and N -----------------------------------------------------------

// D(64, N) (+)= A(64, 16) * B(16, N) for the warpgroup; `accumulate` = 0 overwrites D.
// IsBf16 picks bf16 inputs, otherwise f16.
template <bool IsBf16, int N, int TransA, int TransB>
__device__ __forceinline__ void mma_m64k16(float (&d)[N / 2], std::uint64_t desc_a, std::uint64_t desc_b,
                                           int accumulate) {
  static_assert(N == 16 || N == 32 || N == 64 || N == 128 || N == 256, "instantiated N: 16..256, powers of 2");
  if constexpr (N == 16) mma_m64n16k16<IsBf16, TransA, TransB>(d, desc_a, desc_b, accumulate);
  else if constexpr (N == 32) mma_m64n32k16<IsBf16, TransA, TransB>(d, desc_a, desc_b, accumulate);
  else if constexpr (N == 64) mma_m64n64k16<IsBf16, TransA, TransB>(d, desc_a, desc_b, accumulate);
  else if constexpr (N == 128) mma_m64n128k16<IsBf16, TransA, TransB>(d, desc_a, desc_b, accumulate);
  else mma_m64n256k16<IsBf16, TransA, TransB>(d, desc_a, desc_b, accumulate);
}

// Where accumulator `i` of an m64nN fragment sits in the (64, N) tile, for thread `lane` of warp
// `warp` (0..3) of the warpgroup: pairs (i, i+1) are neighbouring columns of one row.
struct FragCoord {
  int row;
  int col;
};
__device__ __forceinline__ FragCoord frag_coord(int i, int warp, int lane) {
  return {warp * 16 + (lane >> 2) + 8 * ((i >> 1) & 1), (i >> 2) * 8 + (lane & 3) * 2 + (i & 1)};
}

#endif  // __CUDACC__

}  // namespace bsrflow::sm90
