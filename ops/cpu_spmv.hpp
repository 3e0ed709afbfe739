// CPU reference BSR SpMV: y = alpha * A x + beta * y, the oracle of the GPU SpMV's tests and of
// spmv_bench's result check.
//
// Each output row sums its products in double, stored blocks in col_idx order and columns
// within a block in increasing order, then adds beta * y (not read when beta == 0, so NaN in y
// does not propagate) and rounds once to T. On integer-valued inputs (|values| small enough
// that every partial sum is exact in T) the result is exact, so GPU results compare bit for bit.
// Partial edge blocks (rows or cols not multiples of R or C): entries outside rows x cols are
// never used, so x has exactly `cols` entries and y exactly `rows`.
//
// Inputs are checked first: the structure (formats/validate.hpp, Errc::invalid_structure), then
// the vector lengths, Errc::invalid_argument: "x has 5 entries, expected A.cols = 6",
// "y has 3 entries, expected A.rows = 4" (also for beta == 0: y is the output).
#pragma once

#include <vector>

#include "bsrflow/formats/bsr.hpp"

namespace bsrflow::host {

// The fp64 value alpha * A x + beta * y (y not read when beta == 0), for relative-error checks.
// Instantiated for float and double.
template <class T>
std::vector<double> spmv_f64(const HostBsr<T>& A, const std::vector<T>& x, const std::vector<T>& y, double alpha,
                             double beta);

// spmv_f64 rounded once to T, into y.
template <class T>
void spmv(const HostBsr<T>& A, const std::vector<T>& x, std::vector<T>& y, double alpha, double beta);

// sum_i w_i y_i in double (w and y of equal length; Errc::invalid_argument otherwise:
// "w has 3 entries, y has 4").
template <class T>
double dot_f64(const std::vector<T>& w, const std::vector<T>& y);

}  // namespace bsrflow::host
