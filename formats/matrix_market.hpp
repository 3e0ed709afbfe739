// Matrix Market (.mtx) files: the coordinate format, fields real / integer / pattern, symmetry
// general / symmetric. https://math.nist.gov/MatrixMarket/formats.html
//
// Reading gives a HostCoo in file order with 0-based indices:
//  - pattern entries read as value 1; "double" is accepted as a synonym of "real";
//  - symmetric files store the lower triangle (an entry above the diagonal is a parse error);
//    every off-diagonal entry (i, j) is followed in the result by its mirror (j, i);
//  - duplicate entries are kept; conversions sum them (see validate.hpp, COO policy);
//  - banner keywords are case-insensitive; '%' comment lines, blank lines and CRLF line ends
//    are accepted.
// Errors: Errc::io "cannot open 'x.mtx' for reading"; Errc::parse with the file name and the
// 1-based line, e.g. "x.mtx:3: expected 3 entries on the size line"; Errc::unsupported naming
// what is not handled ("x.mtx:1: array format is not supported (only coordinate)", complex,
// hermitian, skew-symmetric, more than 2^31 - 1 rows, columns or entries).
//
// Writing: real values with as many significant digits as the type needs to read back to the
// same value (max_digits10: 17 for f64 as "%.17g", 9 for f32, 5 for f16, 4 for bf16); integer
// values in full ("%.0f"), which must all be integral (Errc::invalid_argument otherwise); pattern
// writes no values. A COO is written entry by entry as it is (duplicates included) for general;
// symmetric writes the lower triangle of the summed matrix, row by row, and throws
// Errc::invalid_argument if the matrix is not square or not symmetric (values compared as
// numbers, so -0.0 matches 0.0 and NaN matches nothing; pattern compares the pattern only).
// The input is validated first (Errc::invalid_structure). Errc::io on open or write failure.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "bsrflow/core/dtype.hpp"  // the value types read and written
#include "bsrflow/formats/coo.hpp"
#include "bsrflow/formats/csr.hpp"

namespace bsrflow {

enum class MMField : std::uint8_t { real, integer, pattern };
enum class MMSymmetry : std::uint8_t { general, symmetric };

template <class T> HostCoo<T> read_matrix_market(const std::string& path);
// `name` stands for the file in messages ("name:line: ...").
template <class T> HostCoo<T> read_matrix_market(std::istream& in, const std::string& name = "<stream>");

template <class T>
void write_matrix_market(const std::string& path, const HostCoo<T>& coo, MMField field = MMField::real,
                         MMSymmetry symmetry = MMSymmetry::general);
template <class T>
void write_matrix_market(std::ostream& out, const HostCoo<T>& coo, MMField field = MMField::real,
                         MMSymmetry symmetry = MMSymmetry::general);
template <class T>
void write_matrix_market(const std::string& path, const HostCsr<T>& csr, MMField field = MMField::real,
                         MMSymmetry symmetry = MMSymmetry::general);
template <class T>
void write_matrix_market(std::ostream& out, const HostCsr<T>& csr, MMField field = MMField::real,
                         MMSymmetry symmetry = MMSymmetry::general);

// Explicitly instantiated for __half, __nv_bfloat16, float and double in matrix_market.cpp.

}  // namespace bsrflow
