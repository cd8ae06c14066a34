#pragma once
// aclOpExecutor: the result of phase 1 (aclnnXxxGetWorkspaceSize), consumed by phase 2
// (aclnnXxx) unless made repeatable. Phase 2 of every operator goes through runExecutor().
#include <cstdint>
#include <memory>
#include <string>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/base/op_instance.h"

struct aclOpExecutor {
  std::unique_ptr<npusim::aclnn::OpInstance> op;
  uint64_t workspaceSize = 0;
  bool repeatable = false;
  bool consumed = false;  // launched once and not repeatable: only the shell remains
};

namespace npusim::aclnn {

// Phase 1 success path: wraps `op` in a new executor and returns it through the out-pointers.
int32_t makeExecutor(const char* api, std::unique_ptr<OpInstance> op, uint64_t* workspaceSize,
                     aclOpExecutor** executor);

// Phase 2 of every operator: validates the executor, enqueues the operator on `stream`
// (nullptr = default stream) and consumes the executor unless it is repeatable.
int32_t runExecutor(const char* api, void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                    aclrtStream stream);

// Enqueues `op` on `stream` as one operator task: phase 2 of an ordinary operator, or one step
// of an operator that launches several (OpInstance::launchSteps). `fromAllocator`: workspace
// bytes the runtime takes from the stream's allocator. Returns an ACL error code.
aclError enqueueInstance(std::shared_ptr<const OpInstance> op, void* workspace, uint64_t workspaceSize,
                         uint64_t fromAllocator, aclrtStream stream);

// Why `op` cannot run on the memory its tensors name (a view outside any live device
// allocation), or "" when it can.
std::string memoryProblem(const OpInstance& op);

// Runs an operator's kernel on the device memory it names (what the launched task does).
void computeOnDevice(const OpInstance& op);

// Test hooks: the operator of an executor (nullptr if consumed or empty), and running it
// directly on host memory by treating the tensors' data pointers as host addresses.
const OpInstance* executorOp(const aclOpExecutor* executor);
void computeOnHost(const OpInstance& op);

// Number of executors that are live (created and neither consumed nor destroyed).
size_t liveExecutorCount();

}  // namespace npusim::aclnn
