#pragma once
// What an operator asks of the AI cores: its tiles, each a unit of work for one core (what the
// MTE engines move between HBM and the core buffers, what the cube/vector units compute). The
// operator layer (runtime/aclnn) builds it; the AI-core model turns it into time.
#include <cstdint>
#include <vector>

namespace npusim::aicore {

struct TileWork {
  uint64_t cubeMacs = 0;     // multiply-accumulates on the cube unit (fp16-equivalent)
  uint64_t vectorBytes = 0;  // bytes processed by the vector unit
  // Bytes moved between a cube core's own buffers (a custom kernel's LoadData L1 -> L0A/L0B and
  // L0C -> UB copies) at aicore.mte1_bytes_per_cycle, overlapping the MACs.
  uint64_t localBytes = 0;
  uint64_t readAddr = 0;   // device address of the first byte read (HBM channel mapping)
  uint64_t readBytes = 0;  // GM -> core (MTE2)
  uint64_t writeAddr = 0;
  uint64_t writeBytes = 0;  // core -> GM (MTE3)
  // Scalar-unit cycles spent issuing this tile (a custom kernel's loop control and address
  // arithmetic): the unit works in program order, and the tile's copy in starts after them.
  double scalarCycles = 0;
  // Index in OpWork::tiles of another core's tile that must be stored before this tile's copy in
  // is issued (a custom kernel's block waiting for a flag another block sets); -1: none.
  int64_t after = -1;
  // Cycles between that tile's store and this tile's issue (a cross-core flag's way to the waiter).
  double afterCycles = 0;
};

struct OpWork {
  std::vector<TileWork> tiles;
  bool cube = false;              // runs on cube cores (else vector cores)
  int cubeMacsPerCycleScale = 1;  // 2 for int8 (16x32x16), 1 for fp16/bf16, fp32 uses hf32 path
  // Unified-buffer slots per core for tiles coming in and going out: 2 is double buffering (the
  // next tile loads while this one computes); 1 serialises copy and compute. 0: the model's default.
  int inputSlots = 0;
  int outputSlots = 0;
  // A custom kernel's blocks (runtime/kernel_exec.cpp): each core takes a contiguous run of tiles
  // (its blocks') on cube cores too, and a cube tile's vector work (a mixed kernel's) is timed
  // after its cube work, where an aclnn cube operator's epilogue hides under its MACs.
  bool kernelBlocks = false;
  // A mixed kernel's separate cube and vector programs: the first `mixedCubeTiles` tiles run on
  // the cube cores, the rest on the vector cores, all at once (0: every tile on one kind, `cube`).
  size_t mixedCubeTiles = 0;
  // Non-zero: the functional kernel faulted (an ACL error code the device reports; set by the
  // operator's `before`): the task fails with it.
  int32_t fault = 0;
};

}  // namespace npusim::aicore
