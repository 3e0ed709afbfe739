// Matrix Market I/O: exact round trips (real, integer, pattern, symmetric), hand-written files,
// and one test per malformed or unsupported input with its exact message.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "bsrflow/formats/host_convert.hpp"
#include "bsrflow/formats/matrix_market.hpp"
#include "support/expect_error.hpp"
#include "support/patterns.hpp"

using namespace bsrflow;

namespace {

template <class T>
HostCoo<T> read_text(const std::string& text) {
  std::istringstream in(text);
  return read_matrix_market<T>(in, "t.mtx");
}

template <class T>
std::string write_text(const HostCoo<T>& coo, MMField field = MMField::real, MMSymmetry sym = MMSymmetry::general) {
  std::ostringstream out;
  write_matrix_market(out, coo, field, sym);
  return out.str();
}

template <class T>
void check_same_coo(const HostCoo<T>& a, const HostCoo<T>& b) {
  CHECK(a.rows == b.rows);
  CHECK(a.cols == b.cols);
  CHECK(a.row_idx == b.row_idx);
  CHECK(a.col_idx == b.col_idx);
  CHECK(test::bitwise_equal(a.values, b.values));
}

// A unique temporary file path, removed at scope exit.
struct TempPath {
  std::filesystem::path path;
  explicit TempPath(const std::string& stem) {
    static int counter = 0;
    path = std::filesystem::temp_directory_path() /
           ("bsrflow_mm_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + "_" + stem);
  }
  ~TempPath() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
  std::string str() const { return path.string(); }
};

// Symmetric CSR with integer values: random lower triangle mirrored, some diagonal entries.
template <class T>
HostCsr<T> symmetric_csr(int n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  HostCoo<T> coo{n, n, {}, {}, {}};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) {
      if (rng() % 4 != 0) continue;
      const T v = test::int_value<T>(rng);
      coo.row_idx.push_back(i);
      coo.col_idx.push_back(j);
      coo.values.push_back(v);
      if (i != j) {
        coo.row_idx.push_back(j);
        coo.col_idx.push_back(i);
        coo.values.push_back(v);
      }
    }
  return host::coo_to_csr(coo);
}

}  // namespace

TEMPLATE_TEST_CASE("Matrix Market real round trip is exact", "[formats][mm]", __half, __nv_bfloat16, float, double) {
  std::mt19937 rng(3);
  HostCoo<TestType> coo = test::random_coo<TestType>(37, 53, 400, 0.2, 5u);  // duplicates included
  for (auto& v : coo.values) v = test::real_value<TestType>(rng);
  // Extremes of the type, and values that need every digit.
  const double specials[] = {1.0 / 3.0, -0.1, 65504.0, 6e-8, -0.0, 1e-30, 3.0e38, 1e300, 1e-310};
  for (std::size_t i = 0; i < std::size(specials) && i < coo.values.size(); ++i)
    coo.values[i] = from_double<TestType>(specials[i]);
  check_same_coo(read_text<TestType>(write_text(coo)), coo);

  TempPath file("real.mtx");
  write_matrix_market(file.str(), coo);
  check_same_coo(read_matrix_market<TestType>(file.str()), coo);
}

TEST_CASE("Matrix Market writes infinities and NaN and reads them back", "[formats][mm]") {
  HostCoo<double> coo{2, 2, {0, 0, 1}, {0, 1, 1},
                      {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                       std::numeric_limits<double>::quiet_NaN()}};
  const HostCoo<double> back = read_text<double>(write_text(coo));
  REQUIRE(back.values.size() == 3);
  CHECK(back.values[0] == std::numeric_limits<double>::infinity());
  CHECK(back.values[1] == -std::numeric_limits<double>::infinity());
  CHECK(std::isnan(back.values[2]));
}

TEMPLATE_TEST_CASE("Matrix Market integer and pattern round trips", "[formats][mm]", __half, float, double) {
  const HostCoo<TestType> coo = test::random_coo<TestType>(20, 30, 150, 0.1, 8u, 100);
  const std::string integer = write_text(coo, MMField::integer);
  CHECK(integer.rfind("%%MatrixMarket matrix coordinate integer general\n20 30 150\n", 0) == 0);
  check_same_coo(read_text<TestType>(integer), coo);

  const std::string pattern = write_text(coo, MMField::pattern);
  CHECK(pattern.rfind("%%MatrixMarket matrix coordinate pattern general\n20 30 150\n", 0) == 0);
  const HostCoo<TestType> back = read_text<TestType>(pattern);
  CHECK(back.row_idx == coo.row_idx);
  CHECK(back.col_idx == coo.col_idx);
  for (const auto& v : back.values) CHECK(to_double(v) == 1.0);
}

TEST_CASE("Matrix Market writes integers in full, -0 included", "[formats][mm]") {
  const HostCoo<double> coo{1, 3, {0, 0, 0}, {0, 1, 2}, {9007199254740993.0, -0.0, -12.0}};
  const std::string text = write_text(coo, MMField::integer);
  CHECK(text == "%%MatrixMarket matrix coordinate integer general\n1 3 3\n1 1 9007199254740992\n1 2 -0\n1 3 -12\n");
  check_same_coo(read_text<double>(text), coo);
}

TEMPLATE_TEST_CASE("Matrix Market symmetric round trip", "[formats][mm]", __nv_bfloat16, float, double) {
  const HostCsr<TestType> csr = symmetric_csr<TestType>(40, 12u);
  std::ostringstream out;
  write_matrix_market(out, csr, MMField::real, MMSymmetry::symmetric);
  // Only the lower triangle is written.
  std::int64_t lower = 0;
  for (int r = 0; r < csr.rows; ++r)
    for (int k = csr.row_ptr[r]; k < csr.row_ptr[r + 1]; ++k) lower += csr.col_idx[k] <= r;
  CHECK(out.str().rfind("%%MatrixMarket matrix coordinate real symmetric\n40 40 " + std::to_string(lower) + "\n", 0) ==
        0);
  const HostCoo<TestType> coo = read_text<TestType>(out.str());
  CHECK(coo.nnz() == csr.nnz());
  const HostCsr<TestType> back = host::coo_to_csr(coo);
  CHECK(back.row_ptr == csr.row_ptr);
  CHECK(back.col_idx == csr.col_idx);
  CHECK(test::bitwise_equal(back.values, csr.values));

  // The COO overload sums duplicates first: (1, 0) given as 2 + 3 matches (0, 1) = 5.
  const HostCoo<TestType> dup{2, 2, {1, 0, 1}, {0, 1, 0}, {}};
  HostCoo<TestType> with_values = dup;
  for (double v : {2.0, 5.0, 3.0}) with_values.values.push_back(from_double<TestType>(v));
  CHECK(write_text(with_values, MMField::real, MMSymmetry::symmetric) ==
        "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n2 1 5\n");
}

TEST_CASE("Matrix Market symmetric writing rejects non-symmetric matrices", "[formats][mm]") {
  const HostCsr<float> mirrored{3, 3, {0, 1, 1, 2}, {2, 0}, {1, 1}};  // (0, 2) and (2, 0), row 1 empty
  std::ostringstream sink;
  CHECK_NOTHROW(write_matrix_market(sink, mirrored, MMField::real, MMSymmetry::symmetric));
  const HostCsr<float> one_sided{3, 3, {0, 1, 1, 1}, {2}, {1}};
  BSRFLOW_CHECK_ERROR(write_matrix_market(sink, one_sided, MMField::real, MMSymmetry::symmetric),
                      Errc::invalid_argument, "write_matrix_market: not symmetric: (0, 2) is stored but (2, 0) is not");
  const HostCsr<float> unequal{2, 2, {0, 1, 2}, {1, 0}, {1.5f, 2.f}};
  BSRFLOW_CHECK_ERROR(write_matrix_market(sink, unequal, MMField::real, MMSymmetry::symmetric),
                      Errc::invalid_argument, "write_matrix_market: not symmetric: (0, 1) = 1.5 but (1, 0) = 2");
  CHECK_NOTHROW(write_matrix_market(sink, unequal, MMField::pattern, MMSymmetry::symmetric));  // pattern only
  const HostCsr<float> wide{2, 3, {0, 0, 0}, {}, {}};
  BSRFLOW_CHECK_ERROR(write_matrix_market(sink, wide, MMField::real, MMSymmetry::symmetric), Errc::invalid_argument,
                      "write_matrix_market: a symmetric matrix must be square, not 2 x 3");
}

TEST_CASE("Matrix Market writing checks its input before touching the file", "[formats][mm]") {
  TempPath file("keep.mtx");
  { std::ofstream(file.path) << "old contents\n"; }
  const HostCoo<double> fractional{2, 2, {0, 1}, {1, 1}, {3.0, 1.5}};
  BSRFLOW_CHECK_ERROR(write_matrix_market(file.str(), fractional, MMField::integer), Errc::invalid_argument,
                      "write_matrix_market: entry (1, 1) is 1.5, not an integer; write it with MMField::real");
  const HostCoo<double> broken{2, 2, {0, 2}, {1, 1}, {3.0, 1.0}};
  BSRFLOW_CHECK_ERROR(write_matrix_market(file.str(), broken), Errc::invalid_structure,
                      "entry 1: row 2 out of range [0, 2)");
  std::ifstream in(file.path);
  std::string line;
  std::getline(in, line);
  CHECK(line == "old contents");
}

TEST_CASE("Matrix Market reads what other writers produce", "[formats][mm]") {
  const std::string text =
      "%%matrixmarket MATRIX Coordinate DOUBLE General\r\n"
      "% a comment\r\n"
      "\r\n"
      "%another comment\r\n"
      "  3\t4   3  \r\n"
      "1 4 +2.5e1\r\n"
      "\r\n"
      "3\t1 -1\r\n"
      "1 4 .5\r\n";
  const HostCoo<double> coo = read_text<double>(text);
  CHECK(coo.rows == 3);
  CHECK(coo.cols == 4);
  CHECK(coo.row_idx == std::vector<int>{0, 2, 0});
  CHECK(coo.col_idx == std::vector<int>{3, 0, 3});
  CHECK(coo.values == std::vector<double>{25.0, -1.0, 0.5});  // duplicate kept for conversion to sum
}

TEST_CASE("Matrix Market symmetric files are mirrored entry by entry", "[formats][mm]") {
  const HostCoo<float> coo = read_text<float>(
      "%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n2 1 7\n3 3 -1\n3 2 4\n");
  CHECK(coo.row_idx == std::vector<int>{1, 0, 2, 2, 1});
  CHECK(coo.col_idx == std::vector<int>{0, 1, 2, 1, 2});
  CHECK(coo.values == std::vector<float>{7, 7, -1, 4, 4});
  const HostCoo<float> pattern = read_text<float>("%%MatrixMarket matrix coordinate pattern symmetric\n2 2 1\n2 1\n");
  CHECK(pattern.row_idx == std::vector<int>{1, 0});
  CHECK(pattern.values == std::vector<float>{1, 1});
}

TEST_CASE("Matrix Market empty matrices round-trip", "[formats][mm]") {
  for (const auto& [rows, cols] : {std::pair{0, 0}, std::pair{4, 5}, std::pair{0, 7}}) {
    const HostCoo<float> coo{rows, cols, {}, {}, {}};
    for (MMField field : {MMField::real, MMField::integer, MMField::pattern})
      check_same_coo(read_text<float>(write_text(coo, field)), coo);
  }
  const HostCsr<float> csr{3, 3, {0, 0, 0, 0}, {}, {}};
  std::ostringstream out;
  write_matrix_market(out, csr, MMField::real, MMSymmetry::symmetric);
  CHECK(out.str() == "%%MatrixMarket matrix coordinate real symmetric\n3 3 0\n");
}

TEST_CASE("Matrix Market CSR overload writes rows in order", "[formats][mm]") {
  const HostCsr<double> csr = test::random_csr<double>(25, 18, 0.3, 77u);
  TempPath file("csr.mtx");
  write_matrix_market(file.str(), csr);
  const HostCsr<double> back = host::coo_to_csr(read_matrix_market<double>(file.str()));
  CHECK(back.row_ptr == csr.row_ptr);
  CHECK(back.col_idx == csr.col_idx);
  CHECK(test::bitwise_equal(back.values, csr.values));
}

TEST_CASE("Matrix Market reports every malformed input with its line", "[formats][mm]") {
  const std::string banner = "%%MatrixMarket matrix coordinate real general\n";
  const std::string usage = "expected '%%MatrixMarket matrix coordinate <field> <symmetry>'";
  struct Bad {
    std::string text;
    Errc code;
    std::string message;
  };
  const Bad cases[] = {
      {"", Errc::parse, "t.mtx:1: empty file, " + usage},
      {"hello\n", Errc::parse, "t.mtx:1: missing the %%MatrixMarket banner, " + usage},
      {"%%MatrixMarket matrix coordinate real\n", Errc::parse, "t.mtx:1: " + usage},
      {"%%MatrixMarket vector coordinate real general\n", Errc::unsupported,
       "t.mtx:1: object 'vector' is not supported (only matrix)"},
      {"%%MatrixMarket matrix array real general\n", Errc::unsupported,
       "t.mtx:1: array format is not supported (only coordinate)"},
      {"%%MatrixMarket matrix sparse real general\n", Errc::parse, "t.mtx:1: unknown format 'sparse'"},
      {"%%MatrixMarket matrix coordinate complex general\n", Errc::unsupported, "t.mtx:1: complex field is not supported"},
      {"%%MatrixMarket matrix coordinate quaternion general\n", Errc::parse, "t.mtx:1: unknown field 'quaternion'"},
      {"%%MatrixMarket matrix coordinate real hermitian\n", Errc::unsupported,
       "t.mtx:1: hermitian symmetry is not supported"},
      {"%%MatrixMarket matrix coordinate real skew-symmetric\n", Errc::unsupported,
       "t.mtx:1: skew-symmetric symmetry is not supported"},
      {"%%MatrixMarket matrix coordinate real lopsided\n", Errc::parse, "t.mtx:1: unknown symmetry 'lopsided'"},
      {banner + "% only comments\n", Errc::parse, "t.mtx:3: file ends before the size line"},
      {banner + "% c\n3 3\n", Errc::parse, "t.mtx:3: expected 3 entries on the size line (rows columns entries), found 2"},
      {banner + "3 -3 1\n", Errc::parse, "t.mtx:2: size line: '-3' is not a non-negative integer"},
      {banner + "3 x 1\n", Errc::parse, "t.mtx:2: size line: 'x' is not a non-negative integer"},
      {banner + "3000000000 3 1\n", Errc::unsupported, "t.mtx:2: 3000000000 rows exceed the int32 index limit 2147483647"},
      {banner + "3 3 99999999999999999999\n", Errc::parse,
       "t.mtx:2: size line: '99999999999999999999' is not a non-negative integer"},
      {banner + "3 3 1\n1 2\n", Errc::parse, "t.mtx:3: expected 3 fields (row column value), found 2"},
      {"%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2 3\n", Errc::parse,
       "t.mtx:3: expected 2 fields (row column), found 3"},
      {banner + "3 3 1\n4 1 1.0\n", Errc::parse, "t.mtx:3: row index 4 out of range [1, 3]"},
      {banner + "3 3 1\n1 0 1.0\n", Errc::parse, "t.mtx:3: column index 0 out of range [1, 3]"},
      {banner + "3 3 1\n1.5 2 1.0\n", Errc::parse, "t.mtx:3: row index '1.5' is not an integer"},
      {banner + "3 3 1\n1 1 abc\n", Errc::parse, "t.mtx:3: value 'abc' is not a number"},
      {banner + "3 3 1\n1 1 1.0x\n", Errc::parse, "t.mtx:3: value '1.0x' is not a number"},
      {"%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 2.5\n", Errc::parse,
       "t.mtx:3: value '2.5' is not an integer"},
      {banner + "3 3 1\n1 1 1\n2 2 2\n", Errc::parse, "t.mtx:4: more entries than the 1 the size line declares"},
      {banner + "3 3 2\n1 1 1\n", Errc::parse, "t.mtx:3: file ends after 1 of the 2 entries the size line declares"},
      {"%%MatrixMarket matrix coordinate real symmetric\n3 4 1\n", Errc::parse,
       "t.mtx:2: a symmetric matrix must be square, not 3 x 4"},
      {"%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 3 1\n", Errc::parse,
       "t.mtx:3: entry (1, 3) lies above the diagonal of a symmetric matrix"},
  };
  for (const Bad& c : cases) {
    INFO(c.text);
    BSRFLOW_CHECK_ERROR(read_text<float>(c.text), c.code, c.message);
  }
}

TEST_CASE("Matrix Market reports files it cannot open", "[formats][mm]") {
  const std::string missing = "/nonexistent-bsrflow-dir/x.mtx";
  BSRFLOW_CHECK_ERROR(read_matrix_market<float>(missing), Errc::io,
                      "cannot open '/nonexistent-bsrflow-dir/x.mtx' for reading");
  const HostCoo<float> coo{1, 1, {0}, {0}, {1.f}};
  BSRFLOW_CHECK_ERROR(write_matrix_market(missing, coo), Errc::io,
                      "cannot open '/nonexistent-bsrflow-dir/x.mtx' for writing");
}
