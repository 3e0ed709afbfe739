#include "bsrflow/ops/cpu_spmv.hpp"

#include <cstdint>
#include <string>

#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/validate.hpp"

namespace bsrflow::host {

template <class T>
std::vector<double> spmv_f64(const HostBsr<T>& A, const std::vector<T>& x, const std::vector<T>& y, double alpha,
                             double beta) {
  validate(A);
  BSRFLOW_REQUIRE(x.size() == static_cast<std::size_t>(A.cols), Errc::invalid_argument,
                  "x has " + std::to_string(x.size()) + " entries, expected A.cols = " + std::to_string(A.cols));
  BSRFLOW_REQUIRE(y.size() == static_cast<std::size_t>(A.rows), Errc::invalid_argument,
                  "y has " + std::to_string(y.size()) + " entries, expected A.rows = " + std::to_string(A.rows));
  std::vector<double> out(static_cast<std::size_t>(A.rows));
  for (int br = 0; br < A.block_rows(); ++br) {
    for (int r = 0; r < A.R; ++r) {
      const std::int64_t row = static_cast<std::int64_t>(br) * A.R + r;
      if (row >= A.rows) break;
      double sum = 0;
      for (int k = A.row_ptr[br]; k < A.row_ptr[br + 1]; ++k)
        for (int c = 0; c < A.C; ++c) {
          const std::int64_t col = static_cast<std::int64_t>(A.col_idx[k]) * A.C + c;
          if (col < A.cols) sum += static_cast<double>(A.at(k, r, c)) * static_cast<double>(x[col]);
        }
      // As the GPU forms it: alpha * sum alone when beta == 0 (so -0.0 for alpha < 0 and an
      // exactly zero sum, bit for bit), else one more addition.
      out[row] = beta != 0 ? alpha * sum + beta * static_cast<double>(y[row]) : alpha * sum;
    }
  }
  return out;
}

template <class T>
void spmv(const HostBsr<T>& A, const std::vector<T>& x, std::vector<T>& y, double alpha, double beta) {
  const std::vector<double> out = spmv_f64(A, x, y, alpha, beta);
  for (std::size_t i = 0; i < out.size(); ++i) y[i] = static_cast<T>(out[i]);
}

template <class T>
double dot_f64(const std::vector<T>& w, const std::vector<T>& y) {
  BSRFLOW_REQUIRE(w.size() == y.size(), Errc::invalid_argument,
                  "w has " + std::to_string(w.size()) + " entries, y has " + std::to_string(y.size()));
  double sum = 0;
  for (std::size_t i = 0; i < w.size(); ++i) sum += static_cast<double>(w[i]) * static_cast<double>(y[i]);
  return sum;
}

template std::vector<double> spmv_f64<float>(const HostBsr<float>&, const std::vector<float>&, const std::vector<float>&,
                                             double, double);
template std::vector<double> spmv_f64<double>(const HostBsr<double>&, const std::vector<double>&,
                                              const std::vector<double>&, double, double);
template void spmv<float>(const HostBsr<float>&, const std::vector<float>&, std::vector<float>&, double, double);
template void spmv<double>(const HostBsr<double>&, const std::vector<double>&, std::vector<double>&, double, double);
template double dot_f64<float>(const std::vector<float>&, const std::vector<float>&);
template double dot_f64<double>(const std::vector<double>&, const std::vector<double>&);

}  // namespace bsrflow::host
