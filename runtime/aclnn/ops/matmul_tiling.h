#pragma once
// Tiling of aclnnMatmul over the cube cores, the way an Ascend matmul kernel splits work:
// the output of each batch is cut into baseM x baseN blocks (128 x 256 by default, shrunk when
// that would leave cube cores idle); one block is one tile, computed by one AI core with a K
// loop whose A/B chunks are double-buffered in L1/L0 (hardware.md §1.2: L0A/L0B 64 KiB,
// L0C 128 KiB = one 128 x 256 fp32 accumulator block, L1 512 KiB).
#include <cstdint>
#include <vector>

#include "runtime/aclnn/ops/matmul_geometry.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {

constexpr int kCubeCores = 24;

struct MatmulBlock {
  int64_t batch, m0, m1, n0, n1;
};

struct MatmulTiling {
  int64_t baseM = 0, baseN = 0, baseK = 0;
  std::vector<MatmulBlock> blocks;
};

// inElemSize: bytes per input element as loaded into L0 (2 for fp16/bf16, 4 for fp32/hf32).
MatmulTiling planMatmul(int64_t batch, int64_t M, int64_t N, int64_t K, int64_t inElemSize);

struct MatmulAddressing {
  uint64_t aBase, bBase, cBase;  // device address of element 0 of each view
  int64_t aEs, bEs, cEs;         // element sizes in bytes (as stored in HBM)
  uint64_t macFactor;            // fp16-equivalent cube cycles per MAC (2 for fp32)
};

// One TileWork per block: its K loop's MACs, the A rows and B columns it reads, the C block
// it writes.
rt::OpWork matmulWork(const MatmulTiling& t, const MatmulGeometry& g, const MatmulAddressing& a);

}  // namespace npusim::aclnn
