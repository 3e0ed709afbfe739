// GPU tests of the skinny BSR GEMM (N <= 64) through the public plan API.
//
// - Every block shape (R, C in {16, 32, 64, 128}), both input dtypes, both output dtypes, both B
//   and C layouts, padded and packed leading dimensions (packed B and A's blocks load as 128-byte
//   rows), the three tile widths (N = 8 .. 64) and four betas,
//   on integer-valued data, bit for bit against the reference kernel over C's whole storage
//   (guard tail and padding untouched; C poisoned when beta == 0; B's padding NaN).
// - Hostile patterns, rows split across CTAs (the last CTA of a row sums the partial tiles),
//   K == 0, M == 0, N == 0; the automatic choice; 64-wide tiles with half-width warps (rows on
//   every SM); random data against fp64; run-to-run and graph-replay bitwise identity (the split
//   counters reset themselves); run-time errors.
#include <catch2/catch.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <string>
#include <utility>
#include <vector>

#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/ops/cpu_gemm.hpp"
#include "bsrflow/ops/gemm_plan.hpp"
#include "bsrflow/ops/tuning_skinny.hpp"
#include "support/gemm_problem.hpp"
#include "support/gpu.hpp"

using namespace bsrflow;
using namespace bsrflow::test::gemm;

namespace {

GemmOptions skinny_options() {
  GemmOptions o;
  o.kernel = GemmOptions::Choice::skinny;
  return o;
}

template <class TIn>
void check_shape(int R, int C) {
  const GemmOptions o = skinny_options();
  Case c;
  c.R = R;
  c.C = C;
  c.M = 5 * R + R / 2;  // partial last block row: rows >= M are computed, never stored
  c.K = 6 * C + C / 2;  // partial last block column: B rows >= K are zero-filled
  c.seed = static_cast<std::uint32_t>(R * 1000 + C);
  const GemmKernel skinny = GemmKernel::skinny;
  // (N, B layout, C layout, padded, beta, output): the three tile widths, partial widths.
  c.N = 8, c.b_layout = Layout::row_major, c.c_layout = Layout::row_major, c.padded = false, c.beta = 0.0f;
  check_exact<TIn, TIn>(c, o, skinny);
  c.N = 16, c.b_layout = Layout::col_major, c.c_layout = Layout::col_major, c.padded = true, c.beta = -3.0f;
  check_exact<TIn, float>(c, o, skinny);
  c.N = 24, c.b_layout = Layout::row_major, c.c_layout = Layout::col_major, c.padded = true, c.beta = 1.0f;
  check_exact<TIn, float>(c, o, skinny);
  c.N = 40, c.b_layout = Layout::col_major, c.c_layout = Layout::row_major, c.padded = false, c.beta = 0.0f;
  check_exact<TIn, TIn>(c, o, skinny);
  c.N = 64, c.b_layout = Layout::row_major, c.c_layout = Layout::row_major, c.padded = true, c.beta = 0.5f;
  check_exact<TIn, float>(c, o, skinny);
  c.N = 56, c.b_layout = Layout::col_major, c.c_layout = Layout::col_major, c.padded = false, c.beta = 0.0f;
  check_exact<TIn, TIn>(c, o, skinny);
  // Packed B (ld == N == width 16 / 32): slices as 128-byte rows where whole swizzle periods
  // (skinny::b_rows_packed; 16 x 16 at N = 16 keeps 32-byte rows).
  for (int n : {16, 32}) {
    c.N = n, c.b_layout = Layout::row_major, c.c_layout = Layout::row_major, c.padded = false, c.beta = 2.0f;
    CHECK(skinny::b_rows_packed(C, n, true, n, n, c.K) == (C * n >= 512));
    check_exact<TIn, TIn>(c, o, skinny);
  }
}

}  // namespace

TEST_CASE("skinny GEMM: every block shape, dtype, layout and width is exact", "[ops][skinny][gpu]") {
  BSRFLOW_REQUIRE_SM90_OR_NEWER();
  for (int R : {16, 32, 64, 128})
    for (int C : {16, 32, 64, 128}) {
      CAPTURE(R, C);
      check_shape<__half>(R, C);
      check_shape<__nv_bfloat16>(R, C);
    }
}

TEST_CASE("skinny GEMM: hostile patterns and split rows are exact", "[ops][skinny][gpu]") {
  BSRFLOW_REQUIRE_SM90_OR_NEWER();
  const GemmOptions o = skinny_options();
  for (int b : {16, 32, 64, 128}) {
    Case c;
    c.R = c.C = b;
    c.M = 9 * b;
    c.K = 9 * b;
    c.N = 40;
    for (Pattern p : {Pattern::none, Pattern::empty_rows, Pattern::single_block, Pattern::full}) {
      CAPTURE(b, static_cast<int>(p));
      c.pattern = p;
      c.beta = 0.0f;
      check_exact<__half, float>(c, o, GemmKernel::skinny);
      c.beta = -3.0f;
      check_exact<__half, __half>(c, o, GemmKernel::skinny);
    }
    // Long rows: cut into pieces of >= 8 blocks, reduced by the last CTA of each row.
    for (Pattern p : {Pattern::one_long_row, Pattern::powerlaw}) {
      CAPTURE(b, static_cast<int>(p));
      c.pattern = p;
      c.M = 30 * b + 3;
      c.K = 40 * b;
      Stream stream;
      const Problem<__half, float> pr = integer_problem<__half, float>(c);
      DeviceProblem<__half, float> d(pr, true, stream);
      const GemmPlan plan =
          plan_gemm(std::as_const(d.A).view(), describe(cview_of(d.B, pr.B)), describe(view_of(d.C, pr.C)), o, stream);
      CHECK(plan.split_rows() > 0);
      CHECK(plan.workspace_bytes() > 0);
      CHECK(plan.ctas() > ceil_div(c.M, b));
      c.beta = 0.0f;
      check_exact<__half, float>(c, o, GemmKernel::skinny);
      c.beta = 1.0f;
      c.c_layout = Layout::col_major;
      c.b_layout = Layout::col_major;
      check_exact<__nv_bfloat16, __nv_bfloat16>(c, o, GemmKernel::skinny);
      GemmOptions whole = o;
      whole.split_long_rows = false;
      check_exact<__half, float>(c, whole, GemmKernel::skinny);
      c.c_layout = Layout::row_major;
      c.b_layout = Layout::row_major;
    }
  }
  SECTION("whole rows beyond one wave: the last wave's rows cut into pieces") {
    // 3 x SMs + 1 rows of 32 blocks: more than one wave of resident CTAs (2 or 3 per SM at N = 64),
    // so the rows of the partial last wave are split (tuning_skinny.hpp: last_wave).
    Case c;
    c.R = c.C = 16;
    c.M = 16 * (3 * device_info().sm_count + 1);
    c.K = 16 * 32;
    c.N = 64;
    c.pattern = Pattern::full;
    Stream stream;
    const Problem<__half, float> pr = integer_problem<__half, float>(c);
    DeviceProblem<__half, float> d(pr, true, stream);
    const GemmPlan plan =
        plan_gemm(std::as_const(d.A).view(), describe(cview_of(d.B, pr.B)), describe(view_of(d.C, pr.C)), o, stream);
    const int rows = ceil_div(c.M, c.R);
    CHECK(plan.split_rows() > 0);
    CHECK(plan.split_rows() < rows);
    CHECK(plan.ctas() > rows);
    c.beta = 0.0f;
    check_exact<__half, float>(c, o, GemmKernel::skinny);
    c.beta = 0.5f;
    c.c_layout = Layout::col_major;
    check_exact<__nv_bfloat16, __nv_bfloat16>(c, o, GemmKernel::skinny);
  }
  SECTION("K == 0, M == 0 and N == 0") {
    Case c;
    c.R = c.C = 32;
    c.M = 128, c.K = 0, c.N = 64, c.pattern = Pattern::none;
    c.beta = 0.0f;
    check_exact<__half, float>(c, o, GemmKernel::skinny);  // C = 0
    c.beta = -3.0f;
    check_exact<__half, float>(c, o, GemmKernel::skinny);  // C = beta C
    c.M = 0, c.K = 128;
    check_exact<__half, float>(c, o, GemmKernel::skinny);
    c.M = 128, c.N = 0;
    check_exact<__half, float>(c, o, GemmKernel::skinny);
  }
}

TEST_CASE("skinny GEMM: the automatic choice and its errors", "[ops][skinny][gpu]") {
  BSRFLOW_REQUIRE_SM90_OR_NEWER();
  Case c;
  c.R = c.C = 32;
  c.M = 256, c.K = 256, c.N = 64;
  Stream stream;
  const Problem<__half, float> p = integer_problem<__half, float>(c);
  DeviceProblem<__half, float> d(p, true, stream);
  const BsrView<const __half> A = std::as_const(d.A).view();
  const DenseView<const __half> B = cview_of(d.B, p.B);
  const DenseView<float> C = view_of(d.C, p.C);

  const GemmPlan automatic = plan_gemm(A, describe(B), describe(C), GemmOptions{}, stream);
  CHECK(automatic.kernel() == GemmKernel::skinny);
  CHECK(automatic.name() == "bsr_skinny_f16_r32c32_w64");
  CHECK(automatic.fallback_reason().empty());
  GemmOptions tuned;
  tuned.tuning = GemmTuning::cached;
  const GemmPlan cached = plan_gemm(A, describe(B), describe(C), tuned, stream);
  CHECK(cached.kernel() == GemmKernel::skinny);
  CHECK_THAT(cached.tuning_note(), Catch::Contains("the skinny kernel runs"));

  // A Hopper-only option asks for the Hopper kernel (where the GPU has one).
  GemmOptions swath;
  swath.swath = 256;
  if (device_info().is_hopper()) CHECK(plan_gemm(A, describe(B), describe(C), swath, stream).kernel() == GemmKernel::sm90);

  auto expect = [](auto&& fn, Errc code, const std::string& text) {
    CHECK_THROWS_WITH(fn(), Catch::Contains(text));
    try {
      fn();
    } catch (const Error& e) {
      CHECK(e.code() == code);
    }
  };
  // N above the widest tile: automatic goes elsewhere, a forced skinny plan says why not.
  Case wide = c;
  wide.N = 72;
  const Problem<__half, float> pw = integer_problem<__half, float>(wide);
  DeviceProblem<__half, float> dw(pw, true, stream);
  const DenseView<const __half> Bw = cview_of(dw.B, pw.B);
  const DenseView<float> Cw = view_of(dw.C, pw.C);
  CHECK(plan_gemm(A, describe(Bw), describe(Cw), GemmOptions{}, stream).kernel() != GemmKernel::skinny);
  expect([&] { (void)plan_gemm(A, describe(Bw), describe(Cw), skinny_options(), stream); }, Errc::unsupported,
         "GemmOptions asked for the skinny kernel, but N (72) is above 64, the skinny kernel's widest tile");

  // Run-time alignment for the TMA loads.
  const GemmPlan plan = plan_gemm(A, describe(B), describe(C), skinny_options(), stream);
  DenseView<const __half> shifted{B.data + 1, B.rows, B.cols, B.ld, B.layout};
  expect([&] { plan.run<__half, float>(A, shifted, C, 1.0f, 0.0f, stream); }, Errc::invalid_argument,
         "B.data is not 16-byte aligned; the skinny kernel's TMA loads need it");
  BsrView<const __half> a_shifted = A;
  a_shifted.values = A.values + 1;
  expect([&] { plan.run<__half, float>(a_shifted, B, C, 1.0f, 0.0f, stream); }, Errc::invalid_argument,
         "A.values is not 16-byte aligned");
  // C has no alignment requirement beyond its element type.
  DenseView<float> c_shifted{C.data + 1, C.rows, C.cols, C.ld, C.layout};
  CHECK_NOTHROW(plan.run<__half, float>(A, B, c_shifted, 1.0f, 0.0f, stream));
  CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
}

TEST_CASE("skinny GEMM: random data against fp64, bitwise repeatable", "[ops][skinny][gpu]") {
  BSRFLOW_REQUIRE_SM90_OR_NEWER();
  for (int b : {16, 32, 64, 128}) {
    Case c;
    c.R = c.C = b;
    c.M = 30 * b + 5;
    c.K = 40 * b + 3;
    c.N = 48;
    c.beta = 0.5f;
    c.pattern = Pattern::powerlaw;  // split rows
    c.seed = 42;
    check_dtypes_against_fp64(c, skinny_options(), [](const GemmPlan& plan) { CHECK(plan.split_rows() > 0); });
  }
}

TEST_CASE("skinny GEMM: run is capturable and replays identically", "[ops][skinny][gpu]") {
  BSRFLOW_REQUIRE_SM90_OR_NEWER();
  Case c;
  c.R = c.C = 32;
  c.M = 40 * 32, c.K = 60 * 32, c.N = 16;
  c.pattern = Pattern::powerlaw;  // split rows: the counters must be back at 0 after every run
  c.beta = 1.0f;
  Stream stream;
  const Problem<__half, float> p = integer_problem<__half, float>(c);
  DeviceProblem<__half, float> d(p, false, stream);
  const GemmPlan plan = plan_gemm(std::as_const(d.A).view(), describe(cview_of(d.B, p.B)),
                                  describe(view_of(d.C, p.C)), skinny_options(), stream);
  REQUIRE(plan.split_rows() > 0);
  const std::vector<float> eager = run_plan(plan, d, p, 2.0f, 1.0f, stream);
  const std::vector<float> want = run_reference(d, p, 2.0f, 1.0f, stream);
  CHECK(bsrflow::test::bitwise_equal(eager, want));

  for (const std::vector<float>& replayed : replay_in_graph(plan, d, p, 2.0f, 1.0f, 3, stream))
    CHECK(bsrflow::test::bitwise_equal(eager, replayed));
}

namespace {

// The configuration the skinny plan picks for c (input dtype f16).
std::string skinny_plan_name(const Case& c) {
  Stream stream;
  const Problem<__half, __half> p = integer_problem<__half, __half>(c);
  DeviceProblem<__half, __half> d(p, true, stream);
  return plan_gemm(std::as_const(d.A).view(), describe(cview_of(d.B, p.B)), describe(view_of(d.C, p.C)),
                   skinny_options(), stream)
      .name();
}

}  // namespace

TEST_CASE("skinny GEMM: 64-wide tiles with half-width warps are exact", "[ops][skinny][gpu][skinnysmall]") {
  // Where every SM has a whole row of blocks of up to 32 x 64, two warps own the two 32-column halves
  // of a strip (skinny::warp_n_tiles, three CTAs per SM): whole rows, partial widths, both layouts,
  // and rows past one wave, whose last wave is cut into split pieces.
  BSRFLOW_REQUIRE_SM90_OR_NEWER();
  const int sms = device_info().sm_count;
  for (const auto& [R, C] :
       {std::pair{16, 16}, std::pair{16, 32}, std::pair{32, 16}, std::pair{32, 32}, std::pair{16, 64}, std::pair{32, 64}}) {
    CAPTURE(R, C);
    Case c;
    c.R = R;
    c.C = C;
    c.M = R * (sms + 7) + R / 2;  // sms + 8 block rows, the last partial
    c.K = 4 * C + C / 2;
    c.N = 64;
    c.seed = static_cast<std::uint32_t>(R * 100 + C);
    CHECK(skinny_plan_name(c).find("_w64_h32") != std::string::npos);
    check_exact<__half, __half>(c, skinny_options(), GemmKernel::skinny);
    c.N = 40;
    c.b_layout = Layout::col_major;
    c.c_layout = Layout::col_major;
    c.padded = true;
    c.beta = -3.0f;
    check_exact<__nv_bfloat16, float>(c, skinny_options(), GemmKernel::skinny);
  }
  Case c;
  c.R = c.C = 32;
  c.M = 32 * (3 * sms + 20);  // 20 rows past three CTAs per SM: cut into pieces of 8 blocks
  c.K = 32 * 24;
  c.N = 64;
  c.pattern = Pattern::full;
  CHECK(skinny_plan_name(c) == "bsr_skinny_f16_r32c32_w64_h32");
  check_exact<__half, float>(c, skinny_options(), GemmKernel::skinny);
  c.beta = 1.0f;
  check_exact<__half, __half>(c, skinny_options(), GemmKernel::skinny);
}

TEST_CASE("skinny GEMM: small problems for the sanitizers", "[ops][skinny][gpu][skinnysmall]") {
  // Quick enough for compute-sanitizer: every block height, both B layouts, a split row whose
  // last CTA reduces, the k-split across warps (R = 16, 32) and both C layouts; the lane producer
  // (16 x 16 at N = 24: 10 blocks a stage; 16 x 16 and 32 x 32 at N = 40: 64-wide tiles) with
  // full and partial stages.
  BSRFLOW_REQUIRE_SM90_OR_NEWER();
  for (int b : {16, 32, 64, 128}) {
    Case c;
    c.R = c.C = b;
    c.M = 6 * b + b / 2, c.K = 20 * b + 8, c.N = 24;
    c.pattern = Pattern::one_long_row;  // 21 blocks: three pieces
    c.beta = 0.0f;
    check_exact<__half, __half>(c, skinny_options(), GemmKernel::skinny);
    c.b_layout = Layout::col_major;
    c.c_layout = Layout::col_major;
    c.beta = 2.0f;
    check_exact<__nv_bfloat16, float>(c, skinny_options(), GemmKernel::skinny);
    // Packed B and A as 128-byte rows (skinny::b_rows_packed, a_rows_packed), unpadded row-major B.
    c.b_layout = Layout::row_major;
    c.padded = false;
    for (int n : {16, 32}) {
      c.N = n;
      CAPTURE(n);
      CHECK(skinny::b_rows_packed(b, n, true, n, n, c.K) == (b * n >= 512));
      CHECK(skinny::a_rows_packed(b, b, n) == (b == 32));
      check_exact<__half, float>(c, skinny_options(), GemmKernel::skinny);
    }
    if (b <= 32) {
      CHECK(skinny::lane_producer(b, b, skinny::tile_width(40)));
      c.N = 40;
      check_exact<__half, __half>(c, skinny_options(), GemmKernel::skinny);
    }
  }
}
