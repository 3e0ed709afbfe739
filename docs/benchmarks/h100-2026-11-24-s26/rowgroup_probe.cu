// Stand-alone load-stream probe (session 26, perf_log entry 48): can row groups cut the L2 ->
// shared-memory bytes of 16- and 32-row blocks without the small-A-box cost that sank entry 26?
//
// A persistent grid (one CTA per SM), one producer lane issuing TMA into a ring of mbarrier
// stages, two consumer warpgroups that wait for each stage and release it: copy-only like the
// bench's probe, or with the wgmma of each stage and no epilogue (consumer kinds in main's case
// list; the gather of A that such a layout needs per run is timed alone). A uniform BSR pattern (M = N = K = 8192, 12.5% of blocks, BS x BS blocks). A tile is G
// consecutive block rows x a swath of SW columns (swath-major order, tiles dealt round-robin); the
// producer walks the sorted union of the group's block columns ("items"): per item one 3-D TMA box
// of B (BS k-rows x SW columns, 128-byte swizzle, as the library's one-box B load) plus A:
//   A0  one 3-D TMA box per present block (BS x BS, the library's A box)
//   A1  one 1-D bulk copy of the item's present blocks, pre-gathered contiguously per item
//   A2  one 1-D bulk copy per present block, straight from A's values (512 B at BS = 16)
//   A3  one 1-D bulk copy of G block slots (absent rows zero), pre-gathered: fixed slot per row
// G = 1 with A0 is today's kernel's probe. Useful TFLOPS count the stored blocks only.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a rowgroup_probe.cu -o rowgroup_probe
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#define CK(x)                                                                    \
  do {                                                                           \
    cudaError_t e = (x);                                                         \
    if (e != cudaSuccess) {                                                      \
      printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e));  \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

__device__ __forceinline__ unsigned sa(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void bar_init(uint64_t* b, unsigned n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(sa(b)), "r"(n));
}
__device__ __forceinline__ void bar_expect(uint64_t* b, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(b)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bar_arrive(uint64_t* b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(sa(b)) : "memory");
}
__device__ __forceinline__ void bar_wait(uint64_t* b, unsigned par) {
  unsigned done = 0;
  while (!done)
    asm volatile("{.reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0,1,0,p;}"
                 : "=r"(done)
                 : "r"(sa(b)), "r"(par)
                 : "memory");
}
__device__ __forceinline__ void tma3d(void* dst, const CUtensorMap* map, uint64_t* bar, int c0, int c1, int c2,
                                      uint64_t pol) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1, {%3, "
      "%4, %5}], [%2], %6;" ::"r"(sa(dst)),
      "l"((uint64_t)map), "r"(sa(bar)), "r"(c0), "r"(c1), "r"(c2), "l"(pol)
      : "memory");
}
__device__ __forceinline__ void bulk(void* dst, const void* src, unsigned bytes, uint64_t* bar, uint64_t pol) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;" ::"r"(
          sa(dst)),
      "l"((uint64_t)src), "r"(bytes), "r"(sa(bar)), "l"(pol)
      : "memory");
}


// ---- consumers with math (swap-AB, 16 x 16 blocks): wgmma m64n16k16, B^T slice as wgmma-A
// (MN-major, 128-byte swizzle, 64-column panels 2048 bytes apart), the A block as wgmma-B
// (K-major, 32-byte swizzle). Timing only: the gathered blocks are not laid out for the swizzle.
__device__ __forceinline__ uint64_t desc(uint32_t addr, uint32_t lbo, uint32_t sbo, uint32_t swz) {
  return (uint64_t)((addr & 0x3FFFF) >> 4) | ((uint64_t)((lbo >> 4) & 0x3FFF) << 16) |
         ((uint64_t)((sbo >> 4) & 0x3FFF) << 32) | ((uint64_t)swz << 62);
}
__device__ __forceinline__ void mma16(float (&d)[8], uint64_t da, uint64_t db) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, 1, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
      : "l"(da), "l"(db));
}
__device__ __forceinline__ void mma32(float (&d)[16], uint64_t da, uint64_t db) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, "
      "%13, %14, %15}, %16, %17, p, 1, 1, 1, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
      : "l"(da), "l"(db));
}
template <int BS>
__device__ __forceinline__ void mma(float (&d)[BS / 2], uint64_t da, uint64_t db) {
  if constexpr (BS == 16) mma16(d, da, db);
  else mma32(d, da, db);
}
template <int G, int MT, int NA>
__device__ __forceinline__ void fence_all(float (&acc)[G][MT][NA]) {
#pragma unroll
  for (int g = 0; g < G; ++g)
#pragma unroll
    for (int m = 0; m < MT; ++m)
#pragma unroll
      for (int i = 0; i < NA; ++i) asm volatile("" : "+f"(acc[g][m][i])::"memory");
}
// Row r's wgmma set (BS / 16 k-steps x MT m-tiles) against the A block at byte address a_slot.
template <int G, int MT, int BS>
__device__ __forceinline__ void row_set(float (&acc)[G][MT][BS / 2], int r, uint32_t a_slot, uint32_t b_base) {
#pragma unroll
  for (int ks = 0; ks < BS / 16; ++ks) {
    const uint64_t db = desc(a_slot + ks * 32, 16, 8 * BS * 2, BS == 16 ? 3 : 2);
#pragma unroll
    for (int m = 0; m < MT; ++m) mma<BS>(acc[r][m], desc(b_base + m * BS * 128 + ks * 2048, BS * 128, 1024, 1), db);
  }
}
// CONS 2: one straight-line block per row mask.
template <int G, int MT, int BS, unsigned M>
__device__ __forceinline__ void rows_for_mask(float (&acc)[G][MT][BS / 2], uint32_t a_base, uint32_t b_base) {
  int s = 0;
#pragma unroll
  for (int r = 0; r < G; ++r)
    if ((M >> r) & 1u) row_set<G, MT, BS>(acc, r, a_base + BS * BS * 2 * s++, b_base);
}
template <int G, int MT, int BS, unsigned M = 1>
__device__ __forceinline__ void dispatch(unsigned mask, float (&acc)[G][MT][BS / 2], uint32_t a_base, uint32_t b_base) {
  if constexpr (M < (1u << G)) {
    if (mask == M) rows_for_mask<G, MT, BS, M>(acc, a_base, b_base);
    else dispatch<G, MT, BS, M + 1>(mask, acc, a_base, b_base);
  }
}

// Gathers A's blocks into item order (the per-run step a row-group kernel would need).
__global__ void gather_kernel(const uint4* src, uint4* dst, const int* blkidx, long blocks, int vec_per_block) {
  for (long v = blockIdx.x * (long)blockDim.x + threadIdx.x; v < blocks * vec_per_block; v += (long)gridDim.x * blockDim.x) {
    const long q = v / vec_per_block;
    dst[v] = src[(long)__ldg(blkidx + q) * vec_per_block + (v - q * vec_per_block)];
  }
}

struct Params {
  int units, swaths, ntiles, sw64, bs, stages;
  int a_bytes, b_bytes, stage_bytes, blk_bytes;
  const int *item_ptr, *item_col, *item_cnt, *item_aoff, *blkidx, *item_mask;
  const char *avals, *gathered, *padded;
  float* sink;
};

constexpr int kMaxStages = 16;

template <int G>
struct Batch {
  int col = 0, cnt = 0, aoff = 0, j = 0;
  int blk[G] = {};
};

template <int G, int AM>
__device__ __forceinline__ Batch<G> fetch(const Params& p, int j, int je) {
  Batch<G> b;
  b.j = j;
  if (j < je) {
    b.col = __ldg(p.item_col + j);
    b.cnt = __ldg(p.item_cnt + j);
    b.aoff = __ldg(p.item_aoff + j);
    if constexpr (AM == 0 || AM == 2)
#pragma unroll
      for (int s = 0; s < G; ++s) b.blk[s] = s < b.cnt ? __ldg(p.blkidx + b.aoff + s) : 0;
  }
  return b;
}

template <int G, int AM, int CONS, int SW, int BS>
__global__ void __launch_bounds__(384, 1)
    probe_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, const Params p) {
  extern __shared__ unsigned char raw[];
  __shared__ __align__(8) uint64_t full[kMaxStages], empty[kMaxStages];
  __shared__ __align__(1024) unsigned char zero_blk[2048];
  unsigned char* ring = raw + ((1024 - (sa(raw) & 1023)) & 1023);
  if (threadIdx.x == 0) {
    for (int s = 0; s < p.stages; ++s) {
      bar_init(&full[s], 1);
      bar_init(&empty[s], 2);
    }
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  const int lane = threadIdx.x % 32;
  int stage = 0;
  unsigned phase = 0;
  if (threadIdx.x < 32) {
    if constexpr (CONS != 0) asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    uint64_t pol;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
    int t = blockIdx.x;
    if (t >= p.ntiles) return;
    int jb = __ldg(p.item_ptr + t % p.units), je = __ldg(p.item_ptr + t % p.units + 1);
    Batch<G> cur = fetch<G, AM>(p, jb + lane, je);
    while (t < p.ntiles) {
      // The next batch (this tile's or the next tile's first) is loaded before this one is issued.
      int nt = t, njb = jb + 32, nje = je;
      if (njb >= je) {
        nt = t + gridDim.x;
        njb = nt < p.ntiles ? __ldg(p.item_ptr + nt % p.units) : 0;
        nje = nt < p.ntiles ? __ldg(p.item_ptr + nt % p.units + 1) : 0;
      }
      const Batch<G> nxt = fetch<G, AM>(p, njb + lane, nje);
      const int n = min(32, je - jb);
      const int k0 = (t / p.units) * p.sw64;  // swath's first 64-column panel
      for (int i = 0; i < n; ++i) {
        const int col = __shfl_sync(~0u, cur.col, i);
        const int cnt = __shfl_sync(~0u, cur.cnt, i);
        const int aoff = __shfl_sync(~0u, cur.aoff, i);
        const int j = __shfl_sync(~0u, cur.j, i);
        int blk[G];
#pragma unroll
        for (int s = 0; s < G; ++s) blk[s] = __shfl_sync(~0u, cur.blk[s], i);
        if (lane == 0) {
          bar_wait(&empty[stage], phase ^ 1u);
          unsigned char* a = ring + stage * p.stage_bytes;
          unsigned char* b = a + p.a_bytes;
          const unsigned bytes = p.b_bytes + (AM == 3 ? G : cnt) * p.blk_bytes;
          bar_expect(&full[stage], bytes);
          tma3d(b, &map_b, &full[stage], 0, col * p.bs, k0, pol);
          if constexpr (AM == 0) {
#pragma unroll
            for (int s = 0; s < G; ++s)
              if (s < cnt) tma3d(a + s * p.blk_bytes, &map_a, &full[stage], 0, 0, blk[s], pol);
          } else if constexpr (AM == 1) {
            bulk(a, p.gathered + (size_t)aoff * p.blk_bytes, cnt * p.blk_bytes, &full[stage], pol);
          } else if constexpr (AM == 2) {
#pragma unroll
            for (int s = 0; s < G; ++s)
              if (s < cnt) bulk(a + s * p.blk_bytes, p.avals + (size_t)blk[s] * p.blk_bytes, p.blk_bytes, &full[stage], pol);
          } else {
            bulk(a, p.padded + (size_t)j * G * p.blk_bytes, G * p.blk_bytes, &full[stage], pol);
          }
        }
        if (++stage == p.stages) stage = 0, phase ^= 1u;
      }
      t = nt;
      jb = njb;
      je = nje;
      cur = nxt;
    }
  } else if (threadIdx.x >= 128) {
    if constexpr (CONS == 0) {
      const bool releaser = threadIdx.x % 128 == 0;
      for (int t = blockIdx.x; t < p.ntiles; t += gridDim.x) {
        const int items = __ldg(p.item_ptr + t % p.units + 1) - __ldg(p.item_ptr + t % p.units);
        for (int i = 0; i < items; ++i) {
          bar_wait(&full[stage], phase);
          if (releaser) bar_arrive(&empty[stage]);
          if (++stage == p.stages) stage = 0, phase ^= 1u;
        }
      }
    } else {
      asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
      constexpr int MT = SW / 2 / 64;  // 64-column m-tiles per consumer warpgroup
      constexpr int NA = BS / 2;       // accumulators per thread per row and m-tile
      constexpr int BLK = BS * BS * 2;
      constexpr int DEPTH = CONS == 4 ? 2 : (CONS >= 5 ? 3 : 1);  // wgmma groups left in flight
      constexpr int KIND = CONS >= 4 ? (CONS == 6 ? 3 : 1) : CONS;  // 1 cond, 2 switch, 3 every row
      const int wg = threadIdx.x / 128 - 1;
      const bool releaser = threadIdx.x % 128 == 0;
      for (int q = threadIdx.x - 128; q < 2048 / 4; q += 256) reinterpret_cast<unsigned*>(zero_blk)[q] = 0;
      asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
      asm volatile("bar.sync 1, 256;\n" ::: "memory");
      const uint32_t zero_addr = sa(zero_blk);
      const uint32_t ring_a = sa(ring);
      float acc[G][MT][NA];
      int pend[3] = {-1, -1, -1};  // stages of the last DEPTH items, newest first
      for (int t = blockIdx.x; t < p.ntiles; t += gridDim.x) {
#pragma unroll
        for (int g = 0; g < G; ++g)
#pragma unroll
          for (int m = 0; m < MT; ++m)
#pragma unroll
            for (int i = 0; i < NA; ++i) acc[g][m][i] = 0.f;
        const int j0 = __ldg(p.item_ptr + t % p.units), j1 = __ldg(p.item_ptr + t % p.units + 1);
        int mb = j0 + lane < j1 ? __ldg(p.item_mask + j0 + lane) : 0;
        int mbn = j0 + 32 + lane < j1 ? __ldg(p.item_mask + j0 + 32 + lane) : 0;
        for (int j = j0; j < j1; ++j) {
          const int i = (j - j0) & 31;
          if (i == 0 && j > j0) {
            mb = mbn;
            mbn = j + 32 + lane < j1 ? __ldg(p.item_mask + j + 32 + lane) : 0;
          }
          const unsigned mask = (unsigned)__shfl_sync(~0u, mb, i);
          bar_wait(&full[stage], phase);
          const uint32_t a_base = ring_a + stage * p.stage_bytes;
          const uint32_t b_base = a_base + p.a_bytes + wg * MT * BS * 128;
          fence_all<G, MT, NA>(acc);
          asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
          if constexpr (KIND == 1) {  // a conditional wgmma set per row
            int s = 0;
#pragma unroll
            for (int r = 0; r < G; ++r)
              if ((mask >> r) & 1u) row_set<G, MT, BS>(acc, r, a_base + BLK * s++, b_base);
          } else if constexpr (KIND == 2) {  // one straight-line block per mask
            dispatch<G, MT, BS>(mask, acc, a_base, b_base);
          } else {  // every row, absent rows against a zero block
            int s = 0;
#pragma unroll
            for (int r = 0; r < G; ++r) {
              const bool present = (mask >> r) & 1u;
              row_set<G, MT, BS>(acc, r, present ? a_base + BLK * s : zero_addr, b_base);
              s += present;
            }
          }
          asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
          fence_all<G, MT, NA>(acc);
          asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(DEPTH) : "memory");
          fence_all<G, MT, NA>(acc);
          if (pend[DEPTH - 1] >= 0 && releaser) bar_arrive(&empty[pend[DEPTH - 1]]);
#pragma unroll
          for (int k = DEPTH - 1; k > 0; --k) pend[k] = pend[k - 1];
          pend[0] = stage;
          if (++stage == p.stages) stage = 0, phase ^= 1u;
        }
        asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
        fence_all<G, MT, NA>(acc);
#pragma unroll
        for (int k = 0; k < DEPTH; ++k) {
          if (pend[k] >= 0 && releaser) bar_arrive(&empty[pend[k]]);
          pend[k] = -1;
        }
        // No epilogue; keep the sums alive (never true for these inputs).
        float s = 0.f;
#pragma unroll
        for (int g = 0; g < G; ++g)
#pragma unroll
          for (int m = 0; m < MT; ++m) s += acc[g][m][0];
        if (s == 12345.678f) p.sink[threadIdx.x] = s;
      }
    }
  } else if (threadIdx.x >= 32) {
    if constexpr (CONS != 0) asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
  }
}

struct Groups {  // items of every group of G consecutive block rows
  std::vector<int> item_ptr, item_col, item_cnt, item_aoff, blkidx, slot, item_mask;  // slot: row within group per blkidx
};

static Groups build_groups(const std::vector<int>& row_ptr, const std::vector<int>& col_idx, int G) {
  Groups g;
  const int rows = (int)row_ptr.size() - 1;
  g.item_ptr.push_back(0);
  for (int r0 = 0; r0 < rows; r0 += G) {
    std::vector<std::array<int, 3>> e;  // (col, row in group, block)
    for (int r = r0; r < std::min(rows, r0 + G); ++r)
      for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) e.push_back({col_idx[k], r - r0, k});
    std::sort(e.begin(), e.end());
    for (size_t i = 0; i < e.size();) {
      size_t j = i;
      g.item_col.push_back(e[i][0]);
      g.item_aoff.push_back((int)g.blkidx.size());
      while (j < e.size() && e[j][0] == e[i][0]) {
        g.blkidx.push_back(e[j][2]);
        g.slot.push_back(e[j][1]);
        ++j;
      }
      g.item_cnt.push_back((int)(j - i));
      int mask = 0;
      for (size_t q = i; q < j; ++q) mask |= 1 << e[q][1];
      g.item_mask.push_back(mask);
      i = j;
    }
    g.item_ptr.push_back((int)g.item_col.size());
  }
  return g;
}

static PFN_cuTensorMapEncodeTiled_v12000 encode_fn() {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
  return (PFN_cuTensorMapEncodeTiled_v12000)fn;
}

static CUtensorMap make_map(void* base, int rank, const cuuint64_t* dims, const cuuint64_t* strides,
                            const cuuint32_t* box, CUtensorMapSwizzle sw) {
  CUtensorMap m;
  cuuint32_t es[3] = {1, 1, 1};
  if (encode_fn()(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, rank, base, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                  sw, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {
    printf("tensor map encode failed\n");
    exit(1);
  }
  return m;
}

struct Case {
  int bs, G, am, sw, stages, cons;
};

int main(int argc, char** argv) {
  const int reps = argc > 1 ? atoi(argv[1]) : 7;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  const int n = 8192, kdim = 8192, m = 8192;
  const double density = 0.125;
  char* flush;
  const size_t flush_bytes = size_t{256} << 20;
  CK(cudaMalloc(&flush, flush_bytes));
  std::vector<unsigned short> hb((size_t)kdim * n);
  std::mt19937 rng(7);
  for (auto& x : hb) x = (unsigned short)(0x3c00 | (rng() & 0x3ff));
  unsigned short* db;
  CK(cudaMalloc(&db, hb.size() * 2));
  CK(cudaMemcpy(db, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
  float* sink;
  CK(cudaMalloc(&sink, 4096));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);

  // {block, G, A mode, swath, stages, consumer}: consumer 0 = copy-only; with math (16 x 16):
  // 1 = a conditional wgmma set per present row, 2 = one straight-line block per row mask,
  // 3 = every row (absent rows against a zero block; G = 1 is today's consumer).
  // consumer: 0 copy-only; 1 a conditional wgmma set per present row, 2 one straight-line block per
  // row mask, 3 every row (absent rows against a zero block; G = 1 is today's consumer); 4 / 5 as 1
  // with 2 / 3 wgmma groups left in flight (stages released that late), 6 as 3 with 3 in flight.
  const Case cases[] = {
      {16, 1, 0, 1024, 6, 0}, {16, 1, 0, 1024, 6, 3}, {16, 1, 0, 1024, 6, 6}, {16, 4, 1, 512, 8, 0},
      {16, 4, 1, 512, 12, 1}, {16, 4, 1, 512, 12, 4}, {16, 4, 1, 512, 12, 5}, {16, 2, 1, 1024, 6, 0},
      {16, 2, 1, 1024, 6, 1}, {16, 2, 1, 1024, 6, 5}, {32, 1, 0, 512, 6, 0},  {32, 1, 0, 512, 6, 3},
      {32, 1, 0, 512, 6, 6},  {32, 4, 1, 256, 8, 0},  {32, 4, 1, 256, 8, 1},  {32, 4, 1, 256, 8, 5},
      {32, 2, 1, 512, 6, 0},  {32, 2, 1, 512, 6, 1},  {32, 2, 1, 512, 6, 5},
  };



  printf("%-28s %6s %9s %8s %8s %10s %9s %9s\n", "case", "stages", "ms", "TFLOPS", "B/FMA", "GB/s", "items/SM",
         "reqs/SM");
  int last_bs = 0;
  std::vector<int> row_ptr, col_idx;
  char *davals = nullptr;
  for (const Case& c : cases) {
    const int brows = m / c.bs, bcols = kdim / c.bs, per_row = (int)(bcols * density);
    const int blk_bytes = c.bs * c.bs * 2;
    if (c.bs != last_bs) {  // the uniform pattern and A's values for this block size
      last_bs = c.bs;
      row_ptr.assign(1, 0);
      col_idx.clear();
      std::vector<int> cols(bcols);
      for (int r = 0; r < brows; ++r) {
        std::iota(cols.begin(), cols.end(), 0);
        std::shuffle(cols.begin(), cols.end(), rng);
        std::sort(cols.begin(), cols.begin() + per_row);
        col_idx.insert(col_idx.end(), cols.begin(), cols.begin() + per_row);
        row_ptr.push_back((int)col_idx.size());
      }
      if (davals) CK(cudaFree(davals));
      std::vector<unsigned short> ha((size_t)col_idx.size() * c.bs * c.bs);
      for (auto& x : ha) x = (unsigned short)(0x3c00 | (rng() & 0x3ff));
      CK(cudaMalloc(&davals, ha.size() * 2));
      CK(cudaMemcpy(davals, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
    }
    const long nnzb = (long)col_idx.size();
    const Groups g = build_groups(row_ptr, col_idx, c.G);
    const int items = (int)g.item_col.size();
    // Pre-gathered A: compact per item (A1) and G fixed slots per item (A3), on the device.
    std::vector<int> dst_slot(g.blkidx.size());
    for (int j = 0; j < items; ++j)
      for (int s = 0; s < g.item_cnt[j]; ++s) dst_slot[g.item_aoff[j] + s] = j * c.G + g.slot[g.item_aoff[j] + s];
    char *dgath, *dpad;
    CK(cudaMalloc(&dgath, nnzb * blk_bytes));
    CK(cudaMalloc(&dpad, (size_t)items * c.G * blk_bytes));
    CK(cudaMemset(dpad, 0, (size_t)items * c.G * blk_bytes));
    for (size_t q = 0; q < g.blkidx.size(); ++q) {
      CK(cudaMemcpyAsync(dgath + q * blk_bytes, davals + (size_t)g.blkidx[q] * blk_bytes, blk_bytes, cudaMemcpyDeviceToDevice));
      CK(cudaMemcpyAsync(dpad + (size_t)dst_slot[q] * blk_bytes, davals + (size_t)g.blkidx[q] * blk_bytes, blk_bytes,
                         cudaMemcpyDeviceToDevice));
    }
    CK(cudaDeviceSynchronize());
    int* dints;
    std::vector<int> all;
    auto append = [&](const std::vector<int>& v) {
      const size_t o = all.size();
      all.insert(all.end(), v.begin(), v.end());
      return o;
    };
    const size_t o_ptr = append(g.item_ptr), o_col = append(g.item_col), o_cnt = append(g.item_cnt),
                 o_aoff = append(g.item_aoff), o_blk = append(g.blkidx), o_mask = append(g.item_mask);
    CK(cudaMalloc(&dints, all.size() * 4));
    CK(cudaMemcpy(dints, all.data(), all.size() * 4, cudaMemcpyHostToDevice));

    Params p{};
    p.units = (int)g.item_ptr.size() - 1;
    p.swaths = n / c.sw;
    p.ntiles = p.units * p.swaths;
    p.sw64 = c.sw / 64;
    p.bs = c.bs;
    p.stages = c.stages;
    p.blk_bytes = blk_bytes;
    p.a_bytes = (c.G * blk_bytes + 1023) / 1024 * 1024;
    p.b_bytes = c.bs * c.sw * 2;
    p.stage_bytes = p.a_bytes + p.b_bytes;
    p.item_ptr = dints + o_ptr;
    p.item_col = dints + o_col;
    p.item_cnt = dints + o_cnt;
    p.item_aoff = dints + o_aoff;
    p.blkidx = dints + o_blk;
    p.item_mask = dints + o_mask;
    p.sink = sink;
    p.avals = davals;
    p.gathered = dgath;
    p.padded = dpad;
    const int smem = p.stages * p.stage_bytes + 1024;
    char name[64];
    snprintf(name, sizeof name, "bs%d G%d A%d sw%d %s", c.bs, c.G, c.am, c.sw, c.cons == 0 ? "copy" : c.cons == 1 ? "mma-cond" : c.cons == 2 ? "mma-switch" : c.cons == 3 ? "mma-all" : c.cons == 4 ? "mma-cond-d2" : c.cons == 5 ? "mma-cond-d3" : "mma-all-d3");
    if (smem > 227 * 1024 - 2048 || c.stages > kMaxStages) {
      printf("%-28s does not fit (%d bytes)\n", name, smem);
      continue;
    }
    const cuuint64_t adims[3] = {(cuuint64_t)c.bs, (cuuint64_t)c.bs, (cuuint64_t)nnzb};
    const cuuint64_t astr[2] = {(cuuint64_t)c.bs * 2, (cuuint64_t)blk_bytes};
    const cuuint32_t abox[3] = {(cuuint32_t)c.bs, (cuuint32_t)c.bs, 1};
    const CUtensorMap map_a =
        make_map(davals, 3, adims, astr, abox, c.bs == 16 ? CU_TENSOR_MAP_SWIZZLE_32B : CU_TENSOR_MAP_SWIZZLE_64B);
    const cuuint64_t bdims[3] = {64, (cuuint64_t)kdim, (cuuint64_t)n / 64};
    const cuuint64_t bstr[2] = {(cuuint64_t)n * 2, 128};
    const cuuint32_t bbox[3] = {64, (cuuint32_t)c.bs, (cuuint32_t)c.sw / 64};
    const CUtensorMap map_b = make_map(db, 3, bdims, bstr, bbox, CU_TENSOR_MAP_SWIZZLE_128B);

    void (*kern)(const CUtensorMap, const CUtensorMap, const Params) = nullptr;
#define PICK(GG, AA, CC, SS, BB) \
  if (c.G == GG && c.am == AA && c.cons == CC && (CC == 0 || (c.sw == SS && c.bs == BB))) kern = probe_kernel<GG, AA, CC, SS, BB>;
    PICK(1, 0, 0, 0, 16) PICK(1, 2, 0, 0, 16) PICK(2, 1, 0, 0, 16) PICK(4, 0, 0, 0, 16) PICK(4, 1, 0, 0, 16)
    PICK(4, 2, 0, 0, 16) PICK(4, 3, 0, 0, 16) PICK(8, 1, 0, 0, 16) PICK(1, 0, 3, 1024, 16) PICK(4, 1, 1, 512, 16)
    PICK(4, 1, 2, 512, 16) PICK(4, 1, 3, 512, 16) PICK(2, 1, 1, 1024, 16) PICK(2, 1, 3, 1024, 16)
    PICK(1, 0, 3, 512, 32) PICK(4, 1, 1, 256, 32) PICK(2, 1, 1, 512, 32) PICK(4, 1, 4, 512, 16)
    PICK(4, 1, 5, 512, 16) PICK(1, 0, 6, 1024, 16) PICK(4, 1, 5, 256, 32) PICK(1, 0, 6, 512, 32) PICK(2, 1, 5, 512, 32)
    PICK(2, 1, 5, 1024, 16)
#undef PICK
    if (!kern) {
      printf("%-28s not instantiated\n", name);
      continue;
    }
    CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    std::vector<float> ts;
    for (int r = 0; r < reps + 1; ++r) {
      CK(cudaMemsetAsync(flush, r, flush_bytes));
      cudaEventRecord(e0);
      kern<<<prop.multiProcessorCount, 384, smem>>>(map_a, map_b, p);
      cudaEventRecord(e1);
      CK(cudaEventSynchronize(e1));
      CK(cudaGetLastError());
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      if (r > 0) ts.push_back(ms);
    }
    std::sort(ts.begin(), ts.end());
    const float ms = ts[ts.size() / 2];
    const double fma = (double)nnzb * c.bs * c.bs * n;
    const double a_total = (double)(c.am == 3 ? (double)items * c.G : (double)nnzb) * blk_bytes * p.swaths;
    const double bytes = (double)items * p.swaths * p.b_bytes + a_total;
    const double reqs = (double)items * p.swaths * (1 + ((c.am == 0 || c.am == 2) ? (double)nnzb / items : 1.0));
    printf("%-28s %6d %9.3f %8.1f %8.4f %10.0f %9.0f %9.0f   (min %.3f max %.3f)\n", name, c.stages, ms,
           2 * fma / (ms * 1e9), bytes / fma, bytes / (ms * 1e6), (double)items * p.swaths / prop.multiProcessorCount,
           reqs / prop.multiProcessorCount, ts.front(), ts.back());
    if (c.cons == 0 && c.am == 1) {  // the per-run gather this layout needs, timed the same way
      std::vector<float> tg;
      for (int r = 0; r < reps + 1; ++r) {
        CK(cudaMemsetAsync(flush, r, flush_bytes));
        cudaEventRecord(e0);
        gather_kernel<<<prop.multiProcessorCount * 8, 256>>>((const uint4*)davals, (uint4*)dgath, p.blkidx, nnzb,
                                                            blk_bytes / 16);
        cudaEventRecord(e1);
        CK(cudaEventSynchronize(e1));
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        if (r > 0) tg.push_back(ms);
      }
      std::sort(tg.begin(), tg.end());
      printf("%-28s %6s %9.3f   (gather of A: %.1f MB read + written, %.0f GB/s)\n", "  gather", "", tg[tg.size() / 2],
             nnzb * blk_bytes / 1e6, 2.0 * nnzb * blk_bytes / (tg[tg.size() / 2] * 1e6));
    }
    CK(cudaFree(dgath));
    CK(cudaFree(dpad));
    CK(cudaFree(dints));
  }
  return 0;
}
