// The padding policy (padding.hpp): which shapes each policy accepts, the exact messages, and
// that zero-filled edge blocks really hold zeros.
#include <catch2/catch.hpp>

#include <cmath>

#include "bsrflow/formats/host_convert.hpp"
#include "bsrflow/formats/padding.hpp"
#include "support/expect_error.hpp"
#include "support/patterns.hpp"

using namespace bsrflow;

TEST_CASE("check_block_shape accepts multiples under reject and anything under zero_fill", "[formats][padding]") {
  CHECK_NOTHROW(check_block_shape(64, 128, 16, 64, Padding::reject));
  CHECK_NOTHROW(check_block_shape(0, 0, 16, 64, Padding::reject));
  CHECK_NOTHROW(check_block_shape(15, 20, 3, 5, Padding::reject));
  CHECK_NOTHROW(check_block_shape(100, 7, 16, 64, Padding::zero_fill));
  CHECK_NOTHROW(check_block_shape(1, 1, 128, 128, Padding::zero_fill));
}

TEST_CASE("check_block_shape names the dimension that does not divide", "[formats][padding]") {
  BSRFLOW_CHECK_ERROR(check_block_shape(100, 128, 16, 64, Padding::reject), Errc::invalid_argument,
                      "rows (100) is not a multiple of the block height R (16); pass Padding::zero_fill to pad");
  BSRFLOW_CHECK_ERROR(check_block_shape(96, 100, 16, 64, Padding::reject), Errc::invalid_argument,
                      "cols (100) is not a multiple of the block width C (64); pass Padding::zero_fill to pad");
  // Rows are reported first when neither divides.
  BSRFLOW_CHECK_ERROR(check_block_shape(5, 7, 2, 3, Padding::reject), Errc::invalid_argument,
                      "rows (5) is not a multiple of the block height R (2); pass Padding::zero_fill to pad");
}

TEST_CASE("check_block_shape rejects non-positive blocks and negative shapes under both policies",
          "[formats][padding]") {
  for (Padding padding : {Padding::reject, Padding::zero_fill}) {
    BSRFLOW_CHECK_ERROR(check_block_shape(16, 16, 0, 4, padding), Errc::invalid_argument,
                        "block shape 0x4 must be positive");
    BSRFLOW_CHECK_ERROR(check_block_shape(16, 16, 4, -2, padding), Errc::invalid_argument,
                        "block shape 4x-2 must be positive");
    BSRFLOW_CHECK_ERROR(check_block_shape(-1, 4, 2, 2, padding), Errc::invalid_argument,
                        "matrix shape -1x4 is negative");
  }
}

TEMPLATE_TEST_CASE("zero_fill edge blocks hold zeros, never what lies beyond the shape", "[formats][padding]", __half,
                   __nv_bfloat16, float, double) {
  // Storage beyond the logical shape (leading dimension padding) is NaN-poisoned by random_dense;
  // a conversion that read it would leave NaN in the padded entries.
  const int rows = 13, cols = 10, R = 4, C = 6;
  for (Layout layout : {Layout::row_major, Layout::col_major}) {
    const HostDense<TestType> dense = test::random_dense<TestType>(rows, cols, layout, 4u, 0.0, 23);
    const HostBsr<TestType> bsr = host::dense_to_bsr(dense, R, C, Padding::zero_fill);
    REQUIRE(bsr.block_rows() == 4);
    REQUIRE(bsr.block_cols() == 2);
    REQUIRE(bsr.nnzb() == 8);  // no zeros in the data: every block is stored
    for (int br = 0; br < bsr.block_rows(); ++br)
      for (int k = bsr.row_ptr[br]; k < bsr.row_ptr[br + 1]; ++k)
        for (int i = 0; i < R; ++i)
          for (int j = 0; j < C; ++j) {
            const int r = br * R + i, c = bsr.col_idx[k] * C + j;
            const double got = to_double(bsr.at(k, i, j));
            if (r < rows && c < cols) CHECK(got == to_double(dense(r, c)));
            else CHECK((got == 0.0 && !std::signbit(got)));
          }
    BSRFLOW_CHECK_ERROR(host::dense_to_bsr(dense, R, C, Padding::reject), Errc::invalid_argument,
                        "rows (13) is not a multiple of the block height R (4); pass Padding::zero_fill to pad");
  }
}
