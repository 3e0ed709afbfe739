// The BSR SpMV on the GPU (spmv.hpp) against the CPU reference (cpu_spmv.hpp).
//
// Integer-valued A, x, y and w keep every row sum and the fused dot exact in f32 and f64, so y
// compares bit for bit over its whole storage: poisoned guards on both sides must survive, and
// with beta == 0 y starts as NaN, so an unwritten row or a read of y cannot pass. Every block
// shape 1..8 x 1..8 runs with rows / cols not multiples of R / C; power-law patterns put rows
// in all three regimes (one lane per row, wide teams, a whole CTA looping over one long row);
// every SpmvOptions variant the bench may try runs too, and both kernels (stream and team, every
// team width) where the block shape has both. Real-valued runs are held to relative-norm bounds
// against fp64 and must be bitwise reproducible.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/ops/cpu_spmv.hpp"
#include "bsrflow/ops/spmv.hpp"
#include "bsrflow/ops/tuning_spmv.hpp"
#include "support/device_vectors.hpp"
#include "support/expect_error.hpp"
#include "support/gpu.hpp"
#include "support/patterns.hpp"

using namespace bsrflow;
using test::GuardedVector;

namespace {

// A BSR with the block pattern of `pattern` (a CSR of block positions) and integer values in
// [-range, range] \ {0}; padding entries of partial edge blocks are zero.
template <class T>
HostBsr<T> bsr_on_pattern(const HostCsr<float>& pattern, int rows, int cols, int R, int C, int range, std::uint32_t seed) {
  std::mt19937 rng(seed);
  HostBsr<T> a;
  a.rows = rows;
  a.cols = cols;
  a.R = R;
  a.C = C;
  a.row_ptr = pattern.row_ptr;
  a.col_idx = pattern.col_idx;
  a.values.resize(pattern.col_idx.size() * static_cast<std::size_t>(R * C));
  for (int br = 0; br < a.block_rows(); ++br)
    for (int k = a.row_ptr[br]; k < a.row_ptr[br + 1]; ++k)
      for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) {
          const bool inside = static_cast<std::int64_t>(br) * R + r < rows && static_cast<std::int64_t>(a.col_idx[k]) * C + c < cols;
          a.at(k, r, c) = inside ? test::int_value<T>(rng, range) : T(0);
        }
  return a;
}

template <class T>
struct Problem {
  HostBsr<T> A;
  std::vector<T> x, y, w;
};

template <class T>
Problem<T> integer_problem(HostBsr<T> A, int range, std::uint32_t seed) {
  Problem<T> p;
  p.x = test::int_values<T>(static_cast<std::size_t>(A.cols), seed + 1, range);
  p.y = test::int_values<T>(static_cast<std::size_t>(A.rows), seed + 2, range);
  p.w = test::int_values<T>(static_cast<std::size_t>(A.rows), seed + 3, range);
  p.A = std::move(A);
  return p;
}

struct Scalars {
  double alpha = 1;
  double beta = 0;
  bool on_device = false;
};

template <class T>
struct Outcome {
  std::vector<T> y_storage;     // the GPU's y, guards included
  std::vector<T> want_storage;  // what it must be
  T dot = 0;
  double want_dot = 0;      // fp64 w . y_want
  double dot_abs_sum = 0;   // sum |w_i y_want_i|
  int grid_blocks = 0;
  int long_rows = 0;
};

// Plans, runs once with the fused dot, and computes the expected results on the host.
template <class T>
Outcome<T> run_problem(const Problem<T>& prob, Scalars s, const SpmvOptions& options, cudaStream_t stream) {
  const Bsr<T> A = Bsr<T>::from_host(prob.A, stream);
  const SpmvPlan plan = plan_spmv(A.view(), stream, options);
  const std::vector<T> y_in = s.beta != 0 ? prob.y : test::poisoned<T>(prob.y.size());
  GuardedVector<T> x(prob.x, 0, stream), y(y_in, 0, stream), w(prob.w, 0, stream);
  ReduceScratch<T> scratch(plan.grid_blocks(), 1, stream);
  DeviceBuffer<T> dot(1, stream);
  dot.fill_bytes(0xFF, stream);
  const auto d_scalars = DeviceBuffer<T>::from_host(std::vector<T>{static_cast<T>(s.alpha), static_cast<T>(s.beta)}, stream);
  const ScalarArg<T> alpha = s.on_device ? scalar_at(d_scalars.data()) : scalar(static_cast<T>(s.alpha));
  const ScalarArg<T> beta = s.on_device ? scalar_at(d_scalars.data() + 1) : scalar(static_cast<T>(s.beta));
  plan.run<T>(A.view(), x.data(), y.data(), alpha, beta, stream, SpmvDot<T>{w.data(), dot.data(), scratch.view()});

  Outcome<T> out;
  out.y_storage = y.storage(stream);
  out.dot = dot.to_host(stream).front();
  std::vector<T> want = prob.y;
  host::spmv(prob.A, prob.x, want, s.alpha, s.beta);
  out.want_storage = y.expected_storage(want);
  out.want_dot = host::dot_f64(prob.w, want);
  for (std::size_t i = 0; i < want.size(); ++i) out.dot_abs_sum += std::fabs(static_cast<double>(prob.w[i]) * want[i]);
  out.grid_blocks = plan.grid_blocks();
  out.long_rows = plan.long_rows();
  CHECK(test::bitwise_equal(x.storage(stream), x.expected_storage(prob.x)));  // inputs untouched
  return out;
}

bool has_bulk_copy() { return device_info().cc_major >= 9; }

// The plan's own choice, the stream kernel and, for the block shapes that have them, the team
// kernel at every width and the bulk kernel (on GPUs with bulk copies).
std::vector<SpmvOptions> every_kernel(int R, int C) {
  std::vector<SpmvOptions> all = {SpmvOptions{}, SpmvOptions{0, 0, SpmvKernel::stream, 0}};
  if (R == C && R <= 4) {
    for (int team : {8, 16, 32}) all.push_back(SpmvOptions{0, 0, SpmvKernel::team, team});
    if (has_bulk_copy()) all.push_back(SpmvOptions{0, 0, SpmvKernel::bulk, 0});
  }
  return all;
}

std::string describe(const SpmvOptions& o) {
  std::ostringstream s;
  s << "kernel " << static_cast<int>(o.kernel) << " team " << o.team << " items " << o.items_per_thread << " rows "
    << o.max_rows_per_cta;
  return s.str();
}

template <class T>
constexpr double unit_roundoff() {
  return std::is_same_v<T, float> ? 0x1p-24 : 0x1p-53;
}

// y bit for bit; the dot exact where its terms are (|sum| < 2^mantissa), else within a bound.
template <class T>
void check_exact(const Outcome<T>& o) {
  CHECK(test::bitwise_equal(o.y_storage, o.want_storage));
  if (o.dot_abs_sum < 1.0 / unit_roundoff<T>()) {
    CHECK(o.dot == static_cast<T>(o.want_dot));
  } else {
    CHECK(std::fabs(static_cast<double>(o.dot) - o.want_dot) <= 64 * unit_roundoff<T>() * o.dot_abs_sum);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("SpMV is exact on integer data for every block shape up to 8 x 8", "[ops][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  for (int R = 1; R <= 8; ++R)
    for (int C = 1; C <= 8; ++C) {
      // Not multiples of R / C (unless R or C is 1): the last block row and column are partial.
      const int rows = 61 * R - (R > 1 ? 1 : 0), cols = 53 * C - (C > 1 ? 1 : 0);
      CAPTURE(R, C, rows, cols);
      const HostBsr<T> A = test::random_bsr<T>(rows, cols, R, C, 0.15, 100 * R + C);
      const Problem<T> prob = integer_problem(A, 4, 7 * R + C);
      for (const SpmvOptions& options : every_kernel(R, C)) {
        CAPTURE(describe(options));
        check_exact(run_problem(prob, {2, -1, false}, options, stream));
        check_exact(run_problem(prob, {-1, 0, true}, options, stream));
      }
    }
}

// Runs `plan` once as y = 2 A x - y with the fused dot of the result with itself (w = y) and
// checks y bit for bit and the dot against y_out . y_out: w_i y_i with the old y would differ by
// far more than rounding.
template <class T>
void check_dot_with_itself(const Problem<T>& prob, const Bsr<T>& dA, const SpmvPlan& plan, cudaStream_t stream) {
  GuardedVector<T> x(prob.x, 0, stream), y(prob.y, 0, stream);
  ReduceScratch<T> scratch(plan.grid_blocks(), 1, stream);
  DeviceBuffer<T> dot(1, stream);
  dot.fill_bytes(0xFF, stream);
  plan.run<T>(dA.view(), x.data(), y.data(), scalar(T(2)), scalar(T(-1)), stream,
              SpmvDot<T>{y.data(), dot.data(), scratch.view()});
  std::vector<T> want = prob.y;
  host::spmv(prob.A, prob.x, want, 2.0, -1.0);
  CHECK(test::bitwise_equal(y.storage(stream), y.expected_storage(want)));
  double want_dot = 0;
  for (T v : want) want_dot += static_cast<double>(v) * v;
  const double got = dot.to_host(stream).front();
  if (want_dot < 1.0 / unit_roundoff<T>())
    CHECK(got == static_cast<T>(want_dot));
  else
    CHECK(std::fabs(got - want_dot) <= 64 * unit_roundoff<T>() * want_dot);
}

TEMPLATE_TEST_CASE("SpMV's fused dot with w = y weighs by the new y", "[ops][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  const int R = GENERATE(1, 3);
  CAPTURE(R);
  // Block row 0 is full (1500 blocks: over the 1024-value capacity, the whole-CTA path); the
  // others hold their diagonal block and its neighbours (the team path).
  const int nb = 1500;
  HostCsr<float> pattern;
  pattern.rows = pattern.cols = nb;
  pattern.row_ptr.push_back(0);
  for (int br = 0; br < nb; ++br) {
    for (int bc = 0; bc < nb; ++bc)
      if (br == 0 || std::abs(bc - br) <= 1) pattern.col_idx.push_back(bc);
    pattern.row_ptr.push_back(static_cast<int>(pattern.col_idx.size()));
  }
  pattern.values.assign(pattern.col_idx.size(), 1.f);
  const Problem<T> prob = integer_problem(bsr_on_pattern<T>(pattern, nb * R, nb * R, R, R, 2, 31 + R), 2, 5 + R);
  const Bsr<T> dA = Bsr<T>::from_host(prob.A, stream);
  // stream: the long row takes a CTA of its own; team: 47-188 passes of one team.
  const SpmvOptions options = GENERATE(SpmvOptions{4, 32}, SpmvOptions{0, 0, SpmvKernel::team, 8},
                                       SpmvOptions{0, 0, SpmvKernel::team, 32});
  CAPTURE(describe(options));
  const SpmvPlan plan = plan_spmv(dA.view(), stream, options);
  REQUIRE(plan.long_rows() == (options.kernel == SpmvKernel::team ? 0 : 1));
  check_dot_with_itself(prob, dA, plan, stream);
}

// w may be y itself (spmv_kernel.cuh: PlainRows): every kernel must dot the result, not the old y,
// with itself.
TEMPLATE_TEST_CASE("SpMV fused dot of the result with itself (w = y), every kernel", "[ops][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  const int b = GENERATE(1, 3);
  CAPTURE(b);
  const Problem<T> prob = integer_problem(test::random_bsr<T>(300, 280, b, b, 0.05, 94 + b, 2), 2, 95);
  const Bsr<T> dA = Bsr<T>::from_host(prob.A, stream);
  for (const SpmvOptions& options : every_kernel(b, b)) {
    CAPTURE(describe(options));
    check_dot_with_itself(prob, dA, plan_spmv(dA.view(), stream, options), stream);
  }
}

TEMPLATE_TEST_CASE("SpMV stream variants on power-law rows: streamed, wide teams and long rows", "[ops][gpu]", float,
                   double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  const int items = GENERATE(4, 8, 16);
  const int max_rows = GENERATE(0, 1, 7, 300);
  const SpmvOptions options{items, max_rows};
  CAPTURE(items, max_rows);
  SECTION("CSR, rows up to 20000 entries") {
    // |row sum| <= 2 * 2 * 20000 < 2^24.
    static const HostCsr<float> pattern = test::powerlaw_csr<float>(3000, 20000, 300000, 1.0, 11);  // built once
    const Problem<T> prob = integer_problem(bsr_on_pattern<T>(pattern, 3000, 20000, 1, 1, 2, 12), 2, 13);
    const Outcome<T> o = run_problem(prob, {1, 3, false}, options, stream);
    CHECK(o.long_rows > 0);
    check_exact(o);
  }
  SECTION("3 x 2 blocks, block rows up to 2000 blocks, partial edges") {
    static const HostCsr<float> pattern = test::powerlaw_csr<float>(700, 2000, 60000, 1.0, 21);
    const Problem<T> prob = integer_problem(bsr_on_pattern<T>(pattern, 700 * 3 - 2, 2000 * 2 - 1, 3, 2, 2, 22), 2, 23);
    const Outcome<T> o = run_problem(prob, {-2, 0, true}, options, stream);
    CHECK(o.long_rows > 0);
    check_exact(o);
  }
  SECTION("8 x 8 blocks: a long row's 8 accumulators") {
    static const HostCsr<float> pattern = test::powerlaw_csr<float>(64, 300, 4000, 1.2, 31);
    const Problem<T> prob = integer_problem(bsr_on_pattern<T>(pattern, 64 * 8, 300 * 8, 8, 8, 2, 32), 2, 33);
    const Outcome<T> o = run_problem(prob, {1, -1, false}, options, stream);
    CHECK(o.long_rows > 0);
    check_exact(o);
  }
}

TEMPLATE_TEST_CASE("SpMV team kernel on power-law rows: many passes per team, partial edges", "[ops][gpu]", float,
                   double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  const int team = GENERATE(8, 16, 32);
  CAPTURE(team);
  const SpmvOptions forced{0, 0, SpmvKernel::team, team};
  SECTION("CSR, rows up to 20000 entries") {
    static const HostCsr<float> pattern = test::powerlaw_csr<float>(3000, 20000, 300000, 1.0, 11);
    const Problem<T> prob = integer_problem(bsr_on_pattern<T>(pattern, 3000, 20000, 1, 1, 2, 12), 2, 13);
    check_exact(run_problem(prob, {1, 3, false}, forced, stream));
  }
  SECTION("3 x 3 blocks, block rows up to 2000 blocks, partial edges") {
    static const HostCsr<float> pattern = test::powerlaw_csr<float>(700, 2000, 60000, 1.0, 21);
    const Problem<T> prob = integer_problem(bsr_on_pattern<T>(pattern, 700 * 3 - 2, 2000 * 3 - 1, 3, 3, 2, 24), 2, 25);
    check_exact(run_problem(prob, {-2, 0, true}, forced, stream));
  }
}

TEMPLATE_TEST_CASE("SpMV bulk kernel on power-law rows: up to a whole stage per row, tiles of 1 to 256 rows",
                   "[ops][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  if (!has_bulk_copy()) {
    WARN("SKIPPED: the bulk kernel needs an sm_90 GPU");
    return;
  }
  using T = TestType;
  Stream stream;
  const SpmvOptions forced{0, 0, SpmvKernel::bulk, 0};
  SECTION("CSR, rows up to 2048 entries") {
    static const HostCsr<float> pattern = test::powerlaw_csr<float>(5000, 2048, 150000, 1.0, 41);
    const Problem<T> prob = integer_problem(bsr_on_pattern<T>(pattern, 5000, 2048, 1, 1, 2, 42), 2, 43);
    check_exact(run_problem(prob, {1, 3, false}, forced, stream));
    check_exact(run_problem(prob, {-1, 0, true}, forced, stream));
  }
  SECTION("2 x 2 blocks, block rows up to a whole stage (512 blocks f64, 1024 f32), partial edges") {
    constexpr int kLongest = spmv_tuning::bulk_values(2, 2, sizeof(T)) / 4;
    static const HostCsr<float> pattern = test::powerlaw_csr<float>(900, kLongest, 30000, 1.0, 44);
    const Problem<T> prob =
        integer_problem(bsr_on_pattern<T>(pattern, 900 * 2 - 1, kLongest * 2 - 1, 2, 2, 2, 45), 2, 46);
    check_exact(run_problem(prob, {-2, 0, true}, forced, stream));
    check_exact(run_problem(prob, {1, 1, false}, forced, stream));
  }
}

// Views whose arrays start and end off 16-byte boundaries: the bulk kernel copies the 16-byte-
// aligned interior and the producer lane the edges, reading nothing outside the arrays.
TEMPLATE_TEST_CASE("SpMV on arrays that are not 16-byte aligned", "[ops][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  const int b = GENERATE(1, 3);
  const int shift = GENERATE(1, 2, 3);  // elements before each array in its buffer
  CAPTURE(b, shift);
  const HostBsr<T> host = test::random_bsr<T>(1001 * b - (b > 1), 999 * b, b, b, 0.01, 60 + b);
  const Problem<T> prob = integer_problem(host, 3, 61);
  auto shifted = [&](const auto& values) {
    using E = typename std::decay_t<decltype(values)>::value_type;
    std::vector<E> padded(static_cast<std::size_t>(shift), E(0));
    padded.insert(padded.end(), values.begin(), values.end());
    padded.push_back(E(0));
    return DeviceBuffer<E>::from_host(padded, stream);
  };
  const DeviceBuffer<int> row_ptr = shifted(prob.A.row_ptr), col_idx = shifted(prob.A.col_idx);
  const DeviceBuffer<T> values = shifted(prob.A.values);
  const BsrView<const T> A{prob.A.rows, prob.A.cols, b, b, prob.A.nnzb(), row_ptr.data() + shift, col_idx.data() + shift,
                           values.data() + shift};
  for (const SpmvOptions& options : every_kernel(b, b)) {
    CAPTURE(describe(options));
    const SpmvPlan plan = plan_spmv(A, stream, options);
    GuardedVector<T> x(prob.x, 0, stream), y(test::poisoned<T>(prob.y.size()), 0, stream);
    plan.run<T>(A, x.data(), y.data(), scalar(T(1)), scalar(T(0)), stream);
    std::vector<T> want = prob.y;
    host::spmv(prob.A, prob.x, want, 1.0, 0.0);
    CHECK(test::bitwise_equal(y.storage(stream), y.expected_storage(want)));
  }
}

TEMPLATE_TEST_CASE("SpMV on hostile shapes", "[ops][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  auto from_rows = [](int rows, int cols, const std::vector<std::vector<int>>& row_cols) {
    std::mt19937 rng(5);
    return test::csr_from_rows<float>(rows, cols, row_cols, rng);
  };
  SECTION("empty matrix: nothing to do, the dot is 0") {
    for (const auto& [rows, cols] : std::vector<std::pair<int, int>>{{0, 0}, {0, 5}}) {
      const Problem<T> prob = integer_problem(bsr_on_pattern<T>(from_rows(0, cols, {}), rows, cols, 1, 1, 4, 1), 4, 2);
      for (const SpmvOptions& options : every_kernel(1, 1)) {
        CAPTURE(describe(options));
        const Outcome<T> o = run_problem(prob, {1, 0, false}, options, stream);
        CHECK(o.grid_blocks == 1);
        check_exact(o);
        CHECK(o.dot == T(0));
      }
    }
  }
  SECTION("no columns: y = beta * y, or 0") {
    const Problem<T> prob = integer_problem(bsr_on_pattern<T>(from_rows(4, 0, {{}, {}, {}, {}}), 7, 0, 2, 3, 4, 3), 4, 4);
    check_exact(run_problem(prob, {1, 0, false}, {}, stream));
    check_exact(run_problem(prob, {1, -2, true}, {}, stream));
  }
  SECTION("no stored blocks, every third block row empty, one block") {
    const std::vector<std::vector<std::vector<int>>> patterns = {
        std::vector<std::vector<int>>(50),                                     // nothing stored
        {{0, 3}, {}, {1}, {0, 1, 2, 3}, {}, {}, {2}, {}, {}, {3}},             // empty rows between
        {{}, {}, {2}, {}}};                                                    // one block
    for (const auto& rows : patterns) {
      const int block_rows = static_cast<int>(rows.size());
      const HostCsr<float> pattern = from_rows(block_rows, 4, rows);
      for (const auto& [R, C] : std::vector<std::pair<int, int>>{{1, 1}, {3, 3}, {2, 5}}) {
        CAPTURE(block_rows, R, C);
        const Problem<T> prob = integer_problem(bsr_on_pattern<T>(pattern, block_rows * R - (R > 1), 4 * C - (C > 1), R, C, 4, 6), 4, 7);
        for (const SpmvOptions& options : every_kernel(R, C)) {
          CAPTURE(describe(options));
          check_exact(run_problem(prob, {1, 0, false}, options, stream));
          check_exact(run_problem(prob, {3, 2, true}, options, stream));
        }
      }
    }
  }
  SECTION("one very long row among short ones (CSR and 3 x 3)") {
    std::vector<std::vector<int>> rows(40);
    for (int r = 0; r < 40; ++r) rows[r] = {r};
    rows[17].clear();
    for (int c = 0; c < 30000; ++c) rows[17].push_back(c);
    const HostCsr<float> pattern = from_rows(40, 30000, rows);
    for (const int b : {1, 3}) {
      const Problem<T> prob = integer_problem(bsr_on_pattern<T>(pattern, 40 * b, 30000 * b, b, b, 1, 8), 1, 9);
      const Outcome<T> o = run_problem(prob, {1, 1, false}, {}, stream);
      CHECK(o.long_rows == 1);  // the automatic choice: the stream kernel (the row is too long for a team)
      check_exact(o);
      check_exact(run_problem(prob, {1, 1, false}, SpmvOptions{0, 0, SpmvKernel::team, 32}, stream));
    }
  }
}

TEMPLATE_TEST_CASE("SpMV on real data: fp64-bounded, bitwise reproducible, dot fused", "[ops][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  const int R = GENERATE(1, 3, 4);
  const int C = R == 4 ? 2 : R;
  const SpmvKernel kernel = GENERATE(SpmvKernel::automatic, SpmvKernel::stream, SpmvKernel::team);
  CAPTURE(R, C, static_cast<int>(kernel));
  if (kernel == SpmvKernel::team && R != C) return;  // no team kernel for 4 x 2
  std::mt19937 rng(77);
  HostBsr<T> A = test::random_bsr<T>(4000 * R - 1, 4000 * C - 1, R, C, 0.003, 78);
  for (auto& v : A.values)
    if (v != T(0)) v = test::real_value<T>(rng);
  const std::vector<T> x = test::real_values<T>(static_cast<std::size_t>(A.cols), 79);
  const std::vector<T> y0 = test::real_values<T>(static_cast<std::size_t>(A.rows), 80);
  Bsr<T> dA = Bsr<T>::from_host(A, stream);          // non-const: view() is a BsrView<T>, which converts
  const SpmvPlan plan = plan_spmv(dA.view(), stream, SpmvOptions{0, 0, kernel, 0});
  // Automatic: bulk or team for these short rows of square blocks (spmv_choose: which one
  // depends on the GPU, the dtype and the longest row), the stream kernel for 4 x 2.
  if (kernel == SpmvKernel::automatic)
    CHECK((plan.config().kernel == SpmvKernel::stream) == (R != C));
  GuardedVector<T> dx(x, 0, stream), dw(y0, 0, stream);
  ReduceScratch<T> scratch(plan.grid_blocks(), 1, stream);
  DeviceBuffer<T> dot(1, stream);
  std::vector<std::vector<T>> ys;
  std::vector<T> dots;
  for (int run = 0; run < 3; ++run) {
    GuardedVector<T> dy(y0, 0, stream);
    dot.fill_bytes(0xFF, stream);
    plan.run(dA.view(), dx.data(), dy.data(), scalar(T(1.5)), scalar(T(-0.5)), stream,
             SpmvDot<T>{dw.data(), dot.data(), scratch.view()});
    ys.push_back(dy.values(stream));
    dots.push_back(dot.to_host(stream).front());
  }
  CHECK(test::bitwise_equal(ys[0], ys[1]));
  CHECK(test::bitwise_equal(ys[0], ys[2]));
  CHECK(test::bitwise_equal(dots, std::vector<T>(3, dots[0])));

  const std::vector<double> ref = host::spmv_f64(A, x, y0, 1.5, -0.5);
  double err = 0, norm = 0, dot_ref = 0, dot_abs = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    err += (ys[0][i] - ref[i]) * (ys[0][i] - ref[i]);
    norm += ref[i] * ref[i];
    dot_ref += static_cast<double>(y0[i]) * ys[0][i];
    dot_abs += std::fabs(static_cast<double>(y0[i]) * ys[0][i]);
  }
  // Rows hold ~12 blocks of R x C: a few dozen roundings per row at most.
  CHECK(std::sqrt(err / norm) <= 64 * unit_roundoff<T>());
  CHECK(std::fabs(dots[0] - dot_ref) <= 64 * unit_roundoff<T>() * dot_abs);
}

TEMPLATE_TEST_CASE("SpMV is capturable and replays with new device scalars", "[ops][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  const HostBsr<T> A = test::random_bsr<T>(300, 280, 3, 3, 0.05, 90, 2);
  const Problem<T> prob = integer_problem(A, 2, 91);
  const Bsr<T> dA = Bsr<T>::from_host(prob.A, stream);
  const SpmvKernel kernel = GENERATE(SpmvKernel::team, SpmvKernel::stream, SpmvKernel::bulk);
  CAPTURE(static_cast<int>(kernel));
  if (kernel == SpmvKernel::bulk && !has_bulk_copy()) return;
  const SpmvPlan plan = plan_spmv(dA.view(), stream, SpmvOptions{0, 0, kernel, 0});  // before capture: it validates and syncs
  GuardedVector<T> x(prob.x, 0, stream), y(prob.y, 0, stream), w(prob.w, 0, stream);
  ReduceScratch<T> scratch(plan.grid_blocks(), 1, stream);
  DeviceBuffer<T> dot(1, stream);
  DeviceBuffer<T> scalars(2, stream);
  stream.synchronize();

  cudaGraph_t graph = nullptr;
  BSRFLOW_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  plan.run<T>(dA.view(), x.data(), y.data(), scalar_at(scalars.data()), scalar_at(scalars.data() + 1), stream,
              SpmvDot<T>{w.data(), dot.data(), scratch.view()});
  BSRFLOW_CHECK_ERROR(plan_spmv(dA.view(), stream), Errc::capture,
                      "validate synchronises its stream and cannot run during stream capture");
  BSRFLOW_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  BSRFLOW_CUDA(cudaGraphInstantiate(&exec, graph, 0));

  std::vector<T> want = prob.y;
  for (const auto& [alpha, beta] : std::vector<std::pair<int, int>>{{1, 0}, {-1, 1}, {2, -1}}) {
    CAPTURE(alpha, beta);
    scalars.copy_from_host(std::vector<T>{T(alpha), T(beta)}, stream);
    BSRFLOW_CUDA(cudaGraphLaunch(exec, stream));
    host::spmv(prob.A, prob.x, want, alpha, beta);
    CHECK(test::bitwise_equal(y.storage(stream), y.expected_storage(want)));
    CHECK(dot.to_host(stream).front() == static_cast<T>(host::dot_f64(prob.w, want)));
  }
  BSRFLOW_CUDA(cudaGraphExecDestroy(exec));
  BSRFLOW_CUDA(cudaGraphDestroy(graph));
}

TEST_CASE("SpMV launch errors and structure errors", "[ops][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const HostBsr<double> host = test::random_bsr<double>(10, 12, 3, 3, 0.5, 1);
  const Bsr<double> A = Bsr<double>::from_host(host, stream);
  const SpmvPlan plan = plan_spmv(A.view(), stream);
  DeviceBuffer<double> x(12, stream), y(10, stream), w(10, stream), r(1, stream);
  const auto view = A.view();
  auto launch = [&](BsrView<const double> a, const double* xp, double* yp, SpmvDot<double> dot = {}) {
    return plan.launch<double>(a, xp, yp, scalar(1.0), scalar(0.0), dot);
  };
  const std::string pattern = "10 x 12, 3 x 3 blocks, nnzb " + std::to_string(host.nnzb());

  {
    const HostBsr<float> hf = test::random_bsr<float>(10, 12, 3, 3, 0.5, 1);
    const Bsr<float> Af = Bsr<float>::from_host(hf, stream);
    DeviceBuffer<float> xf(12, stream), yf(10, stream);
    BSRFLOW_CHECK_ERROR(plan.launch<float>(Af.view(), xf.data(), yf.data(), scalar(1.0f), scalar(0.0f)),
                        Errc::invalid_argument, "spmv: the plan was made for f64, called with f32");
  }
  BsrView<const double> other = view;
  other.nnzb -= 1;
  BSRFLOW_CHECK_ERROR(launch(other, x.data(), y.data()), Errc::invalid_argument,
                      "spmv: A (10 x 12, 3 x 3 blocks, nnzb " + std::to_string(host.nnzb() - 1) +
                          ") does not match the plan's pattern (" + pattern + ")");
  BsrView<const double> no_values = view;
  no_values.values = nullptr;
  BSRFLOW_CHECK_ERROR(launch(no_values, x.data(), y.data()), Errc::invalid_argument,
                      "A.values is null but A stores " + std::to_string(host.nnzb()) + " blocks");
  BSRFLOW_CHECK_ERROR(launch(view, nullptr, y.data()), Errc::invalid_argument, "spmv: x is null but A has 12 columns");
  BSRFLOW_CHECK_ERROR(launch(view, x.data(), nullptr), Errc::invalid_argument, "spmv: y is null but A has 10 rows");
  BSRFLOW_CHECK_ERROR(launch(view, x.data(), y.data(), SpmvDot<double>{nullptr, r.data(), {}}), Errc::invalid_argument,
                      "spmv: dot.w is null but A has 10 rows");
  BSRFLOW_CHECK_ERROR(launch(view, x.data(), y.data(), SpmvDot<double>{w.data(), r.data(), {}}), Errc::invalid_argument,
                      "spmv dot: the reduce workspace is not set up (null partials or ticket)");
  // f64 3 x 3 blocks, short rows (params(): test_spmv_params.cu)
  CHECK(plan.config().kernel == (has_bulk_copy() ? SpmvKernel::bulk : SpmvKernel::team));

  // A workspace one block short of the plan's grid (a plan with several CTAs).
  const HostBsr<double> big = test::random_bsr<double>(3000, 3000, 1, 1, 0.01, 2);
  const Bsr<double> B = Bsr<double>::from_host(big, stream);
  const SpmvPlan big_plan = plan_spmv(B.view(), stream);
  REQUIRE(big_plan.grid_blocks() > 1);
  ReduceScratch<double> small(big_plan.grid_blocks() - 1, 1, stream);
  DeviceBuffer<double> bx(3000, stream), by(3000, stream), bw(3000, stream);
  BSRFLOW_CHECK_ERROR(big_plan.launch<double>(B.view(), bx.data(), by.data(), scalar(1.0), scalar(0.0),
                                              SpmvDot<double>{bw.data(), r.data(), small.view()}),
                      Errc::invalid_argument,
                      "spmv dot: the grid has " + std::to_string(big_plan.grid_blocks()) +
                          " blocks but the reduce workspace serves at most " +
                          std::to_string(big_plan.grid_blocks() - 1));

  // plan_spmv validates the structure (first violation, formats/validate.hpp's words).
  HostBsr<double> broken = host;
  REQUIRE(broken.nnzb() >= 1);
  broken.col_idx[0] = 4;  // block columns are [0, 4)
  int first_row = 0;      // the block row holding entry 0
  while (broken.row_ptr[first_row + 1] == 0) ++first_row;
  const Bsr<double> bad = Bsr<double>::from_host(broken, stream);
  BSRFLOW_CHECK_ERROR(plan_spmv(bad.view(), stream), Errc::invalid_structure,
                      "block row " + std::to_string(first_row) + ": block column 4 out of range [0, 4)");
}
