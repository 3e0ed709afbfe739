#include "bsrflow/formats/padding.hpp"

#include <string>

#include "bsrflow/core/error.hpp"

namespace bsrflow {

void check_block_shape(int rows, int cols, int R, int C, Padding padding) {
  BSRFLOW_REQUIRE(R > 0 && C > 0, Errc::invalid_argument,
                  "block shape " + std::to_string(R) + "x" + std::to_string(C) + " must be positive");
  BSRFLOW_REQUIRE(rows >= 0 && cols >= 0, Errc::invalid_argument,
                  "matrix shape " + std::to_string(rows) + "x" + std::to_string(cols) + " is negative");
  if (padding == Padding::zero_fill) return;
  BSRFLOW_REQUIRE(rows % R == 0, Errc::invalid_argument,
                  "rows (" + std::to_string(rows) + ") is not a multiple of the block height R (" +
                      std::to_string(R) + "); pass Padding::zero_fill to pad");
  BSRFLOW_REQUIRE(cols % C == 0, Errc::invalid_argument,
                  "cols (" + std::to_string(cols) + ") is not a multiple of the block width C (" +
                      std::to_string(C) + "); pass Padding::zero_fill to pad");
}

}  // namespace bsrflow
