#pragma once
// Tiling of vector-unit operators (elementwise, reductions) for the AI-core model: the work
// is cut into UB-sized tiles, one tile being what one vector core loads, computes and stores
// in one pass of its double-buffered pipeline. Hardware figures: hardware.md §1.2 (48 AIV,
// UB 192 KiB per AIV, 256 B per vector instruction).
#include <cstdint>
#include <vector>

#include "runtime/aclnn/base/tensor.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {

constexpr uint64_t kUbBytes = 192 * 1024;
// Per-tensor UB buffer: two inputs and one output, each double-buffered, fit in 192 KiB with
// room for casts: 6 x 32 KiB.
constexpr uint64_t kUbTileBytes = 32 * 1024;

struct VectorPass {
  const std::vector<TensorDesc>* inputs;  // read operands (broadcast ones may be smaller)
  const TensorDesc* output;               // written operand
  int64_t elements;                       // elements processed (iteration space)
  int castPasses = 0;                     // extra vector passes for type conversions
  uint64_t extraWriteBytes = 0;           // further outputs written (e.g. a norm's rstd)
  uint64_t extraReadBytes = 0;            // further inputs read whole but not per element (an index)
};

// Cuts `pass` into tiles of at most kUbTileBytes per operand. Byte totals are exact: the
// reads sum to the inputs' bytes and the writes to the output's bytes.
rt::OpWork vectorTiles(const VectorPass& pass);

// The i-th of n nearly equal integer shares of `total` (shares sum exactly to total).
uint64_t shareOf(uint64_t total, uint64_t i, uint64_t n);

}  // namespace npusim::aclnn
