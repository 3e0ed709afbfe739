// What a conversion does when the matrix shape is not a multiple of the block shape.
#pragma once

#include <cstdint>

namespace bsrflow {

enum class Padding : std::uint8_t {
  reject,     // throw Error(invalid_argument) naming the dimension that does not divide
  zero_fill,  // keep the logical shape; the last block row/column is partial, padded with zeros
};

// Throws Error(invalid_argument) if `padding` is reject and rows % R or cols % C is not zero,
// or if R, C are not positive. Message example:
//   "rows (100) is not a multiple of the block height R (16); pass Padding::zero_fill to pad"
void check_block_shape(int rows, int cols, int R, int C, Padding padding);

}  // namespace bsrflow
