#pragma once
// Tiling of aclnnMatmul over the cube cores, the way an Ascend matmul kernel splits work:
// the output of each batch is cut into baseM x baseN blocks (128 x 256 by default, shrunk when
// that would leave cube cores idle or the last wave of blocks half empty, so the work spreads
// evenly over the cores as CANN's multi-core split does); one block is one tile, computed by
// one AI core with a K
// loop whose A/B chunks are double-buffered in L1/L0 (hardware.md §1.2: L0A/L0B 64 KiB,
// L0C 128 KiB = one 128 x 256 fp32 accumulator block, L1 512 KiB).
//
// The L2 cache (192 MiB, hardware.md §1.2) is what lets the cube run near its peak: a full
// 128 x 256 block needs (128 + 256) x K x 2 B for 128 x 256 x K MACs, i.e. 96 B/cycle per core
// at 4096 MAC/cycle, three times the 32 B/cycle a core gets from HBM (ini ddr_rate) but within
// the 110 B/cycle it reads from L2. The blocks sharing an A row panel or a B column panel
// fetch it from HBM once and then hit in L2. The tiling, like CANN's L2-cache tiling, orders
// the blocks so the panels in use fit in L2 and works out which bytes each tile must bring
// from HBM; the AI-core model times exactly those (TileWork::readBytes of a matmul tile is its
// HBM traffic, the L2 hits behind it are not timed: see docs/aicore.md).
#include <cstdint>
#include <vector>

#include "runtime/aclnn/ops/matmul_geometry.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {

// L2 shared by all cores of a 910B (hardware.md §1.2); the panels in flight must fit in it.
constexpr uint64_t kL2Bytes = 192ull << 20;

struct MatmulBlock {
  int64_t batch, m0, m1, n0, n1;
};

struct MatmulTiling {
  int64_t baseM = 0, baseN = 0, baseK = 0;
  int cores = 1;                    // cube cores the blocks are spread over (aicore.cube_cores)
  std::vector<MatmulBlock> blocks;  // in the order the cores take them (round-robin)
};

// inElemSize: bytes per input element as loaded into L0 (2 for fp16/bf16, 4 for fp32/hf32);
// cores: the device's cube cores.
// Blocks run batch by batch; within a batch, columns are taken in groups whose B panels fit
// in half of the L2 next to the A panels in use, and each group is swept row by row.
MatmulTiling planMatmul(int64_t batch, int64_t M, int64_t N, int64_t K, int64_t inElemSize, int cores);

struct MatmulAddressing {
  uint64_t aBase, bBase, cBase;  // device address of element 0 of each view
  int64_t aEs, bEs, cEs;         // element sizes in bytes (as stored in HBM)
  uint64_t macFactor;            // fp16-equivalent cube cycles per MAC (2 for fp32)
};

// One TileWork per block: its K loop's MACs, the C block it writes, and the part of its A row
// panel and B column panel that is not already in L2 when it runs (readBytes, from readAddr).
// Blocks run in waves of t.cores; a panel first needed in a wave is fetched once, its bytes
// shared by the blocks of the wave that use it; panels leave L2 least recently used first.
rt::OpWork matmulWork(const MatmulTiling& t, const MatmulGeometry& g, const MatmulAddressing& a);

}  // namespace npusim::aclnn
