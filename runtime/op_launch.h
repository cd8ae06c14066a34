#pragma once
// The boundary between the aclnn operator layer (runtime/aclnn) and the runtime/device models:
// an operator describes its functional kernel and its work (tiles for the AI-core model), and
// the runtime enqueues it as a task on a stream.
#include <cstdint>

#include "acl/acl_base.h"
#include "models/sched/operator_task.h"

namespace npusim::rt {

// The operator's AI-core work and the task that carries it are hardware concepts
// (models/aicore/op_work.h, models/sched/operator_task.h); the operator layer uses them by these names.
using TileWork = aicore::TileWork;
using OpWork = aicore::OpWork;
using OpLaunch = sched::OperatorTask;

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
