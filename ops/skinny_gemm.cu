#include "bsrflow/ops/skinny_gemm.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/skinny_params.hpp"
#include "bsrflow/ops/sm90_tensor_map.hpp"
#include "bsrflow/ops/tuning_skinny.hpp"
#include "bsrflow/ops/tuning_sm90.hpp"

namespace bsrflow::skinny {

// Defined in skinny_gemm_{f16,bf16}.cu (skinny_instantiate.cuh).
template <class TIn>
void launch_for(const Params& p, bool out_f32, bool b_col_major, int width, int warp_nt, int grid, int smem, bool pdl,
                cudaStream_t stream);
template <class TIn>
int resident_per_sm(bool out_f32, bool b_col_major, int width, int warp_nt, int smem);

namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

void launch_prepare(DType in, DType out, Layout b_layout, int width, int warp_nt, int smem) {
  const Params none{};
  const bool out_f32 = out == DType::f32, bcol = b_layout == Layout::col_major;
  if (in == DType::f16) launch_for<__half>(none, out_f32, bcol, width, warp_nt, 0, smem, false, nullptr);
  else launch_for<__nv_bfloat16>(none, out_f32, bcol, width, warp_nt, 0, smem, false, nullptr);
}

int resident(DType in, DType out, Layout b_layout, int width, int warp_nt, int smem) {
  const bool out_f32 = out == DType::f32, bcol = b_layout == Layout::col_major;
  return in == DType::f16 ? resident_per_sm<__half>(out_f32, bcol, width, warp_nt, smem)
                          : resident_per_sm<__nv_bfloat16>(out_f32, bcol, width, warp_nt, smem);
}

}  // namespace

std::string rejection(const GemmBsrOperand& A, DType in, const DenseDesc& B, const DenseDesc&, const DeviceInfo& device) {
  if (in != DType::f16 && in != DType::bf16)
    return "the skinny kernel takes f16/bf16 inputs, not " + std::string(dtype_name(in));
  if (device.compute_capability() < 90)
    return "GPU " + device.name + " is sm_" + str(device.compute_capability()) +
           "; the skinny kernel needs sm_90 or newer (TMA loads)";
  if (!sm90::supported_block_dim(A.R) || !sm90::supported_block_dim(A.C))
    return "block shape " + str(A.R) + " x " + str(A.C) + ": the skinny kernel takes R, C in {16, 32, 64, 128}";
  if (B.cols > kMaxN) return "N (" + str(B.cols) + ") is above " + str(kMaxN) + ", the skinny kernel's widest tile";
  if (B.cols % 8 != 0) return "N (" + str(B.cols) + ") is not a multiple of 8";
  if (B.ld % 8 != 0) return "ldb (" + str(B.ld) + ") is not a multiple of 8 (TMA needs 16-byte row strides)";
  return {};
}

std::string name(DType in, int R, int C, int width, int warp_nt, Layout b_layout) {
  std::string s = "bsr_skinny_" + std::string(dtype_name(in)) + "_r" + str(R) + "c" + str(C) + "_w" + str(width);
  if (warp_nt * 8 < width) s += "_h" + str(warp_nt * 8);  // warps own column parts this wide
  if (b_layout == Layout::col_major) s += "_bcol";
  return s;
}

Plan make_plan(const GemmBsrOperand& A, DType in, DType out, int n, Layout b_layout, int sms, bool split,
               bool allow_pdl, std::size_t smem_optin, cudaStream_t stream) {
  Plan plan;
  plan.width = tile_width(n);
  const int block_rows = A.R > 0 ? ceil_div(A.rows, A.R) : 0;
  const int block_bytes = A.R * A.C * static_cast<int>(dtype_size(in));
  plan.warp_nt = warp_n_tiles(A.R, A.C, plan.width, rows_stay_whole(A.nnzb, block_rows, std::max(sms, 1), block_bytes));
  plan.smem = smem_bytes(A.R, A.C, plan.width, plan.warp_nt);
  BSRFLOW_REQUIRE(static_cast<std::size_t>(plan.smem) <= smem_optin, Errc::unsupported,
                  name(in, A.R, A.C, plan.width, plan.warp_nt, b_layout) + " needs " + str(plan.smem) +
                      " bytes of shared memory per CTA; the GPU allows " + str(static_cast<std::int64_t>(smem_optin)));
  launch_prepare(in, out, b_layout, plan.width, plan.warp_nt, plan.smem);

  if (block_rows == 0 || n == 0) return plan;  // nothing to compute
  const int* row_ptr = static_cast<const int*>(A.row_ptr);
  int limit = 0;  // 0: whole rows
  sm90::LastWave last;
  const int per_sm = std::clamp(resident(in, out, b_layout, plan.width, plan.warp_nt, plan.smem), 1, kMaxPlannedCtasPerSm);
  const int wave = per_sm * std::max(sms, 1);  // CTAs resident at once
  if (split) {
    const int longest = sm90::longest_row(row_ptr, block_rows, stream);
    limit = piece_limit(A.nnzb, block_rows, longest, wave, std::max(sms, 1), block_bytes);
    // Where the limit cuts no row, a partial last wave of whole rows gets its rows cut instead.
    if (sm90::pieces_for(longest, limit) == 1) last = last_wave(block_rows, wave);
  }
  plan.pieces = sm90::build_pieces(row_ptr, block_rows, limit, stream, last);
  plan.pdl = allow_pdl && programmatic_launch(plan.pieces.num_pieces, wave);
  if (plan.pieces.num_split_rows > 0) {
    const std::size_t slots = static_cast<std::size_t>(plan.pieces.num_slots);
    plan.split_of_slot = DeviceBuffer<int>(slots, stream);
    plan.counters = DeviceBuffer<int>(static_cast<std::size_t>(plan.pieces.num_split_rows), stream);
    plan.partials = DeviceBuffer<float>(slots * static_cast<std::size_t>(A.R) * plan.width, stream);
    BSRFLOW_CUDA(cudaMemsetAsync(plan.counters.data(), 0, plan.counters.bytes(), stream));
    sm90::fill_split_of_slot(plan.pieces.split_rows.data(), plan.pieces.num_split_rows, 1, plan.split_of_slot.data(),
                             stream);
  }
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));  // complete before the plan is used
  return plan;
}

template <class TIn, class TOut>
void run(const Plan& plan, BsrView<const TIn> A, DenseView<const TIn> B, DenseView<TOut> C, float alpha, float beta,
         cudaStream_t stream) {
  if (plan.pieces.num_pieces == 0) return;  // M == 0 or N == 0
  Params p{};
  // Never-read stand-in for an operand with no elements (a TMA map needs a valid address).
  const void* stand_in = plan.pieces.pieces.data();
  const int cb = std::min(A.C, 64);  // columns of one A box: a 128-wide block takes two
  const std::uint32_t width = static_cast<std::uint32_t>(plan.width);
  // A: one box is one block (or half of a 128-wide one); B: the C x width slice under one block.
  const int bps = blocks_per_stage(A.R, A.C, plan.width);
  p.lane_producer = lane_producer(A.R, A.C, plan.width) ? 1 : 0;
  p.a_rows_packed = a_rows_packed(A.R, A.C, plan.width) ? 1 : 0;
  // A's blocks as 128-byte rows or as their own rows: either way a block is box (0, 0, block) of
  // its map, so the producer does not tell them apart.
  auto a_map = [&](int box_blocks) {
    return p.a_rows_packed
               ? sm90::bsr_values_rows128_map(dtype_of<TIn>::value, A.values, A.nnzb, A.R, A.C, stand_in, box_blocks)
               : sm90::bsr_values_map(dtype_of<TIn>::value, A.values, A.nnzb, A.R, A.C, cb, stand_in, box_blocks);
  };
  p.tmap_a = a_map(1);
  if (p.lane_producer) p.tmap_a_stage = a_map(bps);  // a full stage of blocks in one box
  p.b_rows_packed =
      b_rows_packed(A.C, plan.width, B.layout == Layout::row_major, B.ld, B.cols, B.rows) ? 1 : 0;
  if (p.b_rows_packed) {
    const std::int64_t b_rows = static_cast<std::int64_t>(B.rows) * plan.width / 64;
    p.tmap_b = sm90::rows128_map(dtype_of<TIn>::value, B.data, b_rows, A.C * plan.width / 64, stand_in);
  } else if (B.layout == Layout::row_major) {
    const std::uint32_t box[2] = {width, static_cast<std::uint32_t>(A.C)};
    p.tmap_b = sm90::dense_map(dtype_of<TIn>::value, B.data, B.rows, B.cols, B.ld, true, box,
                               static_cast<int>(width) * 2, stand_in);
  } else {
    const std::uint32_t box[2] = {static_cast<std::uint32_t>(cb), width};
    p.tmap_b = sm90::dense_map(dtype_of<TIn>::value, B.data, B.rows, B.cols, B.ld, false, box, cb * 2, stand_in);
  }
  p.col_idx = A.col_idx;
  p.pieces = plan.pieces.pieces.data();
  p.R = A.R;
  p.C = A.C;
  p.blocks_per_stage = bps;
  p.stage_a_bytes = stage_a_bytes(A.R, A.C, plan.width);
  p.stage_bytes = stage_bytes(A.R, A.C, plan.width);
  p.split_of_slot = plan.split_of_slot.data();
  p.split_rows = plan.pieces.split_rows.data();
  p.counters = const_cast<int*>(plan.counters.data());
  p.partials = const_cast<float*>(plan.partials.data());
  p.c = C.data;
  p.ldc = C.ld;
  p.m = C.rows;
  p.n = C.cols;
  p.c_col_major = C.layout == Layout::col_major ? 1 : 0;
  p.alpha = alpha;
  p.beta = beta;
  launch_for<TIn>(p, std::is_same_v<TOut, float>, B.layout == Layout::col_major, plan.width, plan.warp_nt,
                  plan.pieces.num_pieces, plan.smem, plan.pdl, stream);
}

#define BSRFLOW_SKINNY_RUN(TIn, TOut)                                                                              \
  template void run<TIn, TOut>(const Plan&, BsrView<const TIn>, DenseView<const TIn>, DenseView<TOut>, float, float, \
                               cudaStream_t);
BSRFLOW_SKINNY_RUN(__half, __half)
BSRFLOW_SKINNY_RUN(__half, float)
BSRFLOW_SKINNY_RUN(__nv_bfloat16, __nv_bfloat16)
BSRFLOW_SKINNY_RUN(__nv_bfloat16, float)
#undef BSRFLOW_SKINNY_RUN

}  // namespace bsrflow::skinny
