// Matrix Market reader and writer (format and error texts in matrix_market.hpp).
#include "bsrflow/formats/matrix_market.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <istream>
#include <limits>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/host_convert.hpp"
#include "bsrflow/formats/validate.hpp"

namespace bsrflow {

namespace {

constexpr std::int64_t kIndexLimit = std::numeric_limits<int>::max();

// ---- Reading -----------------------------------------------------------------------------

// Lines with their 1-based numbers; errors name the file and the current line.
class LineReader {
 public:
  LineReader(std::istream& in, const std::string& name) : in_(in), name_(name) {}

  bool next() {
    if (!std::getline(in_, text_)) {
      BSRFLOW_REQUIRE(!in_.bad(), Errc::io, "error reading '" + name_ + "'");
      return false;
    }
    ++line_;
    if (!text_.empty() && text_.back() == '\r') text_.pop_back();  // CRLF files
    return true;
  }
  const std::string& text() const { return text_; }
  std::int64_t line() const { return line_; }

  [[noreturn]] void fail(Errc code, const std::string& message, std::int64_t line = -1) const {
    BSRFLOW_FAIL(code, name_ + ":" + std::to_string(line >= 0 ? line : line_) + ": " + message);
  }

 private:
  std::istream& in_;
  const std::string& name_;
  std::string text_;
  std::int64_t line_ = 0;
};

std::vector<std::string_view> split(std::string_view s) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (true) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i == s.size()) return tokens;
    const std::size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    tokens.push_back(s.substr(start, i - start));
  }
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool blank(const std::string& s) { return s.find_first_not_of(" \t") == std::string::npos; }

// [+-]digits, nothing else.
bool integer_syntax(std::string_view t) {
  if (!t.empty() && (t[0] == '+' || t[0] == '-')) t.remove_prefix(1);
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// An integer token that fits int64 (from_chars accepts no '+').
bool parse_int(std::string_view t, std::int64_t& out) {
  if (!integer_syntax(t)) return false;
  if (t[0] == '+') t.remove_prefix(1);
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
  return ec == std::errc{} && end == t.data() + t.size();
}

// A real token as strtod reads it ("1.5e-3", "inf", "nan", ...), consuming all of it.
bool parse_real(std::string_view t, double& out) {
  const std::string s(t);
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size();
}

struct Header {
  MMField field = MMField::real;
  MMSymmetry symmetry = MMSymmetry::general;
};

Header parse_banner(LineReader& reader) {
  const std::string usage = "expected '%%MatrixMarket matrix coordinate <field> <symmetry>'";
  if (!reader.next()) reader.fail(Errc::parse, "empty file, " + usage, 1);
  const auto tokens = split(reader.text());
  if (tokens.empty() || lower(tokens[0]) != "%%matrixmarket")
    reader.fail(Errc::parse, "missing the %%MatrixMarket banner, " + usage);
  if (tokens.size() != 5) reader.fail(Errc::parse, usage);
  const std::string object = lower(tokens[1]), format = lower(tokens[2]), field = lower(tokens[3]),
                    symmetry = lower(tokens[4]);
  if (object != "matrix") reader.fail(Errc::unsupported, "object '" + object + "' is not supported (only matrix)");
  if (format == "array") reader.fail(Errc::unsupported, "array format is not supported (only coordinate)");
  if (format != "coordinate") reader.fail(Errc::parse, "unknown format '" + format + "'");

  Header h;
  if (field == "real" || field == "double") h.field = MMField::real;
  else if (field == "integer") h.field = MMField::integer;
  else if (field == "pattern") h.field = MMField::pattern;
  else if (field == "complex") reader.fail(Errc::unsupported, "complex field is not supported");
  else reader.fail(Errc::parse, "unknown field '" + field + "'");

  if (symmetry == "general") h.symmetry = MMSymmetry::general;
  else if (symmetry == "symmetric") h.symmetry = MMSymmetry::symmetric;
  else if (symmetry == "hermitian" || symmetry == "skew-symmetric")
    reader.fail(Errc::unsupported, symmetry + " symmetry is not supported");
  else reader.fail(Errc::parse, "unknown symmetry '" + symmetry + "'");
  return h;
}

// Skips comments and blank lines; false at the end of the input.
bool next_content_line(LineReader& reader) {
  while (reader.next())
    if (!blank(reader.text()) && reader.text()[0] != '%') return true;
  return false;
}

}  // namespace

template <class T>
HostCoo<T> read_matrix_market(std::istream& in, const std::string& name) {
  LineReader reader(in, name);
  const Header h = parse_banner(reader);
  const bool symmetric = h.symmetry == MMSymmetry::symmetric;

  // Size line: rows columns entries.
  if (!next_content_line(reader)) reader.fail(Errc::parse, "file ends before the size line", reader.line() + 1);
  const auto size = split(reader.text());
  if (size.size() != 3)
    reader.fail(Errc::parse, "expected 3 entries on the size line (rows columns entries), found " +
                                 std::to_string(size.size()));
  std::int64_t dims[3] = {0, 0, 0};
  const char* what[3] = {"rows", "columns", "entries"};
  for (int i = 0; i < 3; ++i) {
    if (!parse_int(size[i], dims[i]) || dims[i] < 0)
      reader.fail(Errc::parse, "size line: '" + std::string(size[i]) + "' is not a non-negative integer");
    if (dims[i] > kIndexLimit)
      reader.fail(Errc::unsupported, std::to_string(dims[i]) + " " + what[i] + " exceed the int32 index limit " +
                                         std::to_string(kIndexLimit));
  }
  const std::int64_t rows = dims[0], cols = dims[1], nnz = dims[2];
  if (symmetric && rows != cols)
    reader.fail(Errc::parse, "a symmetric matrix must be square, not " + std::to_string(rows) + " x " +
                                 std::to_string(cols));

  HostCoo<T> coo;
  coo.rows = static_cast<int>(rows);
  coo.cols = static_cast<int>(cols);
  // Reserve what the size line promises, within reason (a hostile size line must not make us
  // allocate gigabytes before the first entry is read).
  const auto reserve = static_cast<std::size_t>(std::min<std::int64_t>(nnz * (symmetric ? 2 : 1), 1 << 24));
  coo.row_idx.reserve(reserve);
  coo.col_idx.reserve(reserve);
  coo.values.reserve(reserve);

  const std::size_t fields = h.field == MMField::pattern ? 2 : 3;
  const char* layout = h.field == MMField::pattern ? "(row column)" : "(row column value)";
  std::int64_t count = 0;
  while (next_content_line(reader)) {
    if (count == nnz)
      reader.fail(Errc::parse, "more entries than the " + std::to_string(nnz) + " the size line declares");
    const auto tokens = split(reader.text());
    if (tokens.size() != fields)
      reader.fail(Errc::parse, "expected " + std::to_string(fields) + " fields " + layout + ", found " +
                                   std::to_string(tokens.size()));
    std::int64_t index[2] = {0, 0};
    const char* index_name[2] = {"row", "column"};
    const std::int64_t extent[2] = {rows, cols};
    for (int i = 0; i < 2; ++i) {
      if (!parse_int(tokens[i], index[i]))
        reader.fail(Errc::parse, std::string(index_name[i]) + " index '" + std::string(tokens[i]) + "' is not an integer");
      if (index[i] < 1 || index[i] > extent[i])
        reader.fail(Errc::parse, std::string(index_name[i]) + " index " + std::to_string(index[i]) +
                                     " out of range [1, " + std::to_string(extent[i]) + "]");
    }
    double value = 1.0;
    if (h.field == MMField::integer) {
      if (!integer_syntax(tokens[2]) || !parse_real(tokens[2], value))
        reader.fail(Errc::parse, "value '" + std::string(tokens[2]) + "' is not an integer");
    } else if (h.field == MMField::real) {
      if (!parse_real(tokens[2], value))
        reader.fail(Errc::parse, "value '" + std::string(tokens[2]) + "' is not a number");
    }
    const int r = static_cast<int>(index[0] - 1), c = static_cast<int>(index[1] - 1);
    if (symmetric && c > r)
      reader.fail(Errc::parse, "entry (" + std::to_string(index[0]) + ", " + std::to_string(index[1]) +
                                   ") lies above the diagonal of a symmetric matrix");
    const T v = from_double<T>(value);
    coo.row_idx.push_back(r);
    coo.col_idx.push_back(c);
    coo.values.push_back(v);
    if (symmetric && r != c) {
      if (static_cast<std::int64_t>(coo.row_idx.size()) >= kIndexLimit)
        reader.fail(Errc::unsupported, "the mirrored symmetric matrix has more entries than the int32 index limit " +
                                           std::to_string(kIndexLimit));
      coo.row_idx.push_back(c);
      coo.col_idx.push_back(r);
      coo.values.push_back(v);
    }
    ++count;
  }
  if (count < nnz)
    reader.fail(Errc::parse, "file ends after " + std::to_string(count) + " of the " + std::to_string(nnz) +
                                 " entries the size line declares");
  return coo;
}

template <class T>
HostCoo<T> read_matrix_market(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  BSRFLOW_REQUIRE(in.is_open(), Errc::io, "cannot open '" + path + "' for reading");
  return read_matrix_market<T>(in, path);
}

// ---- Writing -----------------------------------------------------------------------------

namespace {

// Significant digits that make every value of T read back to itself (max_digits10).
template <class T> constexpr int kDigits = 17;
template <> constexpr int kDigits<float> = 9;
template <> constexpr int kDigits<__half> = 5;
template <> constexpr int kDigits<__nv_bfloat16> = 4;

const char* field_name(MMField f) {
  switch (f) {
    case MMField::real: return "real";
    case MMField::integer: return "integer";
    case MMField::pattern: return "pattern";
  }
  return "?";
}

// Entries one line each, 1-based.
template <class T>
class EntryWriter {
 public:
  EntryWriter(std::ostream& out, MMField field) : out_(out), field_(field) {}

  void header(int rows, int cols, std::int64_t nnz, MMSymmetry symmetry) {
    out_ << "%%MatrixMarket matrix coordinate " << field_name(field_) << ' '
         << (symmetry == MMSymmetry::symmetric ? "symmetric" : "general") << '\n'
         << rows << ' ' << cols << ' ' << nnz << '\n';
  }

  void entry(int r, int c, T v) {
    char line[512];  // "%.0f" of the largest double is 309 digits
    const double x = to_double(v);
    int n = 0;
    switch (field_) {
      case MMField::pattern: n = std::snprintf(line, sizeof line, "%d %d\n", r + 1, c + 1); break;
      case MMField::real: n = std::snprintf(line, sizeof line, "%d %d %.*g\n", r + 1, c + 1, kDigits<T>, x); break;
      case MMField::integer: n = std::snprintf(line, sizeof line, "%d %d %.0f\n", r + 1, c + 1, x); break;
    }
    out_.write(line, n);
  }

 private:
  std::ostream& out_;
  MMField field_;
};

// A value as a message shows it: as many digits as tell values of T apart.
template <class T>
std::string number(T v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", kDigits<T>, to_double(v));
  return text;
}

// The integer field holds integers only; checked before anything is written.
template <class T>
void check_integral(MMField field, int r, int c, T v) {
  const double x = to_double(v);
  BSRFLOW_REQUIRE(field != MMField::integer || (std::isfinite(x) && x == std::trunc(x)), Errc::invalid_argument,
                  "write_matrix_market: entry (" + std::to_string(r) + ", " + std::to_string(c) + ") is " + number(v) +
                      ", not an integer; write it with MMField::real");
}

void check_written(std::ostream& out, const std::string& name) {
  out.flush();
  BSRFLOW_REQUIRE(static_cast<bool>(out), Errc::io, "error writing '" + name + "'");
}

// Everything that can be wrong with a CSR to write is checked before the first byte goes out,
// so a failed write leaves no half-written file behind (and no truncated old one).
template <class T>
void check_csr(const HostCsr<T>& csr, MMField field, MMSymmetry symmetry) {
  validate(csr);
  for (int r = 0; r < csr.rows; ++r)
    for (int k = csr.row_ptr[r]; k < csr.row_ptr[r + 1]; ++k) check_integral(field, r, csr.col_idx[k], csr.values[k]);
  if (symmetry == MMSymmetry::general) return;
  BSRFLOW_REQUIRE(csr.rows == csr.cols, Errc::invalid_argument,
                  "write_matrix_market: a symmetric matrix must be square, not " + std::to_string(csr.rows) + " x " +
                      std::to_string(csr.cols));
  for (int r = 0; r < csr.rows; ++r) {
    for (int k = csr.row_ptr[r]; k < csr.row_ptr[r + 1]; ++k) {
      const int c = csr.col_idx[k];
      if (c == r) continue;
      // The mirror (c, r), by binary search in row c.
      const auto first = csr.col_idx.begin() + csr.row_ptr[c], last = csr.col_idx.begin() + csr.row_ptr[c + 1];
      const auto it = std::lower_bound(first, last, r);
      const std::string here = "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
      const std::string mirror = "(" + std::to_string(c) + ", " + std::to_string(r) + ")";
      BSRFLOW_REQUIRE(it != last && *it == r, Errc::invalid_argument,
                      "write_matrix_market: not symmetric: " + here + " is stored but " + mirror + " is not");
      const T a = csr.values[k];
      const T b = csr.values[static_cast<std::size_t>(it - csr.col_idx.begin())];
      BSRFLOW_REQUIRE(field == MMField::pattern || to_double(a) == to_double(b), Errc::invalid_argument,
                      "write_matrix_market: not symmetric: " + here + " = " + number(a) + " but " + mirror + " = " +
                          number(b));
    }
  }
}

// Row by row; symmetric writes the lower triangle (the checks above have passed).
template <class T>
void emit_csr(std::ostream& out, const HostCsr<T>& csr, MMField field, MMSymmetry symmetry) {
  const bool lower_only = symmetry == MMSymmetry::symmetric;
  std::int64_t count = 0;
  for (int r = 0; r < csr.rows; ++r)
    for (int k = csr.row_ptr[r]; k < csr.row_ptr[r + 1]; ++k) count += !lower_only || csr.col_idx[k] <= r;
  EntryWriter<T> writer(out, field);
  writer.header(csr.rows, csr.cols, count, symmetry);
  for (int r = 0; r < csr.rows; ++r)
    for (int k = csr.row_ptr[r]; k < csr.row_ptr[r + 1]; ++k)
      if (!lower_only || csr.col_idx[k] <= r) writer.entry(r, csr.col_idx[k], csr.values[k]);
}

// A general COO goes out entry by entry as it is, duplicates included.
template <class T>
void check_coo(const HostCoo<T>& coo, MMField field) {
  validate(coo);
  for (std::size_t e = 0; e < coo.row_idx.size(); ++e) check_integral(field, coo.row_idx[e], coo.col_idx[e], coo.values[e]);
}

template <class T>
void emit_coo(std::ostream& out, const HostCoo<T>& coo, MMField field) {
  EntryWriter<T> writer(out, field);
  writer.header(coo.rows, coo.cols, coo.nnz(), MMSymmetry::general);
  for (std::size_t e = 0; e < coo.row_idx.size(); ++e) writer.entry(coo.row_idx[e], coo.col_idx[e], coo.values[e]);
}

std::ofstream open_for_writing(const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  BSRFLOW_REQUIRE(out.is_open(), Errc::io, "cannot open '" + path + "' for writing");
  return out;
}

}  // namespace

template <class T>
void write_matrix_market(std::ostream& out, const HostCsr<T>& csr, MMField field, MMSymmetry symmetry) {
  check_csr(csr, field, symmetry);
  emit_csr(out, csr, field, symmetry);
  check_written(out, "<stream>");
}

template <class T>
void write_matrix_market(const std::string& path, const HostCsr<T>& csr, MMField field, MMSymmetry symmetry) {
  check_csr(csr, field, symmetry);
  std::ofstream out = open_for_writing(path);
  emit_csr(out, csr, field, symmetry);
  check_written(out, path);
}

// Symmetric COO: the lower triangle of the summed matrix (coo_to_csr validates and sums).
template <class T>
void write_matrix_market(std::ostream& out, const HostCoo<T>& coo, MMField field, MMSymmetry symmetry) {
  if (symmetry == MMSymmetry::symmetric) return write_matrix_market(out, host::coo_to_csr(coo), field, symmetry);
  check_coo(coo, field);
  emit_coo(out, coo, field);
  check_written(out, "<stream>");
}

template <class T>
void write_matrix_market(const std::string& path, const HostCoo<T>& coo, MMField field, MMSymmetry symmetry) {
  if (symmetry == MMSymmetry::symmetric) return write_matrix_market(path, host::coo_to_csr(coo), field, symmetry);
  check_coo(coo, field);
  std::ofstream out = open_for_writing(path);
  emit_coo(out, coo, field);
  check_written(out, path);
}

#define BSRFLOW_INSTANTIATE_MATRIX_MARKET(T)                                                       \
  template HostCoo<T> read_matrix_market<T>(const std::string&);                                   \
  template HostCoo<T> read_matrix_market<T>(std::istream&, const std::string&);                    \
  template void write_matrix_market<T>(const std::string&, const HostCoo<T>&, MMField, MMSymmetry); \
  template void write_matrix_market<T>(std::ostream&, const HostCoo<T>&, MMField, MMSymmetry);      \
  template void write_matrix_market<T>(const std::string&, const HostCsr<T>&, MMField, MMSymmetry); \
  template void write_matrix_market<T>(std::ostream&, const HostCsr<T>&, MMField, MMSymmetry);

BSRFLOW_INSTANTIATE_MATRIX_MARKET(__half)
BSRFLOW_INSTANTIATE_MATRIX_MARKET(__nv_bfloat16)
BSRFLOW_INSTANTIATE_MATRIX_MARKET(float)
BSRFLOW_INSTANTIATE_MATRIX_MARKET(double)

#undef BSRFLOW_INSTANTIATE_MATRIX_MARKET

}  // namespace bsrflow
