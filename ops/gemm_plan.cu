#include "bsrflow/ops/gemm_plan.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <optional>
#include <vector>
#include <cstdint>
#include <string>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/core/timestamp.hpp"
#include "bsrflow/ops/gemm_tuner.hpp"
#include "bsrflow/ops/gemm_tuning_key.hpp"
#include "bsrflow/ops/reference_gemm.hpp"
#include "bsrflow/ops/skinny_gemm.hpp"
#include "bsrflow/ops/sm90_choose.hpp"
#include "bsrflow/ops/sm90_gemm_params.hpp"
#include "bsrflow/ops/sm90_kernels.hpp"
#include "bsrflow/ops/sm90_row_groups.hpp"
#include "bsrflow/ops/sm90_schedule_build.hpp"
#include "bsrflow/ops/sm90_split_fixup.hpp"
#include "bsrflow/ops/sm90_tensor_map.hpp"
#include "bsrflow/ops/tma_swizzle.hpp"
#include "bsrflow/ops/tuning_cache.hpp"
#include "bsrflow/ops/tuning_skinny.hpp"
#include "bsrflow/ops/tuning_sm90.hpp"

namespace bsrflow {

struct GemmPlan::Impl {
  GemmKernel kernel = GemmKernel::reference;
  std::string reason;
  Sm90Config config;
  const sm90::KernelEntry* entry = nullptr;
  DType in = DType::f16;
  DType out = DType::f16;
  // What the plan is bound to.
  int a_rows = 0, a_cols = 0, R = 1, C = 1;
  std::int64_t nnzb = 0;
  DenseDesc b, c;
  // Hopper kernel state.
  sm90::Schedule schedule;
  DeviceBuffer<float> workspace;  // split rows' partial tiles
  // The split fix-up's overlap with the kernel (sm90_split_fixup.hpp): split_of_slot
  // [num_partials], split_ready [num_splits], next_item, finished; zero between runs.
  DeviceBuffer<int> split_sync;
  // Row-group kernels (config.row_group > 1): the groups' items, and A's values gathered into item
  // order before each run.
  sm90::RowGroups row_groups;
  DeviceBuffer<std::uint16_t> gathered_a;
  bool tma_partials = false;      // the kernel TMA-stores them through partials_map
  CUtensorMap partials_map{};
  int num_swaths = 0;
  int num_tiles = 0;
  int ctas = 0;
  bool tma_epilogue = false;  // the options leave the TMA-store epilogue on (a probe stores nothing)
  bool single_box_b = true;
  bool l2_evict_last = true;
  // Skinny kernel state.
  skinny::Plan skinny;
  // Where the configuration came from (plan_gemm's tuning).
  TuningSource source = TuningSource::heuristic;
  std::string tuning_note;
};

const char* tuning_source_name(TuningSource s) {
  switch (s) {
    case TuningSource::heuristic: return "heuristic";
    case TuningSource::options: return "options";
    case TuningSource::cache: return "cache";
    case TuningSource::tuned: return "tuned";
  }
  return "?";
}

GemmPlan::GemmPlan() = default;
GemmPlan::~GemmPlan() = default;
GemmPlan::GemmPlan(GemmPlan&&) noexcept = default;
GemmPlan& GemmPlan::operator=(GemmPlan&&) noexcept = default;
GemmPlan::GemmPlan(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

namespace {

const GemmPlan::Impl& checked(const std::unique_ptr<GemmPlan::Impl>& impl) {
  BSRFLOW_REQUIRE(impl != nullptr, Errc::invalid_argument, "GemmPlan is empty (default-constructed or moved from)");
  return *impl;
}

bool supported_pair(DType in, DType out) {
  switch (in) {
    case DType::f16:
    case DType::bf16: return out == in || out == DType::f32;
    case DType::f32: return out == DType::f32;
    case DType::f64: return out == DType::f64;
    default: return false;
  }
}

std::string describe_dense(const DenseDesc& d) {
  return std::to_string(d.rows) + " x " + std::to_string(d.cols) + " " +
         (d.layout == Layout::row_major ? "row-major" : "column-major") + " with ld " + std::to_string(d.ld);
}

bool aligned16(const void* p) { return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0; }

// Any valid, 16-byte aligned stand-in for checks that want non-null pointers at plan time.
const void* placeholder() {
  alignas(16) static const unsigned char byte[16] = {};
  return byte;
}

// Options that only the Hopper kernel has: setting one asks for it.
bool hopper_options(const GemmOptions& o) {
  return o.swath > 0 || o.stages > 0 || o.k_chunk > 0 || o.orientation.has_value() || o.copy_only || o.max_ctas > 0 ||
         o.cluster > 0 || o.row_group > 0 || o.items_per_stage > 0;
}

bool wants_skinny(const GemmOptions& o, const DenseDesc& B) {
  if (o.kernel == GemmOptions::Choice::skinny) return true;
  return o.kernel == GemmOptions::Choice::automatic && B.cols <= skinny::kMaxN && !hopper_options(o);
}

// plan_gemm without tuning: the configuration is the options' or the heuristic's.
std::unique_ptr<GemmPlan::Impl> plan_untuned(const GemmBsrOperand& A, DType in, const DenseDesc& B, const DenseDesc& C,
                                             const GemmOptions& options, cudaStream_t stream) {
  // Shapes first, with stand-in pointers: the plan holds descriptions, not data.
  GemmBsrOperand a = A;
  if (a.values == nullptr) a.values = placeholder();
  check_gemm_operands(a, GemmDenseOperand{B.rows, B.cols, B.ld, B.layout, placeholder()},
                      GemmDenseOperand{C.rows, C.cols, C.ld, C.layout, placeholder()});
  BSRFLOW_REQUIRE(B.dtype == in, Errc::invalid_argument,
                  "B holds " + std::string(dtype_name(B.dtype)) + " but A holds " + std::string(dtype_name(in)));
  BSRFLOW_REQUIRE(supported_pair(in, C.dtype), Errc::unsupported,
                  "no GEMM kernel takes " + std::string(dtype_name(in)) + " inputs with " +
                      std::string(dtype_name(C.dtype)) + " output (f16/bf16 -> same or f32, f32 -> f32, f64 -> f64)");

  auto impl = std::make_unique<GemmPlan::Impl>();
  impl->in = in;
  impl->out = C.dtype;
  impl->a_rows = A.rows;
  impl->a_cols = A.cols;
  impl->R = A.R;
  impl->C = A.C;
  impl->nnzb = A.nnzb;
  impl->b = B;
  impl->c = C;
  impl->single_box_b = options.single_box_b;
  impl->l2_evict_last = options.l2_evict_last;

  DeviceInfo device;
  if (options.kernel != GemmOptions::Choice::reference) device = device_info();
  if (wants_skinny(options, B)) {
    std::string why = skinny::rejection(A, in, B, C, device);
    BSRFLOW_REQUIRE(options.kernel != GemmOptions::Choice::skinny || why.empty(), Errc::unsupported,
                    "GemmOptions asked for the skinny kernel, but " + why);
    if (why.empty()) {
      impl->kernel = GemmKernel::skinny;
      impl->skinny = skinny::make_plan(A, in, C.dtype, B.cols, B.layout, device.sm_count, options.split_long_rows,
                                       options.programmatic_launch, device.smem_per_block_optin, stream);
      return impl;
    }
  }
  // The tuned swath at R = 64 depends on how equal the block rows are: measured only where the
  // choice reads it.
  const int block_rows = A.R > 0 ? ceil_div(A.rows, A.R) : 0;
  bool near_equal_rows = false;
  if (device.is_hopper() && options.kernel != GemmOptions::Choice::reference && block_rows > 0 &&
      sm90::choice_reads_rows(A, B, options))
    near_equal_rows = sm90::wide_swath_rows(sm90::longest_row(static_cast<const int*>(A.row_ptr), block_rows, stream),
                                            A.nnzb, block_rows);
  sm90::Choice choice = sm90::choose(A, in, B, C, options, device, near_equal_rows);
  if (!choice.use_sm90) {
    impl->kernel = GemmKernel::reference;
    impl->reason = std::move(choice.reason);
    return impl;
  }
  impl->kernel = GemmKernel::sm90;
  impl->config = choice.config;
  impl->entry = choice.entry;
  impl->tma_epilogue = options.tma_store_epilogue && !choice.config.copy_only;

  const int swath = impl->config.swath;
  impl->num_swaths = ceil_div(B.cols, swath);
  if (block_rows == 0 || impl->num_swaths == 0) return impl;  // nothing to compute

  const int sms = options.max_ctas > 0 ? std::min(options.max_ctas, device.sm_count) : device.sm_count;
  sm90::prepare_kernel(*impl->entry, device.smem_per_block_optin);

  // CTA pairs (clusters of 2): explicit requests that cannot run are errors; a tuned default
  // quietly runs single CTAs instead.
  Sm90Config& cfg = impl->config;
  int resident_pairs = 0;
  if (cfg.cluster == 2) {
    BSRFLOW_REQUIRE(options.cluster != 2 || sms >= 2, Errc::invalid_argument,
                    "GemmOptions::cluster = 2 needs at least 2 CTAs, but max_ctas is " + std::to_string(sms));
    if (sms >= 2) resident_pairs = sm90::max_active_clusters(*impl->entry, cfg.stages, 2);
    BSRFLOW_REQUIRE(options.cluster != 2 || resident_pairs > 0, Errc::unsupported,
                    "GemmOptions::cluster = 2: no CTA pair of " + cfg.name() + " fits on this GPU");
    if (resident_pairs == 0) cfg.cluster = 1;
  }

  // The schedule (sm90_schedule_build.hpp): pieces, then tiles balanced over the clusters. Its
  // units are block rows and their blocks, or with row groups the groups and their items (a tile's
  // row is then its group, and its work a range of items).
  const int* row_ptr = static_cast<const int*>(A.row_ptr);
  const int G = cfg.row_group;
  if (G > 1) {
    impl->row_groups =
        sm90::build_row_groups(row_ptr, static_cast<const int*>(A.col_idx), block_rows, A.nnzb, G,
                               sm90::row_groups_by_length(A.R, cfg.items_per_stage), stream);
    impl->gathered_a = DeviceBuffer<std::uint16_t>(static_cast<std::size_t>(A.nnzb) * A.R * A.C, stream);
  }
  const int units = G > 1 ? impl->row_groups.groups : block_rows;
  const int* unit_ptr = G > 1 ? impl->row_groups.item_ptr.data() : row_ptr;
  const std::int64_t unit_work = G > 1 ? impl->row_groups.num_items : A.nnzb;  // stages (x chunks per block)
  const int limit = options.split_long_rows ? sm90::split_limit(unit_work, units, impl->num_swaths, sms,
                                                               sm90::split_per_cta_fraction(A.R))
                                            : 0;
  const sm90::PieceList pieces = sm90::build_pieces(unit_ptr, units, limit, stream);
  sm90::ScheduleShape shape;
  shape.groups = ceil_div(impl->num_swaths, cfg.cluster);
  shape.cluster_size = cfg.cluster;
  shape.reverse_max = sm90::reverse_limit(unit_work, units);
  shape.overhead = sm90::tile_overhead(A.R);
  shape.overhead.whole *= G;  // a group's tile writes G block rows
  shape.overhead.split *= G;
  const std::int64_t most = cfg.cluster == 1 ? sms : std::min(sms / 2, resident_pairs);
  const std::int64_t num_tiles = static_cast<std::int64_t>(pieces.num_pieces) * shape.groups;
  shape.clusters = static_cast<int>(std::min<std::int64_t>({most, num_tiles, sm90::kMaxClusters}));
  // Tiles of one cost (units of one length, none split): a few clusters fewer when that fills
  // the last round and the tiles are deep enough to gain (balanced_clusters). Other patterns keep
  // every cluster: the assignment fills the last round with their tiles' sizes (128 power-law
  // lost 1% on 64 of 66 pairs).
  const bool equal_tiles =
      pieces.num_slots == 0 && unit_work == static_cast<std::int64_t>(pieces.longest) * pieces.num_pieces;
  if (equal_tiles)
    shape.clusters = sm90::balanced_clusters(num_tiles, static_cast<std::int64_t>(pieces.longest) * A.C, shape.clusters);
  const sm90::TailSplit tail =
      limit > 0 ? sm90::tail_split(unit_work, units, shape.groups, shape.clusters, pieces.longest) : sm90::TailSplit{};
  shape.tail_groups = tail.groups;
  const sm90::PieceList tail_pieces =
      tail.groups > 0 ? sm90::build_pieces(unit_ptr, units, tail.limit, stream) : sm90::PieceList{};
  impl->schedule = sm90::assign_tiles(pieces, tail_pieces, shape, stream);
  impl->num_tiles = impl->schedule.num_tiles;
  impl->ctas = shape.clusters * cfg.cluster;
  if (impl->schedule.num_partials > 0) {
    // A partial tile covers the tile's rows: R, or G x R for a group (G tiles of R rows).
    const std::int64_t partial_rows = impl->schedule.num_partials * A.R * G;
    impl->workspace = DeviceBuffer<float>(static_cast<std::size_t>(partial_rows) * swath, stream);
    // The kernel's TMA-store epilogue writes the partial tiles as it writes C (row coordinates
    // are 32-bit); the workspace is fixed, so its map is made once, here.
    impl->tma_partials = impl->tma_epilogue && impl->entry->tma_partials && partial_rows <= INT_MAX;
    if (impl->tma_partials) {
      const std::uint64_t dims[2] = {static_cast<std::uint64_t>(swath), static_cast<std::uint64_t>(partial_rows)};
      const std::uint64_t stride[1] = {static_cast<std::uint64_t>(swath) * sizeof(float)};
      const std::uint32_t box[2] = {static_cast<std::uint32_t>(impl->entry->epi_cols),
                                    static_cast<std::uint32_t>(impl->entry->epi_rows)};
      impl->partials_map = sm90::make_tensor_map(DType::f32, impl->workspace.data(), 2, dims, stride, box,
                                                 epilogue_swizzle_bytes(static_cast<int>(box[0] * sizeof(float))));
    }
    impl->split_sync =
        DeviceBuffer<int>(static_cast<std::size_t>(impl->schedule.num_partials + impl->schedule.num_splits + 2), stream);
    impl->split_sync.fill_bytes(0, stream);
    sm90::fill_split_of_slot(impl->schedule.splits.data(), impl->schedule.num_splits, cfg.cluster,
                             impl->split_sync.data(), stream);
  }
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));  // the schedule is complete before the plan is used
  return impl;
}

// The options fix the Hopper configuration themselves (tuning does not override a caller; row
// splitting is tunable, so turning it off fixes it too).
bool fixed_by_options(const GemmOptions& o) {
  return o.kernel == GemmOptions::Choice::reference || o.kernel == GemmOptions::Choice::skinny || o.swath > 0 || o.stages > 0 || o.k_chunk > 0 ||
         o.orientation.has_value() || o.copy_only || !o.split_long_rows || o.row_group > 0 ||
         o.items_per_stage > 0;
}

std::string ms_text(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.4g ms", ms);
  return buf;
}

// A warning when there is no cache whose logger could carry it.
void tuning_warning(const std::string& message) { std::fprintf(stderr, "warning: bsrflow: %s\n", message.c_str()); }

}  // namespace

GemmPlan plan_gemm(const GemmBsrOperand& A, DType in, const DenseDesc& B, const DenseDesc& C,
                   const GemmOptions& options, cudaStream_t stream) {
  std::unique_ptr<GemmPlan::Impl> impl = plan_untuned(A, in, B, C, options, stream);
  if (fixed_by_options(options)) impl->source = TuningSource::options;
  if (options.tuning == GemmTuning::off) return GemmPlan(std::move(impl));
  if (impl->kernel == GemmKernel::skinny) {
    impl->tuning_note = "tuning not applied: the skinny kernel runs (it has no configurations to choose from)";
    return GemmPlan(std::move(impl));
  }
  if (impl->kernel != GemmKernel::sm90) {
    impl->tuning_note = "tuning not applied: the reference kernel runs (" + impl->reason + ")";
    return GemmPlan(std::move(impl));
  }
  if (impl->source == TuningSource::options) {
    impl->tuning_note = "tuning not applied: GemmOptions fixes the configuration";
    return GemmPlan(std::move(impl));
  }
  if (impl->num_tiles == 0 || A.nnzb == 0) {
    impl->tuning_note = "tuning not applied: nothing to compute (no stored blocks, M = 0 or N = 0)";
    return GemmPlan(std::move(impl));
  }

  // The key: device facts, versions and the pattern's buckets (row_ptr read back: O(block rows)).
  const DeviceInfo device = device_info();
  const int block_rows = ceil_div(A.rows, A.R);
  std::vector<int> row_ptr(static_cast<std::size_t>(block_rows) + 1);
  BSRFLOW_CUDA(
      cudaMemcpyAsync(row_ptr.data(), A.row_ptr, row_ptr.size() * sizeof(int), cudaMemcpyDeviceToHost, stream));
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));
  const TuningKey key = tuning_key(current_tuning_environment(device), in, C.dtype, A.R, A.C, B.layout, C.layout,
                                   B.cols, pattern_stats(row_ptr, ceil_div(A.cols, A.C)));
  TuningCache* cache = options.tuning_cache;
  if (cache == nullptr) {
    try {
      cache = &default_tuning_cache();
    } catch (const Error& e) {
      tuning_warning(e.message() + "; the tuning cache is not used");
    }
  }

  if (options.tuning == GemmTuning::cached) {
    const std::optional<TuningEntry> hit = cache != nullptr ? cache->lookup(key) : std::nullopt;
    if (!hit) {
      impl->tuning_note = "cache miss for " + key.text() + ": heuristic configuration";
      return GemmPlan(std::move(impl));
    }
    try {
      std::unique_ptr<GemmPlan::Impl> tuned = plan_untuned(A, in, B, C, options_for(hit->config, options), stream);
      tuned->source = TuningSource::cache;
      tuned->tuning_note = "cache hit for " + key.text() + ": " + hit->config.name() + " (" + ms_text(hit->tuned_ms) +
                           " vs heuristic " + ms_text(hit->heuristic_ms) + ", tuned " + hit->when + ")";
      return GemmPlan(std::move(tuned));
    } catch (const Error& e) {
      if (e.code() != Errc::unsupported && e.code() != Errc::invalid_argument) throw;
      cache->warn("cached configuration " + hit->config.name() + " for " + problem_text(key.problem) +
                  " cannot run here (" + e.message() + "); using the heuristic");
      impl->tuning_note = "cached configuration " + hit->config.name() + " rejected: heuristic configuration";
      return GemmPlan(std::move(impl));
    }
  }

  // exhaustive
  const GemmTuningResult r = tune_gemm(A, row_ptr, in, B, C, options, device, stream);
  if (cache != nullptr) {
    try {
      cache->store({key, r.winner, r.winner_ms, r.heuristic_ms, utc_timestamp()});
    } catch (const Error& e) {
      cache->warn("could not store the tuning result: " + e.message());
    }
  }
  std::string note = "tuned " + std::to_string(r.candidates) + " configurations" +
                     (r.sample.whole ? std::string() : " on a sample of " + std::to_string(r.sample.block_rows) +
                                                           " block rows x " + std::to_string(r.sample.n) + " columns") +
                     ": " + r.winner.name() + " " + ms_text(r.winner_ms) + " vs heuristic " + r.heuristic.name() + " " +
                     ms_text(r.heuristic_ms);
  if (r.fastest != r.heuristic) {
    char gain[64];
    std::snprintf(gain, sizeof(gain), " in pairs with L2 flushed (gain %.3f)", r.confirm_gain);
    note += r.winner == r.fastest ? "; confirmed" + std::string(gain)
                                  : "; the fastest, " + r.fastest.name() + ", not confirmed" + std::string(gain);
  }
  if (r.winner != r.heuristic) impl = plan_untuned(A, in, B, C, options_for(r.winner, options), stream);
  impl->source = TuningSource::tuned;
  impl->tuning_note = std::move(note);
  return GemmPlan(std::move(impl));
}

GemmKernel GemmPlan::kernel() const { return checked(impl_).kernel; }
TuningSource GemmPlan::tuning_source() const { return checked(impl_).source; }
const std::string& GemmPlan::tuning_note() const { return checked(impl_).tuning_note; }
const std::string& GemmPlan::fallback_reason() const { return checked(impl_).reason; }
const Sm90Config& GemmPlan::config() const { return checked(impl_).config; }
int GemmPlan::ctas() const {
  const Impl& p = checked(impl_);
  return p.kernel == GemmKernel::skinny ? p.skinny.pieces.num_pieces : p.ctas;
}
bool GemmPlan::programmatic_launch() const {
  const Impl& p = checked(impl_);
  return p.kernel == GemmKernel::skinny && p.skinny.pdl;
}
int GemmPlan::tiles() const {
  const Impl& p = checked(impl_);
  return p.kernel == GemmKernel::skinny ? p.skinny.pieces.num_pieces : p.num_tiles;
}
int GemmPlan::split_rows() const {
  const Impl& p = checked(impl_);
  return p.kernel == GemmKernel::skinny ? p.skinny.pieces.num_split_rows : p.schedule.num_split_rows;
}
std::size_t GemmPlan::workspace_bytes() const {
  const Impl& p = checked(impl_);
  return p.workspace.bytes() + p.split_sync.bytes() + p.gathered_a.bytes() + p.skinny.partials.bytes() +
         p.skinny.counters.bytes() + p.skinny.split_of_slot.bytes();
}

std::string GemmPlan::name() const {
  const Impl& p = checked(impl_);
  if (p.kernel == GemmKernel::sm90) return p.config.name();
  if (p.kernel == GemmKernel::skinny) return skinny::name(p.in, p.R, p.C, p.skinny.width, p.skinny.warp_nt, p.b.layout);
  return "bsr_reference_" + std::string(dtype_name(p.in)) + "_r" + std::to_string(p.R) + "c" + std::to_string(p.C);
}

template <class TIn, class TOut>
void GemmPlan::run(BsrView<const TIn> A, DenseView<const TIn> B, DenseView<TOut> C, accumulator_t<TIn> alpha,
                   accumulator_t<TIn> beta, cudaStream_t stream) const {
  const Impl& p = checked(impl_);
  BSRFLOW_REQUIRE(dtype_of_v<TIn> == p.in && dtype_of_v<TOut> == p.out, Errc::invalid_argument,
                  "the plan was made for " + std::string(dtype_name(p.in)) + " -> " + std::string(dtype_name(p.out)) +
                      ", run was called with " + std::string(dtype_name(dtype_of_v<TIn>)) + " -> " +
                      std::string(dtype_name(dtype_of_v<TOut>)));
  check_gemm_operands(A, B, C);
  BSRFLOW_REQUIRE(A.rows == p.a_rows && A.cols == p.a_cols && A.R == p.R && A.C == p.C && A.nnzb == p.nnzb,
                  Errc::invalid_argument,
                  "A is " + std::to_string(A.rows) + " x " + std::to_string(A.cols) + " in " + std::to_string(A.R) +
                      " x " + std::to_string(A.C) + " blocks with " + std::to_string(A.nnzb) +
                      " stored, but the plan was made for " + std::to_string(p.a_rows) + " x " +
                      std::to_string(p.a_cols) + " in " + std::to_string(p.R) + " x " + std::to_string(p.C) +
                      " blocks with " + std::to_string(p.nnzb));
  const DenseDesc b = describe(B), c = describe(C);
  BSRFLOW_REQUIRE(b.cols == p.b.cols && b.ld == p.b.ld && b.layout == p.b.layout, Errc::invalid_argument,
                  "B is " + describe_dense(b) + ", but the plan was made for " + describe_dense(p.b));
  BSRFLOW_REQUIRE(c.ld == p.c.ld && c.layout == p.c.layout, Errc::invalid_argument,
                  "C is " + describe_dense(c) + ", but the plan was made for " + describe_dense(p.c));

  if (p.kernel == GemmKernel::reference) {
    reference_gemm<TIn, TOut>(A, B, C, alpha, beta, stream);
    return;
  }
  if constexpr (std::is_same_v<TIn, __half> || std::is_same_v<TIn, __nv_bfloat16>) {
    if (p.kernel == GemmKernel::skinny) {
      BSRFLOW_REQUIRE(A.nnzb == 0 || aligned16(A.values), Errc::invalid_argument,
                      "A.values is not 16-byte aligned; the skinny kernel's TMA loads need it "
                      "(GemmOptions::kernel = reference takes any alignment)");
      BSRFLOW_REQUIRE(B.rows == 0 || B.cols == 0 || aligned16(B.data), Errc::invalid_argument,
                      "B.data is not 16-byte aligned; the skinny kernel's TMA loads need it "
                      "(GemmOptions::kernel = reference takes any alignment)");
      skinny::run<TIn, TOut>(p.skinny, A, B, C, static_cast<float>(alpha), static_cast<float>(beta), stream);
      return;
    }
    if (p.num_tiles == 0) return;  // M == 0 or N == 0
    BSRFLOW_REQUIRE(A.nnzb == 0 || aligned16(A.values), Errc::invalid_argument,
                    "A.values is not 16-byte aligned; the sm90 kernel's TMA loads need it "
                    "(GemmOptions::kernel = reference takes any alignment)");
    BSRFLOW_REQUIRE(B.rows == 0 || aligned16(B.data), Errc::invalid_argument,
                    "B.data is not 16-byte aligned; the sm90 kernel's TMA loads need it "
                    "(GemmOptions::kernel = reference takes any alignment)");
    BSRFLOW_REQUIRE(aligned16(C.data), Errc::invalid_argument,
                    "C.data is not 16-byte aligned; the sm90 kernel's vector stores need it "
                    "(GemmOptions::kernel = reference takes any alignment)");
    const Sm90Config& cfg = p.config;
    const int kc = cfg.k_chunk();
    // Never-read stand-in for an operand with no elements (a TMA map needs a valid address).
    const void* stand_in = p.schedule.tiles.data();

    sm90::GemmParams params{};
    // A: one box = one (R, k_chunk) chunk of one block.
    params.tmap_a = sm90::bsr_values_map(p.in, A.values, A.nnzb, A.R, A.C, kc, stand_in);
    {  // B: row-major as (N, K) with (64, k_chunk) boxes; column-major as (K, N) with (k_chunk, <=256)
      const bool row_major = B.layout == Layout::row_major;
      const std::uint64_t n = static_cast<std::uint64_t>(B.cols);
      // The 3-D view needs whole panels: with N % 64 != 0 its last panel would read past a row.
      params.b_one_box = row_major && p.single_box_b && B.rows > 0 && n % 64 == 0 ? 1 : 0;
      if (params.b_one_box) {  // (64 columns, K, N / 64 panels); panels 128 bytes apart
        const std::uint64_t dims[3] = {64, static_cast<std::uint64_t>(B.rows), n / 64};
        const std::uint64_t strides[2] = {static_cast<std::uint64_t>(B.ld) * 2, 128};
        const std::uint32_t box[3] = {64, static_cast<std::uint32_t>(kc), static_cast<std::uint32_t>(cfg.swath / 64)};
        params.tmap_b = sm90::make_tensor_map(p.in, B.data, 3, dims, strides, box, 128);
      } else if (row_major) {
        const std::uint32_t box[2] = {64, static_cast<std::uint32_t>(kc)};
        params.tmap_b = sm90::dense_map(p.in, B.data, B.rows, B.cols, B.ld, true, box, 128, stand_in);
      } else {
        const std::uint32_t box[2] = {static_cast<std::uint32_t>(kc),
                                      static_cast<std::uint32_t>(std::min(cfg.swath, 256))};
        params.tmap_b = sm90::dense_map(p.in, B.data, B.rows, B.cols, B.ld, false, box, kc * 2, stand_in);
      }
    }
    params.tma_store = (beta == 0 && p.tma_epilogue) ? 1 : 0;
    if (params.tma_store) {  // C for TMA stores; one box = one epilogue chunk of the kernel
      const std::uint64_t m = static_cast<std::uint64_t>(C.rows), n = static_cast<std::uint64_t>(C.cols);
      const std::uint64_t stride[1] = {static_cast<std::uint64_t>(C.ld) * sizeof(TOut)};
      const std::uint32_t rows = static_cast<std::uint32_t>(p.entry->epi_rows);
      const std::uint32_t cols = static_cast<std::uint32_t>(p.entry->epi_cols);
      if (cfg.swap()) {
        // swap-AB: 16-bit output as (R, 64) chunks staged by stmatrix with the swizzle of their
        // 128-byte rows (row-major C) or 2R-byte columns (column-major C; epilogue_tma_swap).
        // f32 output leaves through copy_out and needs no map.
        if (sizeof(TOut) == 2) {
          const bool row_major = C.layout == Layout::row_major;
          const std::uint64_t dims[2] = {row_major ? n : m, row_major ? m : n};
          const std::uint32_t box[2] = {row_major ? cols : rows, row_major ? rows : cols};
          params.tmap_c = sm90::make_tensor_map(p.out, C.data, 2, dims, stride, box,
                                                static_cast<int>(box[0] * sizeof(TOut)));
        }
      } else if (C.layout == Layout::row_major && sizeof(TOut) == 2) {
        // 16-bit into row-major C: the kernel stages twice-wide chunks with the swizzle of
        // their 64- or 128-byte rows (KernelTraits::kEpiCols16, epilogue_tma_rows16).
        const std::uint64_t dims[2] = {n, m};
        const std::uint32_t box[2] = {2 * cols, rows};
        params.tmap_c = sm90::make_tensor_map(p.out, C.data, 2, dims, stride, box, static_cast<int>(4 * cols));
      } else {
        // f32 into row-major C, any dtype into column-major C: chunks staged with the swizzle of
        // their contiguous dimension where TMA has one (epilogue_tma).
        const bool row_major = C.layout == Layout::row_major;
        const std::uint64_t dims[2] = {row_major ? n : m, row_major ? m : n};
        const std::uint32_t box[2] = {row_major ? cols : rows, row_major ? rows : cols};
        params.tmap_c = sm90::make_tensor_map(p.out, C.data, 2, dims, stride, box,
                                              epilogue_swizzle_bytes(static_cast<int>(box[0] * sizeof(TOut))));
      }
    }
    params.col_idx = A.col_idx;
    if (cfg.row_group > 1) {  // A's blocks into item order (copy-only probes too: the same run)
      sm90::gather_row_groups(A.values, p.row_groups.source.data(), A.nnzb, A.R, A.C,
                              const_cast<std::uint16_t*>(p.gathered_a.data()), stream);
      params.items = p.row_groups.items.data();
      params.group_rows = p.row_groups.rows.data();
      params.a_gathered = p.gathered_a.data();
    }
    params.tiles = p.schedule.tiles.data();
    params.cluster_begin = p.schedule.cluster_begin.data();
    params.num_swaths = p.num_swaths;
    params.cluster = cfg.cluster;
    params.stages = cfg.stages;
    params.l2_evict_last = p.l2_evict_last ? 1 : 0;
    params.block_c = A.C;
    params.chunks_per_block = cfg.chunks_per_block();
    params.c = C.data;
    params.ldc = C.ld;
    params.m = C.rows;
    params.n = C.cols;
    params.c_col_major = C.layout == Layout::col_major ? 1 : 0;
    params.out = p.out;
    params.alpha = static_cast<float>(alpha);
    params.beta = static_cast<float>(beta);
    params.partials = const_cast<float*>(p.workspace.data());
    params.tma_partials = p.tma_partials ? 1 : 0;
    params.tmap_partials = p.partials_map;
    const bool fixup = p.schedule.num_splits > 0 && !cfg.copy_only;
    // The counters change in every run, like the workspace; the plan object does not.
    int* const ready = fixup ? const_cast<int*>(p.split_sync.data()) + p.schedule.num_partials : nullptr;
    params.split_of_slot = fixup ? p.split_sync.data() : nullptr;
    params.split_ready = ready;
    sm90::launch_kernel(*p.entry, params, p.ctas, stream);

    if (fixup) {
      sm90::FixupParams f{};
      f.tiles = p.schedule.splits.data();
      f.num_tiles = p.schedule.num_splits;
      f.partials = p.workspace.data();
      f.R = A.R * cfg.row_group;  // a group's partial tiles hold its G block rows
      f.row_group = cfg.row_group;
      f.group_rows = cfg.row_group > 1 ? p.row_groups.rows.data() : nullptr;
      f.swath = cfg.swath;
      f.cluster = cfg.cluster;
      f.c = C.data;
      f.ldc = C.ld;
      f.c_col_major = params.c_col_major;
      f.out = p.out;
      f.m = C.rows;
      f.n = C.cols;
      f.alpha = params.alpha;
      f.beta = params.beta;
      f.split_ready = ready;
      f.next_item = ready + p.schedule.num_splits;
      f.finished = f.next_item + 1;
      f.ready_per_piece = cfg.cluster * sm90::kConsumerWarpgroups;
      f.max_ctas = 8 * p.ctas;  // 256-thread CTAs: up to eight per SM
      sm90::launch_split_fixup(f, stream);
    }
  }
}

#define BSRFLOW_GEMM_PLAN_RUN(TIn, TOut)                                                                 \
  template void GemmPlan::run<TIn, TOut>(BsrView<const TIn>, DenseView<const TIn>, DenseView<TOut>,     \
                                         accumulator_t<TIn>, accumulator_t<TIn>, cudaStream_t) const;
BSRFLOW_GEMM_PLAN_RUN(__half, __half)
BSRFLOW_GEMM_PLAN_RUN(__half, float)
BSRFLOW_GEMM_PLAN_RUN(__nv_bfloat16, __nv_bfloat16)
BSRFLOW_GEMM_PLAN_RUN(__nv_bfloat16, float)
BSRFLOW_GEMM_PLAN_RUN(float, float)
BSRFLOW_GEMM_PLAN_RUN(double, double)
#undef BSRFLOW_GEMM_PLAN_RUN

}  // namespace bsrflow
