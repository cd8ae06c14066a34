#pragma once
// The mc2 family (ops-transformer mc2/): a matmul fused with a collective over an HCCL
// communicator named by `group` (HcclGetCommName). npusim runs the parts one after another on
// the caller's stream: the matmul (and any add or norm) as operator tasks on the AI-core model,
// the collective through libhccl on its own timing model, so the trace shows each of them.
// Intermediate results live in the operator's workspace.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hccl/hccl_types.h"
#include "runtime/aclnn/base/op_instance.h"

namespace npusim::aclnn {

// Tensors in the workspace are built in phase 1 with addresses from this base (far above any
// device address) and moved onto the workspace phase 2 is given.
constexpr uint64_t kMc2WorkspaceBase = uint64_t{1} << 62;

// A contiguous tensor at `offset` bytes into the workspace.
aclTensor mc2WorkspaceTensor(aclDataType dtype, const std::vector<int64_t>& shape, uint64_t offset);

// One part of an mc2 operator: an operator task, or a collective (op == nullptr).
struct Mc2Step {
  std::shared_ptr<const OpInstance> op;
  uint64_t opWorkspace = 0, opWorkspaceOffset = 0;  // the operator task's own workspace within ours
  HcclCMDType collective = HCCL_CMD_INVALID;
  uint64_t send = 0, recv = 0;  // device addresses, or kMc2WorkspaceBase + offset
  uint64_t count =
      0;  // elements: per rank (AllReduce, AllGather), received (ReduceScatter), per peer (AlltoAll)
  HcclDataType type = HCCL_DATA_TYPE_RESERVED;
};

class Mc2Instance : public OpInstanceBase<Mc2Instance> {
 public:
  std::string group;
  std::vector<Mc2Step> steps;
  uint64_t workspaceBytes = 0;
  // The operator's tensors as the steps were built on them (inputs, then outputs): when
  // aclSet*TensorAddr moves one, launchSteps moves the steps' addresses inside it along.
  std::vector<TensorDesc> builtOn;

  // Never launched as one task: launchSteps enqueues the steps.
  rt::OpWork work() const override { return {}; }
  void compute(const std::vector<HostTensor>&, const std::vector<HostTensor>&) const override {}
  bool hasWork() const override { return !steps.empty(); }
  bool launchesSteps() const override { return true; }
  int32_t launchSteps(const char* api, void* workspace, aclrtStream stream) const override;
};

// Phase-1 helpers shared by the family's operators.
struct Mc2Comm {
  HcclComm comm = nullptr;
  uint32_t rankSize = 0;
};
// Resolves `group` to the calling device's rank of that communicator (161001 null, 161002 unknown).
int32_t mc2ResolveGroup(const char* api, const char* group, Mc2Comm* out);
// reduceOp "sum", commTurn 0 and streamMode 1: the only values the documents allow.
int32_t mc2CheckAttrs(const char* api, const char* reduceOp, int64_t commTurn, int64_t streamMode);
// x1, x2 (and the other named tensors) fp16 or bf16, all of one type.
int32_t mc2CheckTypes(const char* api,
                      std::initializer_list<std::pair<const char*, const aclTensor*>> tensors);
// The HCCL type of an element type the family takes.
HcclDataType mc2HcclType(aclDataType dt);
// An operator step from a phase-1 executor (destroys it); its own workspace, if any, is added
// to `workspaceBytes`. `status` is the phase-1 call's: failures pass through.
int32_t mc2TakeStep(int32_t status, aclOpExecutor* executor, uint64_t* workspaceBytes, Mc2Step* step);
// A collective step.
Mc2Step mc2Collective(HcclCMDType cmd, uint64_t send, uint64_t recv, uint64_t count, aclDataType dtype);
// The address of a tensor's first element (collective buffers are contiguous).
uint64_t mc2Address(const aclTensor& t);
// aclnnQuantMatmulAllReduceV3's int8 communication of the product mm (m, n) into `output`
// (mc2_int8_comm.cpp): quantise, AlltoAll, sum and requantise, AllGather, dequantise. `alloc`
// places a tensor in the operator's workspace.
int32_t mc2Int8AllReduce(const char* api, const std::string& name, Mc2Instance& inst, const aclTensor& mm,
                         const aclTensor& scale1, const aclTensor& scale2, const aclTensor& output,
                         uint32_t ranks,
                         const std::function<aclTensor(aclDataType, std::vector<int64_t>)>& alloc);

}  // namespace npusim::aclnn
