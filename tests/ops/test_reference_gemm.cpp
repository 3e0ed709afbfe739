// The reference BSR x dense GEMM kernel against the CPU reference.
//
// Integer-valued inputs compare bit for bit over C's *whole storage*: leading-dimension
// padding and a poisoned guard tail past the last element must come back untouched, and with
// beta == 0 the output starts as NaN (0xFF bytes), so an unwritten element or a read of C
// cannot pass. B also carries a NaN guard tail (and NaN padding), so reading a B row >= K or
// a padding column turns a result into NaN. Real-valued inputs are held to relative-norm
// bounds against the fp64 product of the rounded inputs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/dense.hpp"
#include "bsrflow/ops/cpu_gemm.hpp"
#include "bsrflow/ops/reference_gemm.hpp"
#include "support/gpu.hpp"
#include "support/patterns.hpp"

using namespace bsrflow;

namespace {

template <class In, class Out>
struct Types {
  using TIn = In;
  using TOut = Out;
};
using F16_F16 = Types<__half, __half>;
using F16_F32 = Types<__half, float>;
using BF16_BF16 = Types<__nv_bfloat16, __nv_bfloat16>;
using BF16_F32 = Types<__nv_bfloat16, float>;
using F32_F32 = Types<float, float>;
using F64_F64 = Types<double, double>;

// ---- Problem shapes and patterns ---------------------------------------------------------

struct Shape {
  int M = 0, N = 0, K = 0;  // C is M x N, A is M x K
  int R = 1, C = 1;         // block shape
  Layout b_layout = Layout::row_major;
  Layout c_layout = Layout::row_major;
  bool padded = false;  // leading dimensions 7 larger than the minimum
};

std::string describe(const Shape& s) {
  std::ostringstream os;
  os << "M=" << s.M << " N=" << s.N << " K=" << s.K << " block " << s.R << "x" << s.C << " B "
     << (s.b_layout == Layout::row_major ? "row" : "col") << "-major, C "
     << (s.c_layout == Layout::row_major ? "row" : "col") << "-major, " << (s.padded ? "padded ld" : "tight ld");
  return os.str();
}

std::int64_t ld_for(int rows, int cols, Layout layout, bool padded) {
  return (layout == Layout::row_major ? cols : rows) + (padded ? 7 : 0);
}

enum class Pattern { uniform, empty_block_rows, single_block, full, powerlaw };

const char* name(Pattern p) {
  switch (p) {
    case Pattern::uniform: return "uniform 40%";
    case Pattern::empty_block_rows: return "every third block row empty";
    case Pattern::single_block: return "a single block";
    case Pattern::full: return "full density";
    case Pattern::powerlaw: return "power-law block rows";
  }
  return "?";
}

// Sorted block columns of each block row.
std::vector<std::vector<int>> block_pattern(Pattern p, int block_rows, int block_cols, std::uint32_t seed) {
  std::vector<std::vector<int>> rows(static_cast<std::size_t>(block_rows));
  std::mt19937 rng(seed);
  switch (p) {
    case Pattern::uniform:
    case Pattern::empty_block_rows: {
      std::bernoulli_distribution keep(p == Pattern::uniform ? 0.4 : 0.6);
      for (int i = 0; i < block_rows; ++i)
        for (int j = 0; j < block_cols; ++j)
          if (keep(rng)) rows[i].push_back(j);
      if (p == Pattern::empty_block_rows) {
        for (int i = 0; i < block_rows; i += 3) rows[i].clear();  // the first block row included
        if (block_rows > 0) rows[block_rows - 1].clear();          // and the (partial) last one
      }
      break;
    }
    case Pattern::single_block:
      if (block_rows > 0 && block_cols > 0) rows[block_rows / 2].push_back(block_cols / 2);
      break;
    case Pattern::full:
      for (auto& r : rows)
        for (int j = 0; j < block_cols; ++j) r.push_back(j);
      break;
    case Pattern::powerlaw: {
      const HostCsr<float> csr =
          test::powerlaw_csr<float>(block_rows, block_cols, std::int64_t{block_rows} * block_cols / 4, 1.0, seed);
      for (int i = 0; i < block_rows; ++i) rows[i].assign(csr.col_idx.begin() + csr.row_ptr[i], csr.col_idx.begin() + csr.row_ptr[i + 1]);
      break;
    }
  }
  return rows;
}

// Dense M x N with this file's leading dimensions (any ld, odd padding); padding is NaN.
template <class T, class ValueFn>
HostDense<T> make_dense(int rows, int cols, Layout layout, bool padded, ValueFn value) {
  return test::nan_padded_dense<T>(rows, cols, layout, ld_for(rows, cols, layout, padded), value);
}

template <class TIn, class TOut>
struct Problem {
  HostBsr<TIn> A;
  HostDense<TIn> B;
  HostDense<TOut> C;  // input C (read when beta != 0)
};

double max_abs(const HostDense<double>& d) {
  double m = 0.0;
  for (double v : d.data) m = std::max(m, std::fabs(v));
  return m;
}

// Integer values in [-range, range] \ {0}, the range chosen as large as possible (<= 4) with
// |alpha * A * B + beta * C| <= 2048 everywhere, so that every output, f16 included, is exact.
template <class TIn, class TOut>
Problem<TIn, TOut> integer_problem(const Shape& s, Pattern p, double alpha, double beta, std::uint32_t seed) {
  const auto pattern = block_pattern(p, ceil_div(s.M, s.R), ceil_div(s.K, s.C), seed);
  for (int range = 4;; --range) {
    std::mt19937 rng(seed + 1);
    Problem<TIn, TOut> prob{
        test::make_bsr<TIn>(s.M, s.K, s.R, s.C, pattern, [&] { return test::int_value<TIn>(rng, range); }),
        make_dense<TIn>(s.K, s.N, s.b_layout, s.padded, [&] { return test::int_value<TIn>(rng, range); }),
        make_dense<TOut>(s.M, s.N, s.c_layout, s.padded, [&] { return test::int_value<TOut>(rng, range); })};
    if (range == 1 || max_abs(host::gemm_f64(prob.A, prob.B, prob.C, alpha, beta)) <= 2048.0) return prob;
  }
}

// Real values in [-1, 1), rounded to the element type.
template <class TIn, class TOut>
Problem<TIn, TOut> real_problem(const Shape& s, Pattern p, std::uint32_t seed) {
  const auto pattern = block_pattern(p, ceil_div(s.M, s.R), ceil_div(s.K, s.C), seed);
  std::mt19937 rng(seed + 1);
  return {test::make_bsr<TIn>(s.M, s.K, s.R, s.C, pattern, [&] { return test::real_value<TIn>(rng); }),
          make_dense<TIn>(s.K, s.N, s.b_layout, s.padded, [&] { return test::real_value<TIn>(rng); }),
          make_dense<TOut>(s.M, s.N, s.c_layout, s.padded, [&] { return test::real_value<TOut>(rng); })};
}

// ---- Running ------------------------------------------------------------------------------

using test::poisoned;

// `data` followed by `tail` poisoned (0xFF, NaN) elements.
template <class T>
std::vector<T> with_tail(const std::vector<T>& data, std::size_t tail) {
  std::vector<T> v = data;
  const std::vector<T> guard = poisoned<T>(tail);
  v.insert(v.end(), guard.begin(), guard.end());
  return v;
}

// Guard tails: a read of B's rows K .. K + C - 1 or a write of C's rows M .. M + R - 1 lands
// in them whatever the layout (capped for very wide matrices, where it still covers the start
// of the first row past the end).
constexpr std::int64_t kMaxTail = std::int64_t{1} << 16;
template <class TIn, class TOut>
std::size_t b_tail(const Problem<TIn, TOut>& p) {
  return static_cast<std::size_t>(std::min(kMaxTail, p.A.C * (p.B.ld + 1)));
}
template <class TIn, class TOut>
std::size_t c_tail(const Problem<TIn, TOut>& p) {
  return static_cast<std::size_t>(std::min(kMaxTail, p.A.R * (p.C.ld + 1)));
}

// C's whole storage (+ guard tail) after reference_gemm on the GPU; C starts poisoned, then
// holds the input C when beta != 0.
template <class TIn, class TOut>
std::vector<TOut> gpu_gemm(const Problem<TIn, TOut>& p, double alpha, double beta, cudaStream_t stream) {
  const Bsr<TIn> A = Bsr<TIn>::from_host(p.A, stream);
  const auto B = DeviceBuffer<TIn>::from_host(with_tail(p.B.data, b_tail(p)), stream);
  DeviceBuffer<TOut> C(p.C.data.size() + c_tail(p), stream);
  C.fill_bytes(0xFF, stream);
  if (beta != 0.0) C.copy_from_host(with_tail(p.C.data, c_tail(p)), stream);
  using Acc = accumulator_t<TIn>;
  reference_gemm<TIn, TOut>(A.view(), DenseView<const TIn>{B.data(), p.B.rows, p.B.cols, p.B.ld, p.B.layout},
                            DenseView<TOut>{C.data(), p.C.rows, p.C.cols, p.C.ld, p.C.layout}, static_cast<Acc>(alpha),
                            static_cast<Acc>(beta), stream);
  return C.to_host(stream);
}

// What the GPU's C storage must be: the CPU reference inside the shape, everything else as it
// was (input padding, or poison when beta == 0), guard tail poisoned.
template <class TIn, class TOut>
std::vector<TOut> expected_storage(const Problem<TIn, TOut>& p, double alpha, double beta) {
  HostDense<TOut> c = p.C;
  if (beta == 0.0) c.data = poisoned<TOut>(c.data.size());
  host::gemm(p.A, p.B, c, alpha, beta);
  return with_tail(c.data, c_tail(p));
}

template <class T>
std::string first_difference(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size()) return "storage sizes differ";
  std::size_t count = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0 && count++ == 0) first = i;
  if (count == 0) return "identical";
  std::ostringstream os;
  os << count << " of " << got.size() << " stored elements differ; first at storage index " << first << ": got "
     << to_double(got[first]) << ", expected " << to_double(want[first]);
  return os.str();
}

template <class TIn, class TOut>
void check_exact(const Shape& s, Pattern p, double alpha, double beta, std::uint32_t seed) {
  INFO(describe(s) << ", " << name(p) << ", alpha " << alpha << ", beta " << beta);
  const Problem<TIn, TOut> prob = integer_problem<TIn, TOut>(s, p, alpha, beta, seed);
  const std::vector<TOut> want = expected_storage(prob, alpha, beta);
  Stream stream;
  const std::vector<TOut> got = gpu_gemm(prob, alpha, beta, stream);
  INFO(first_difference(got, want));
  CHECK(test::bitwise_equal(got, want));
}

// Block shape -> dims that are not multiples of it (except for 1 x 1) and span a few blocks.
Shape shape_for(int R, int C, int N, Layout b_layout, Layout c_layout, bool padded) {
  Shape s;
  s.R = R;
  s.C = C;
  s.M = R * std::max(2, 70 / R) + R / 2 + (R > 1 ? 1 : 0);
  s.K = C * std::max(2, 70 / C) + C / 2 + (C > 1 ? 1 : 0);
  s.N = N;
  s.b_layout = b_layout;
  s.c_layout = c_layout;
  s.padded = padded;
  return s;
}

template <class TOut, class TIn>
constexpr double relative_bound() {
  if constexpr (std::is_same_v<TOut, double>) return 1e-12;
  else if constexpr (std::is_same_v<TOut, __half>) return 1e-3;
  else if constexpr (std::is_same_v<TOut, __nv_bfloat16>) return 8e-3;
  else return 1e-5;  // f32 out, from f32 or (exactly widened) f16 / bf16 inputs
}

}  // namespace

TEMPLATE_TEST_CASE("reference_gemm is exact on integer data across block shapes, layouts and beta", "[ops][gpu]",
                   F16_F16, F16_F32, BF16_BF16, BF16_F32, F32_F32, F64_F64) {
  BSRFLOW_REQUIRE_GPU();
  using TIn = typename TestType::TIn;
  using TOut = typename TestType::TOut;
  const auto block = GENERATE(table<int, int>({{1, 1}, {3, 3}, {16, 16}, {16, 64}, {64, 16}, {32, 128}, {3, 5}}));
  const Layout b_layout = GENERATE(Layout::row_major, Layout::col_major);
  const Layout c_layout = GENERATE(Layout::row_major, Layout::col_major);
  const bool padded = GENERATE(false, true);
  const double beta = GENERATE(0.0, 1.0, -3.0);
  // N = 300 spans two 256-wide swaths (R <= 4) or many 32-wide ones; N = 45 is a partial swath.
  const Shape s = shape_for(std::get<0>(block), std::get<1>(block), padded ? 45 : 300, b_layout, c_layout, padded);
  check_exact<TIn, TOut>(s, Pattern::uniform, 2.0, beta, 17u * static_cast<std::uint32_t>(s.R) + static_cast<std::uint32_t>(s.C));
}

TEMPLATE_TEST_CASE("reference_gemm is exact on hostile patterns", "[ops][gpu]", F16_F16, F16_F32, BF16_BF16, BF16_F32,
                   F32_F32, F64_F64) {
  BSRFLOW_REQUIRE_GPU();
  using TIn = typename TestType::TIn;
  using TOut = typename TestType::TOut;
  const Pattern pattern =
      GENERATE(Pattern::empty_block_rows, Pattern::single_block, Pattern::full, Pattern::powerlaw);
  const auto block = GENERATE(table<int, int>({{1, 1}, {3, 5}, {16, 16}, {64, 16}}));
  const bool col_major = GENERATE(false, true);
  const double beta = GENERATE(0.0, -3.0);
  const int R = std::get<0>(block), C = std::get<1>(block);
  Shape s;
  s.R = R;
  s.C = C;
  s.M = R * 40 + R / 2;  // 40 block rows (+ a partial one when R > 1)
  s.K = C * 24 + C / 2;
  s.N = 37;
  s.b_layout = s.c_layout = col_major ? Layout::col_major : Layout::row_major;
  s.padded = col_major;
  check_exact<TIn, TOut>(s, pattern, 2.0, beta, 1234u + static_cast<std::uint32_t>(R));
}

TEMPLATE_TEST_CASE("reference_gemm on empty shapes writes exactly what it must", "[ops][gpu]", F16_F16, F16_F32,
                   BF16_BF16, BF16_F32, F32_F32, F64_F64) {
  BSRFLOW_REQUIRE_GPU();
  using TIn = typename TestType::TIn;
  using TOut = typename TestType::TOut;
  // (M, N, K): no rows, no columns, K == 0 (C = beta * C, or 0 when beta == 0), all empty.
  const auto dims = GENERATE(table<int, int, int>({{0, 37, 20}, {45, 0, 20}, {45, 37, 0}, {0, 0, 0}}));
  const double beta = GENERATE(0.0, -3.0);
  Shape s;
  s.M = std::get<0>(dims);
  s.N = std::get<1>(dims);
  s.K = std::get<2>(dims);
  s.R = 3;
  s.C = 5;
  s.padded = true;
  check_exact<TIn, TOut>(s, Pattern::uniform, 2.0, beta, 99u);
}

TEST_CASE("reference_gemm strides over swaths past gridDim.y's limit", "[ops][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  // R = 32 gives 32-wide swaths; 65535 of them cover 2,097,120 columns, so the last 77
  // columns are reached only by the grid-stride loop. M = 1 keeps C small (rows 1..31 of the
  // block are padding).
  Shape s;
  s.M = 1;
  s.K = 2;
  s.N = 65535 * 32 + 77;
  s.R = 32;
  s.C = 1;
  check_exact<float, float>(s, Pattern::full, 2.0, -3.0, 7u);
}

TEMPLATE_TEST_CASE("reference_gemm on random real data is within the dtype's bound of fp64", "[ops][gpu]", F16_F16,
                   F16_F32, BF16_BF16, BF16_F32, F32_F32, F64_F64) {
  BSRFLOW_REQUIRE_GPU();
  using TIn = typename TestType::TIn;
  using TOut = typename TestType::TOut;
  const auto cfg = GENERATE(table<int, int, int, int, int, int>({
      // M, N, K, R, C, pattern
      {500, 260, 520, 16, 16, static_cast<int>(Pattern::uniform)},
      {301, 130, 299, 3, 5, static_cast<int>(Pattern::full)},
      {650, 100, 410, 64, 16, static_cast<int>(Pattern::powerlaw)},
      {200, 96, 1000, 32, 128, static_cast<int>(Pattern::uniform)},
  }));
  const double beta = GENERATE(0.0, -0.5);
  const double alpha = 1.5;
  Shape s;
  s.M = std::get<0>(cfg);
  s.N = std::get<1>(cfg);
  s.K = std::get<2>(cfg);
  s.R = std::get<3>(cfg);
  s.C = std::get<4>(cfg);
  const auto pattern = static_cast<Pattern>(std::get<5>(cfg));
  s.b_layout = Layout::col_major;
  s.padded = true;
  INFO(describe(s) << ", " << name(pattern) << ", alpha " << alpha << ", beta " << beta);

  const Problem<TIn, TOut> prob = real_problem<TIn, TOut>(s, pattern, 4321u);
  const HostDense<double> ref = host::gemm_f64(prob.A, prob.B, prob.C, alpha, beta);
  Stream stream;
  const std::vector<TOut> first = gpu_gemm(prob, alpha, beta, stream);
  HostDense<TOut> out = prob.C;
  out.data.assign(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(out.data.size()));
  const double error = host::relative_error(out, ref);
  constexpr double bound = relative_bound<TOut, TIn>();
  INFO("relative error " << error << ", bound " << bound);
  CHECK(error <= bound);

  // Bitwise reproducible run to run (fresh buffers, fresh poison).
  const std::vector<TOut> second = gpu_gemm(prob, alpha, beta, stream);
  CHECK(test::bitwise_equal(first, second));
}

TEST_CASE("reference_gemm uses 64-bit offsets: A values, B rows and C rows past 2^31 elements", "[ops][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  std::size_t free_bytes = 0, total_bytes = 0;
  BSRFLOW_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < (std::size_t{16} << 30)) {
    WARN("SKIPPED: needs 16 GiB of free GPU memory, " << (free_bytes >> 20) << " MiB free");
    return;
  }
  using T = __half;
  constexpr int R = 64, C = 64, block_rows = 1024, block_cols = 513, N = 2;
  constexpr int M = block_rows * R;  // 65536
  constexpr int K = block_cols * C;  // 32832
  constexpr std::int64_t ldb = 65537, ldc = 40000;
  constexpr std::int64_t nnzb = std::int64_t{block_rows} * block_cols;
  constexpr std::int64_t last_row_first_value = (nnzb - block_cols) * R * C;
  constexpr std::int64_t two_31 = std::int64_t{1} << 31;
  static_assert(last_row_first_value > two_31, "the last block row's values start past 2^31");
  static_assert((K - 1) * ldb > two_31 && std::int64_t{32768} * ldb > two_31, "B's last block column starts past 2^31");
  static_assert((M - R) * ldc > two_31, "C's last block row starts past 2^31");

  // Every block row full; only the last one carries real values, the others are NaN, so a
  // wrapped offset that lands anywhere else in A shows up as NaN in the checked rows.
  std::vector<int> row_ptr(block_rows + 1), col_idx(static_cast<std::size_t>(nnzb));
  for (int i = 0; i <= block_rows; ++i) row_ptr[i] = i * block_cols;
  for (std::int64_t k = 0; k < nnzb; ++k) col_idx[k] = static_cast<int>(k % block_cols);
  std::mt19937 rng(5);
  const auto one_block_row = std::vector<std::vector<int>>{std::vector<int>(col_idx.begin(), col_idx.begin() + block_cols)};
  const HostBsr<T> last = test::make_bsr<T>(R, K, R, C, one_block_row, [&] { return test::int_value<T>(rng, 1); });
  const HostDense<T> b_host = make_dense<T>(K, N, Layout::row_major, false, [&] { return test::int_value<T>(rng, 1); });

  Stream stream;
  const auto d_row_ptr = DeviceBuffer<int>::from_host(row_ptr, stream);
  const auto d_col_idx = DeviceBuffer<int>::from_host(col_idx, stream);
  DeviceBuffer<T> d_values(static_cast<std::size_t>(nnzb * R * C), stream);
  d_values.fill_bytes(0xFF, stream);
  BSRFLOW_CUDA(cudaMemcpyAsync(d_values.data() + last_row_first_value, last.values.data(),
                               last.values.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
  DeviceBuffer<T> d_b(static_cast<std::size_t>((K - 1) * ldb + N), stream);  // padding stays NaN
  d_b.fill_bytes(0xFF, stream);
  BSRFLOW_CUDA(cudaMemcpy2DAsync(d_b.data(), ldb * sizeof(T), b_host.data.data(), N * sizeof(T), N * sizeof(T), K,
                                 cudaMemcpyHostToDevice, stream));
  DeviceBuffer<T> d_c(static_cast<std::size_t>((M - 1) * ldc + N + 1), stream);  // + 1: a guard column
  d_c.fill_bytes(0xFF, stream);

  reference_gemm<T, T>(BsrView<const T>{M, K, R, C, nnzb, d_row_ptr.data(), d_col_idx.data(), d_values.data()},
                       DenseView<const T>{d_b.data(), K, N, ldb, Layout::row_major},
                       DenseView<T>{d_c.data(), M, N, ldc, Layout::row_major}, 2.f, 0.f, stream);

  // The last block row's R rows, N columns + the untouched column N.
  std::vector<T> got(static_cast<std::size_t>(R) * (N + 1));
  BSRFLOW_CUDA(cudaMemcpy2DAsync(got.data(), (N + 1) * sizeof(T), d_c.data() + (M - R) * ldc, ldc * sizeof(T),
                                 (N + 1) * sizeof(T), R, cudaMemcpyDeviceToHost, stream));
  stream.synchronize();

  HostDense<T> want(R, N);
  host::gemm(last, b_host, want, 2.0, 0.0);
  std::vector<T> want_storage = poisoned<T>(got.size());
  for (int r = 0; r < R; ++r)
    for (int n = 0; n < N; ++n) want_storage[static_cast<std::size_t>(r) * (N + 1) + n] = want(r, n);
  INFO(first_difference(got, want_storage));
  CHECK(test::bitwise_equal(got, want_storage));
}
