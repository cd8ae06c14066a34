#pragma once
// The boundary between the aclnn operator layer (runtime/aclnn) and the runtime/device models:
// an operator describes its functional kernel and its work (tiles for the AI-core model), and
// the runtime enqueues it as a task on a stream.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl_base.h"

namespace npusim::rt {

// One unit of work for one AI core: what the MTE engines move between HBM and the core
// buffers and what the cube/vector units compute. The AI-core model turns this into time.
struct TileWork {
  uint64_t cubeMacs = 0;     // multiply-accumulates on the cube unit (fp16-equivalent)
  uint64_t vectorBytes = 0;  // bytes processed by the vector unit
  uint64_t readAddr = 0;     // device address of the first byte read (HBM channel mapping)
  uint64_t readBytes = 0;    // GM -> core (MTE2)
  uint64_t writeAddr = 0;
  uint64_t writeBytes = 0;  // core -> GM (MTE3)
};

struct OpWork {
  std::vector<TileWork> tiles;
  bool cube = false;              // runs on cube cores (else vector cores)
  int cubeMacsPerCycleScale = 1;  // 2 for int8 (16x32x16), 1 for fp16/bf16, fp32 uses hf32 path
};

struct OpLaunch {
  std::string name;         // "aclnnAdd"
  std::string argsSummary;  // "self=[4,2] fp32, other=[4,2] fp32, out=[4,2] fp32" (trace args)
  OpWork work;
  std::function<void()> compute;     // functional kernel; runs when the task executes (may be empty)
  // Runs when the task starts, before the cores time `work`: a custom kernel runs functionally
  // here and fills `work` with what its blocks did (may be empty).
  std::function<void(OpWork&)> before;
  std::vector<const void*> buffers;  // device memory it reads or writes (checks: freed while queued)
  // Workspace bytes to take from the stream's user allocator (aclrtAllocatorRegister) because the
  // program launched the operator without a workspace; 0 = none needed.
  uint64_t allocatorWorkspace = 0;
};

// Enqueues an operator on `stream` (nullptr = default stream of the current context).
// Returns ACL_SUCCESS or an ACL error code.
aclError launchOperator(aclrtStream stream, OpLaunch&& op);

// Charges the host cost of an aclnn phase-1 call (GetWorkspaceSize) to the calling thread
// and shows it on the trace as a call named `api`.
void chargeOpPrepare(const char* api);

// Host-accessible backing of device memory [devPtr, devPtr+bytes), or nullptr when the
// range is not inside one live device allocation.
void* deviceBacking(const void* devPtr, uint64_t bytes);

// Whether functional computation is enabled (sim.functional).
bool functionalEnabled();

// The AI-core figures of the configuration (aicore.*), for the cost models of fused operators
// that balance cube against vector work inside one tile (flash attention).
struct CoreRates {
  int cubeCores = 24, vectorCores = 48;
  double cubeMacsPerCycle = 4096, vectorBytesPerCycle = 256;
};
CoreRates coreRates();

}  // namespace npusim::rt
