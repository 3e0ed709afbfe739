// CSR -> BSR on the GPU (see csr_to_bsr.hpp for the contract).
//
// Bytes the numeric phase moves, and why that is the floor:
//   reads   nnz * (sizeof(T) + 4)        every CSR value once + its int32 scatter offset
//   writes  nnzb * R * C * sizeof(T)     every BSR value once, the zero fill included
// A numeric refresh cannot read less than the CSR values nor write less than the BSR values; the
// only overhead is the 4-byte map per entry, the price of not re-deriving block positions from
// col_idx (which would also cost 4 bytes per entry, plus divisions and a merge). The zero fill
// and the scatter of a tile run in one CTA back to back, so DRAM sees each BSR line written once.
// Example, 3D 7-point Poisson on 128^3 (2.1M rows, 14.6M nnz), f32:
//   R = C = 3:  nnzb ~ 7.7M   -> 117 MB read + 277 MB written
//   R = C = 16: nnzb ~ 0.92M  -> 117 MB read + 940 MB written
//   R = C = 32: nnzb ~ 0.46M  -> 117 MB read + 1.9 GB written
// so bandwidth, not the arithmetic, bounds it; the tile kernel is written for wide stores.
// Two numeric kernels share the tiles and the map (CsrToBsrNumeric): scatter (default; zero fill
// then scatter in global memory, detail_csr_to_bsr_numeric.cuh) and staged / staged_wide (the tile
// assembled in a 32 / 64 KiB shared-memory stage and written once in 16-byte stores,
// detail_csr_to_bsr_staged.cuh). On the H100 the
// scatter kernel reached only 33-55% of the copy bandwidth; docs/perf_log_convert.md says why and
// what the staged one is predicted to do (not yet measured).
//
// Symbolic phase (T-independent, so its kernels and the CUB scan are compiled once):
//   1. merge count pass: distinct block columns per block row, pattern validation, the CSR entry
//      offset of every block row and the largest block row      (detail_csr_to_bsr_merge.cuh)
//   2. exclusive scan of the counts -> row_ptr                   (detail_primitives.cu)
//   3. one synchronisation: nnzb and the validation status come back; throw on a bad pattern
//   4. cut the block rows into tiles of ~kCsrToBsrTileBytes of numeric traffic
//   5. merge fill pass: col_idx and the tile-relative scatter map
#include "bsrflow/formats/csr_to_bsr.hpp"

#include <algorithm>
#include <climits>
#include <iterator>
#include <string>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/detail_csr_to_bsr_merge.cuh"
#include "bsrflow/formats/detail_csr_to_bsr_numeric.cuh"
#include "bsrflow/formats/detail_csr_to_bsr_staged.cuh"
#include "bsrflow/formats/detail_pattern_status.cuh"
#include "bsrflow/formats/detail_primitives.cuh"

namespace bsrflow {
namespace {

using detail::CsrMergeParams;

// tile_block[t] / tile_entry[t]: first block / CSR entry of tile t, t in [0, tiles]. Tile t
// starts at the first block row whose work_before reaches t * tile_work, the same rule the fill
// pass inverts (tile = work_before / tile_work) to make the map tile-relative.
__global__ void csr_to_bsr_tiles_kernel(const int* __restrict__ bsr_row_ptr, const int* __restrict__ entry_ptr,
                                        int block_rows, int block_size, std::int64_t tile_work, int tiles,
                                        int* __restrict__ tile_block, int* __restrict__ tile_entry) {
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t <= tiles;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    int b = block_rows;
    if (t < tiles) {
      const std::int64_t target = t * tile_work;
      int lo = 0, hi = block_rows;  // first b in [0, block_rows] with work_before(b) >= target
      while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (detail::tile_work_before(bsr_row_ptr[mid], entry_ptr[mid], block_size) < target) lo = mid + 1;
        else hi = mid;
      }
      b = lo;
    }
    tile_block[t] = bsr_row_ptr[b];
    tile_entry[t] = entry_ptr[b];
  }
}

template <bool kFill>
void launch_merge(const CsrMergeParams& p, cudaStream_t stream) {
  if (p.block_rows == 0) return;
  if (p.rows_per_lane > detail::kMergeMaxRegisterRows) {
    // Shared-memory cursors: one warp (one block row) per CTA.
    const int smem = 3 * p.rows_per_lane * 32 * static_cast<int>(sizeof(int));
    auto* kernel = detail::csr_to_bsr_merge_kernel<kFill, 0>;
    BSRFLOW_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    kernel<<<static_cast<unsigned>(p.block_rows), 32, smem, stream>>>(p);
    BSRFLOW_CHECK_LAUNCH("csr_to_bsr_merge_kernel<shared cursors>");
    return;
  }
  const std::int64_t block_rows_per_cta = (detail::kMergeThreads / 32) * (32 / p.group);
  const auto grid = static_cast<unsigned>((p.block_rows + block_rows_per_cta - 1) / block_rows_per_cta);
  switch (p.rows_per_lane) {
    case 1: detail::csr_to_bsr_merge_kernel<kFill, 1><<<grid, detail::kMergeThreads, 0, stream>>>(p); break;
    case 2: detail::csr_to_bsr_merge_kernel<kFill, 2><<<grid, detail::kMergeThreads, 0, stream>>>(p); break;
    case 3:
    case 4: detail::csr_to_bsr_merge_kernel<kFill, 4><<<grid, detail::kMergeThreads, 0, stream>>>(p); break;
    default: detail::csr_to_bsr_merge_kernel<kFill, 8><<<grid, detail::kMergeThreads, 0, stream>>>(p); break;
  }
  BSRFLOW_CHECK_LAUNCH("csr_to_bsr_merge_kernel");
}

// What the symbolic phase hands the (typed) class.
struct CsrToBsrStructure {
  DeviceBuffer<int> row_ptr;     // block_rows + 1
  DeviceBuffer<int> col_idx;     // nnzb
  DeviceBuffer<int> map;         // nnz
  DeviceBuffer<int> tile_block;  // tiles + 1
  DeviceBuffer<int> tile_entry;  // tiles + 1
  int tiles = 0;
};

CsrToBsrStructure csr_to_bsr_symbolic(int rows, int cols, std::int64_t nnz, const int* row_ptr, const int* col_idx,
                                      int R, int C, Padding padding, std::size_t value_bytes, cudaStream_t stream) {
  // ---- arguments (nothing launched yet) ----
  check_block_shape(rows, cols, R, C, padding);
  BSRFLOW_REQUIRE(nnz >= 0 && nnz <= INT_MAX, Errc::invalid_argument,
                  "csr_to_bsr: nnz (" + std::to_string(nnz) + ") must be in [0, 2^31)");
  BSRFLOW_REQUIRE(rows > 0 || nnz == 0, Errc::invalid_argument,
                  "csr_to_bsr: a CSR matrix with 0 rows has nnz = " + std::to_string(nnz));
  BSRFLOW_REQUIRE(rows == 0 || row_ptr != nullptr, Errc::invalid_argument, "csr_to_bsr: csr.row_ptr is null");
  BSRFLOW_REQUIRE(nnz == 0 || col_idx != nullptr, Errc::invalid_argument,
                  "csr_to_bsr: csr.col_idx is null but nnz is " + std::to_string(nnz));
  if (rows > 0) detail::require_device_pointer(row_ptr, "csr_to_bsr", "csr.row_ptr");
  if (nnz > 0) detail::require_device_pointer(col_idx, "csr_to_bsr", "csr.col_idx");
  BSRFLOW_REQUIRE(R <= detail::kMergeMaxR, Errc::unsupported,
                  "csr_to_bsr: block height R (" + std::to_string(R) + ") exceeds " +
                      std::to_string(detail::kMergeMaxR) + ", the largest supported");
  BSRFLOW_REQUIRE(static_cast<std::int64_t>(R) * C <= INT_MAX, Errc::unsupported,
                  "csr_to_bsr: a " + std::to_string(R) + "x" + std::to_string(C) + " block exceeds 2^31 values");

  const int block_rows = ceil_div(rows, R);
  const int block_size = R * C;
  CsrMergeParams p;
  p.rows = rows;
  p.cols = cols;
  p.R = R;
  p.C = C;
  p.block_rows = block_rows;
  p.group = 1;
  while (p.group < R && p.group < 32) p.group *= 2;
  p.rows_per_lane = (R + p.group - 1) / p.group;
  p.nnz = nnz;
  p.div_C = detail::FastDiv(static_cast<std::uint32_t>(C));
  p.row_ptr = row_ptr;
  p.col_idx = col_idx;
  p.block_size = block_size;

  // ---- count pass + scan ----
  DeviceBuffer<detail::PatternStatus> status(1, stream);
  status.fill_bytes(0xFF, stream);  // every slot "none" (UINT_MAX / -1)
  DeviceBuffer<int> counts(static_cast<std::size_t>(block_rows) + 1, stream);
  BSRFLOW_CUDA(cudaMemsetAsync(counts.data() + block_rows, 0, sizeof(int), stream));
  DeviceBuffer<int> entry_ptr(static_cast<std::size_t>(block_rows) + 1, stream);
  CsrToBsrStructure s;
  s.row_ptr = DeviceBuffer<int>(static_cast<std::size_t>(block_rows) + 1, stream);
  p.block_counts = counts.data();
  p.entry_ptr = entry_ptr.data();
  p.status = status.data();
  launch_merge<false>(p, stream);
  detail::exclusive_sum(counts.data(), s.row_ptr.data(), static_cast<std::int64_t>(block_rows) + 1, stream);

  // ---- the one synchronisation ----
  detail::PatternStatus st;
  int nnzb = 0;
  detail::copy_to_host_async(&st, status.data(), 1, stream);
  detail::copy_to_host_async(&nnzb, s.row_ptr.data() + block_rows, 1, stream);
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));
  detail::throw_if_bad_pattern(st, "csr_to_bsr",
                               detail::CompressedDesc{false, rows, cols, 1, 1, Padding::zero_fill, nnz, row_ptr, col_idx},
                               stream);

  // ---- tiles ----
  const std::int64_t tile_work =
      std::max<std::int64_t>(1, detail::kCsrToBsrTileBytes / static_cast<std::int64_t>(value_bytes));
  const std::int64_t total_work = detail::tile_work_before(nnzb, static_cast<int>(nnz), block_size);
  s.tiles = block_rows == 0 ? 0 : static_cast<int>(std::max<std::int64_t>(1, (total_work + tile_work - 1) / tile_work));
  // A tile's values span less than tile_work plus two largest block rows (values + entries).
  const std::int64_t largest_block_row = static_cast<std::int64_t>(std::max(st.max_row_count, 0)) * block_size;
  BSRFLOW_REQUIRE(tile_work + 2 * largest_block_row <= INT_MAX, Errc::unsupported,
                  "csr_to_bsr: a block row of " + std::to_string(st.max_row_count) + " blocks of " +
                      std::to_string(R) + "x" + std::to_string(C) +
                      " holds more values than the int32 scatter map can address (2^31)");

  // ---- fill pass ----
  s.col_idx = DeviceBuffer<int>(static_cast<std::size_t>(nnzb), stream);
  s.map = DeviceBuffer<int>(static_cast<std::size_t>(nnz), stream);
  s.tile_block = DeviceBuffer<int>(static_cast<std::size_t>(s.tiles) + 1, stream);
  s.tile_entry = DeviceBuffer<int>(static_cast<std::size_t>(s.tiles) + 1, stream);
  if (s.tiles > 0) {
    csr_to_bsr_tiles_kernel<<<detail::elementwise_grid(static_cast<std::int64_t>(s.tiles) + 1),
                              detail::kElementwiseThreads, 0, stream>>>(s.row_ptr.data(), entry_ptr.data(),
                                                                        block_rows, block_size, tile_work, s.tiles,
                                                                        s.tile_block.data(), s.tile_entry.data());
    BSRFLOW_CHECK_LAUNCH("csr_to_bsr_tiles_kernel");
    p.bsr_row_ptr = s.row_ptr.data();
    p.bsr_col_idx = s.col_idx.data();
    p.map = s.map.data();
    p.tile_block = s.tile_block.data();
    p.tiles = s.tiles;
    p.tile_work = tile_work;
    launch_merge<true>(p, stream);
  } else {
    // No block rows: the numeric phase launches nothing, but keep tile_block a valid [0].
    BSRFLOW_CUDA(cudaMemsetAsync(s.tile_block.data(), 0, sizeof(int), stream));
    BSRFLOW_CUDA(cudaMemsetAsync(s.tile_entry.data(), 0, sizeof(int), stream));
  }
  return s;
}

template <class T, int kStageBytes>
void allow_stage() {
  auto* kernel = detail::csr_to_bsr_numeric_staged_kernel<T, kStageBytes>;
  BSRFLOW_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kStageBytes));
  BSRFLOW_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxShared));
}

template <class T, int kStageBytes>
void launch_staged(const detail::CsrToBsrNumericParams<T>& p, int tiles, cudaStream_t stream) {
  detail::csr_to_bsr_numeric_staged_kernel<T, kStageBytes>
      <<<static_cast<unsigned>(tiles), detail::kCsrToBsrStagedThreads, kStageBytes, stream>>>(p);
  BSRFLOW_CHECK_LAUNCH("csr_to_bsr_numeric_staged_kernel");
}

}  // namespace

template <class T>
CsrToBsr<T>::CsrToBsr(CsrView<const T> csr, int R, int C, Padding padding, cudaStream_t stream) {
  CsrToBsrStructure s =
      csr_to_bsr_symbolic(csr.rows, csr.cols, csr.nnz, csr.row_ptr, csr.col_idx, R, C, padding, sizeof(T), stream);
  block_size_ = R * C;
  nnz_ = csr.nnz;
  value_count_ = static_cast<std::int64_t>(s.col_idx.size()) * block_size_;
  out_ = Bsr<T>(csr.rows, csr.cols, R, C, std::move(s.row_ptr), std::move(s.col_idx),
                DeviceBuffer<T>(static_cast<std::size_t>(value_count_), stream));
  map_ = std::move(s.map);
  tile_block_ = std::move(s.tile_block);
  tile_entry_ = std::move(s.tile_entry);
  tiles_ = s.tiles;
  // The staged numeric kernels' stages: the dynamic shared memory they launch with, and the
  // largest carveout so that 6 (32 KiB) / 3 (64 KiB) CTAs fit on an SM. Set here, not in
  // numeric(), which must stay capturable and cheap.
  allow_stage<T, detail::kCsrToBsrStageBytes>();
  allow_stage<T, detail::kCsrToBsrWideStageBytes>();
}

const char* numeric_variant_name(CsrToBsrNumeric variant) {
  switch (variant) {
    case CsrToBsrNumeric::scatter: return "scatter";
    case CsrToBsrNumeric::staged: return "staged";
    case CsrToBsrNumeric::staged_wide: return "staged-wide";
  }
  return "unknown";
}

template <class T>
void CsrToBsr<T>::numeric(const T* csr_values, T* bsr_values, cudaStream_t stream, CsrToBsrNumeric variant) const {
  BSRFLOW_REQUIRE(nnz_ == 0 || csr_values != nullptr, Errc::invalid_argument,
                  "CsrToBsr::numeric: csr_values is null but the pattern has " + std::to_string(nnz_) + " entries");
  BSRFLOW_REQUIRE(value_count_ == 0 || bsr_values != nullptr, Errc::invalid_argument,
                  "CsrToBsr::numeric: bsr_values is null but the output has " + std::to_string(value_count_) +
                      " values (were output().values() moved out?)");
  BSRFLOW_REQUIRE(std::find(std::begin(kCsrToBsrNumericVariants), std::end(kCsrToBsrNumericVariants), variant) !=
                      std::end(kCsrToBsrNumericVariants),
                  Errc::invalid_argument,
                  "CsrToBsr::numeric: unknown variant " + std::to_string(static_cast<int>(variant)));
  if (tiles_ == 0) return;
  detail::CsrToBsrNumericParams<T> p;
  p.csr_values = csr_values;
  p.map = map_.data();
  p.tile_block = tile_block_.data();
  p.tile_entry = tile_entry_.data();
  p.bsr_values = bsr_values;
  p.block_size = block_size_;
  switch (variant) {
    case CsrToBsrNumeric::scatter:
      detail::csr_to_bsr_numeric_kernel<T>
          <<<static_cast<unsigned>(tiles_), detail::kCsrToBsrNumericThreads, 0, stream>>>(p);
      BSRFLOW_CHECK_LAUNCH("csr_to_bsr_numeric_kernel");
      return;
    case CsrToBsrNumeric::staged: launch_staged<T, detail::kCsrToBsrStageBytes>(p, tiles_, stream); return;
    case CsrToBsrNumeric::staged_wide: launch_staged<T, detail::kCsrToBsrWideStageBytes>(p, tiles_, stream); return;
  }
}

template class CsrToBsr<__half>;
template class CsrToBsr<__nv_bfloat16>;
template class CsrToBsr<float>;
template class CsrToBsr<double>;

}  // namespace bsrflow
