// CSR -> BSR numeric phase, staged variants (CsrToBsrNumeric::staged / staged_wide, which differ
// only in the stage size): same tiles and the same
// tile-relative scatter map as the default kernel (detail_csr_to_bsr_numeric.cuh), but the tile is
// assembled in shared memory and leaves the SM once, in 16-byte coalesced stores.
//
// Why (issue 2; the default kernel reached 33% / 45% / 55% of the copy bandwidth on the H100 at
// blocks 3 / 16 / 32): the default kernel writes every BSR line twice from the SM's point of view
// (zero fill, then 4/8-byte scatter stores into the same lines). That only costs one DRAM write
// per line if the zeroed line is still in L2 when the scatter lands; with ~1000 resident CTAs x
// 64 KiB of tile in flight (more than the 50 MB L2) the zero-filled lines can be evicted first,
// and a partial-sector write then costs DRAM a read-modify-write (ECC granularity). Here no
// partial line reaches L2 except at the two ends of a tile: DRAM sees each BSR byte written once.
//
// Per tile, per chunk of the stage (kCsrToBsrStageBytes):
//   1. zero the chunk's stage (16-byte shared stores)                          __syncthreads
//   2. every tile entry whose value lands in the chunk: stage[pos] = csr value  __syncthreads
//   3. stream the chunk out: 16-byte global stores, scalar ones only for the vector that holds the
//      tile's first or last value when those are not 16-byte aligned          __syncthreads
// Positions are counted in a "frame" that starts at the 16-byte boundary at or before the tile's
// first value (frame position = shift + tile value index), so frame vector i is exactly one
// aligned 16-byte vector of global memory whatever the tile's (or bsr_values') alignment.
// A tile larger than the stage takes several chunks; each re-reads the tile's entries (map + value)
// and keeps those in its range, so the cost of a chunk beyond the first is the tile's entry bytes
// again, mostly from L1/L2 (tiles are ~64 KiB of work, so at most a few chunks).
//
// staged_tile() below is the whole per-tile algorithm for one thread of a CTA; the kernel calls it
// with (threadIdx.x, blockDim.x, __syncthreads), and the CPU emulation test calls it with one
// thread and a no-op barrier, with std::threads meeting at a std::barrier, and with threads taking
// turns one barrier phase at a time (so a missing barrier fails every time). All give the same
// result because within a phase no two threads write the same location (distinct stage vectors,
// distinct map positions, distinct out vectors).
#pragma once

#include <cuda_runtime_api.h>  // uint4 (host and device)

#include <cstdint>
#include <cstring>

#include "bsrflow/formats/detail_csr_to_bsr_numeric.cuh"

namespace bsrflow::detail {

// Shared memory per CTA for the stage. 32 KiB (CsrToBsrNumeric::staged): six 256-thread CTAs per
// SM (228 KiB of shared memory), 4096 f64 / 8192 f32 values per chunk. 64 KiB (staged_wide): three
// CTAs per SM, but a whole f64 tile (~8192 units of work) in one chunk. NOTES: first guesses, not
// yet measured; the benchmark times both.
inline constexpr int kCsrToBsrStageBytes = 32 * 1024;
inline constexpr int kCsrToBsrWideStageBytes = 64 * 1024;
inline constexpr int kCsrToBsrStagedThreads = 256;

// Values of T per 16-byte vector.
template <class T>
inline constexpr int kValuesPerVector = 16 / static_cast<int>(sizeof(T));

// Frame positions before the tile's first value: how far `first` sits past a 16-byte boundary.
template <class T>
__host__ __device__ inline int staged_frame_shift(const T* first) {
  return static_cast<int>((reinterpret_cast<std::uintptr_t>(first) & 15u) / sizeof(T));
}

// One thread's share of one tile. `in` / `map` are the CSR values and tile-relative offsets,
// entries [first_entry, end_entry) belong to the tile; out[0, tile_values) are its BSR values.
// `stage` holds stage_vectors 16-byte vectors (16-byte aligned). `sync` is the CTA barrier.
// (nv_exec_check_disable: `sync` is a host-only barrier in the CPU emulation; each instantiation
// is only called from the side its barrier exists on.)
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <class T, class Sync>
__host__ __device__ inline void staged_tile(const T* __restrict__ in, const int* __restrict__ map, int first_entry,
                                            int end_entry, T* __restrict__ out, std::int64_t tile_values,
                                            uint4* stage, int stage_vectors, int thread, int threads, Sync sync) {
  static_assert(16 % sizeof(T) == 0, "value types divide a 16-byte vector");
  constexpr int V = kValuesPerVector<T>;
  T* const stage_values = reinterpret_cast<T*>(stage);
  const int shift = staged_frame_shift(out);
  const std::int64_t frame_end = shift + tile_values;  // frame positions [shift, frame_end) are the tile's
  const std::int64_t chunk_values = static_cast<std::int64_t>(stage_vectors) * V;

  for (std::int64_t chunk = 0; chunk < frame_end; chunk += chunk_values) {
    const std::int64_t in_chunk = frame_end - chunk < chunk_values ? frame_end - chunk : chunk_values;
    const int vectors = static_cast<int>((in_chunk + V - 1) / V);
    // 1. zero (all-zero bits: +0 in every value type, as the default kernel's fill)
    for (int i = thread; i < vectors; i += threads) stage[i] = uint4{0u, 0u, 0u, 0u};
    sync();
    // 2. scatter the entries that land in this chunk
    for (int e = first_entry + thread; e < end_entry; e += threads) {
      const std::int64_t f = shift + static_cast<std::int64_t>(map[e]) - chunk;
      if (f >= 0 && f < in_chunk) stage_values[f] = in[e];
    }
    sync();
    // 3. stream out; frame position f is out[f - shift]
    for (int i = thread; i < vectors; i += threads) {
      const std::int64_t f0 = chunk + static_cast<std::int64_t>(i) * V;
      if (f0 >= shift && f0 + V <= frame_end) {
#if defined(__CUDA_ARCH__)
        *reinterpret_cast<uint4*>(out + (f0 - shift)) = stage[i];  // 16-byte aligned by the frame
#else
        std::memcpy(static_cast<void*>(out + (f0 - shift)), &stage[i], 16);  // (void*: T may be __half)
#endif
      } else {  // the tile's partial first / last vector: only the tile's own values
        for (int j = 0; j < V; ++j) {
          const std::int64_t f = f0 + j;
          if (f >= shift && f < frame_end) out[f - shift] = stage_values[static_cast<std::int64_t>(i) * V + j];
        }
      }
    }
    sync();  // the next chunk reuses the stage
  }
}

// The CTA barrier for staged_tile() in the kernel (a host build never calls it).
struct CtaBarrier {
  __host__ __device__ void operator()() const {
#if defined(__CUDA_ARCH__)
    __syncthreads();
#endif
  }
};

#if defined(__CUDACC__)

// One CTA per tile, as the default kernel (same grid, same params). The stage is dynamic shared
// memory of kStageBytes (launched with that many bytes; > 48 KiB needs the attribute the
// CsrToBsr constructor sets).
template <class T, int kStageBytes>
__global__ void __launch_bounds__(kCsrToBsrStagedThreads) csr_to_bsr_numeric_staged_kernel(CsrToBsrNumericParams<T> p) {
  extern __shared__ uint4 staged_stage[];
  uint4* stage = staged_stage;
  const int tile = blockIdx.x;
  const int first_block = p.tile_block[tile];
  const int end_block = p.tile_block[tile + 1];
  T* out = p.bsr_values + static_cast<std::int64_t>(first_block) * p.block_size;
  staged_tile(p.csr_values, p.map, p.tile_entry[tile], p.tile_entry[tile + 1], out,
              static_cast<std::int64_t>(end_block - first_block) * p.block_size, stage, kStageBytes / 16,
              static_cast<int>(threadIdx.x), static_cast<int>(blockDim.x), CtaBarrier{});
}

#endif  // __CUDACC__

}  // namespace bsrflow::detail
