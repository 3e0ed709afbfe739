#include <catch2/catch.hpp>

#include "bsrflow/ops/sm90_tensor_map.hpp"
#include "support/expect_error.hpp"

using namespace bsrflow;

// The 128-byte-row maps (the skinny kernel's packed A blocks and B slices) check their shape
// before they reach the driver, so these need no GPU.
TEST_CASE("128-byte-row tensor maps reject what they cannot describe", "[ops][sm90]") {
  const int dummy = 0;
  BSRFLOW_CHECK_ERROR(sm90::bsr_values_rows128_map(DType::f32, &dummy, 4, 32, 32, &dummy), Errc::invalid_argument,
                      "bsr_values_rows128_map: 16-bit blocks of whole 128-byte rows only");
  // 8 x 4 two-byte elements: 64 bytes a block, not a whole 128-byte row.
  BSRFLOW_CHECK_ERROR(sm90::bsr_values_rows128_map(DType::f16, &dummy, 4, 8, 4, &dummy), Errc::invalid_argument,
                      "bsr_values_rows128_map: 16-bit blocks of whole 128-byte rows only");
  BSRFLOW_CHECK_ERROR(sm90::rows128_map(DType::f32, &dummy, 16, 8, &dummy), Errc::invalid_argument,
                      "rows128_map: 16-bit elements only");
}
