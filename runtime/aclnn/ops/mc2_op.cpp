#include "runtime/aclnn/ops/mc2_op.h"

#include <fmt/format.h>

#include <cstring>

#include "hccl/hccl.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/base/status.h"

namespace npusim::aclnn {

aclTensor mc2WorkspaceTensor(aclDataType dtype, const std::vector<int64_t>& shape, uint64_t offset) {
  aclTensor t;
  t.desc.dtype = dtype;
  t.desc.shape = shape;
  t.desc.strides = contiguousStrides(shape);
  t.desc.storageShape = shape;
  t.desc.data = kMc2WorkspaceBase + offset;
  return t;
}

uint64_t mc2Address(const aclTensor& t) {
  return t.desc.data + static_cast<uint64_t>(t.desc.offset) * t.desc.elementSize();
}

int32_t mc2ResolveGroup(const char* api, const char* group, Mc2Comm* out) {
  if (group == nullptr) return fail(api, kErrParamNullptr, "group must not be nullptr");
  HcclComm comm = nullptr;
  if (HcclCommGetHandleWithName(group, &comm) != HCCL_SUCCESS || comm == nullptr) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("group '{}' names no live HCCL communicator (pass the name HcclGetCommName gives)",
                    group));
  }
  uint32_t n = 0;
  if (HcclGetRankSize(comm, &n) != HCCL_SUCCESS || n == 0) {
    return fail(api, kErrParamInvalid, fmt::format("the rank size of group '{}' cannot be read", group));
  }
  out->comm = comm;
  out->rankSize = n;
  return kSuccess;
}

int32_t mc2CheckAttrs(const char* api, const char* reduceOp, int64_t commTurn, int64_t streamMode) {
  if (reduceOp != nullptr && std::strcmp(reduceOp, "sum") != 0) {
    return fail(api, kErrParamInvalid, fmt::format("reduceOp must be \"sum\", but is \"{}\"", reduceOp));
  }
  if (commTurn != 0)
    return fail(api, kErrParamInvalid, fmt::format("commTurn must be 0, but is {}", commTurn));
  if (streamMode != 1) {
    return fail(api, kErrParamInvalid, fmt::format("streamMode must be 1, but is {}", streamMode));
  }
  return kSuccess;
}

int32_t mc2CheckTypes(const char* api,
                      std::initializer_list<std::pair<const char*, const aclTensor*>> tensors) {
  const aclDataType first = tensors.begin()->second->desc.dtype;
  for (const auto& [name, t] : tensors) {
    if (t == nullptr) continue;
    const aclDataType dt = t->desc.dtype;
    if (dt != ACL_FLOAT16 && dt != ACL_BF16) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} must be fp16 or bf16, but is {}", name, dtypeName(dt)));
    }
    if (dt != first) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} is {} but {} is {}: the operands and results share one type", name,
                              dtypeName(dt), tensors.begin()->first, dtypeName(first)));
    }
  }
  return kSuccess;
}

HcclDataType mc2HcclType(aclDataType dt) {
  if (dt == ACL_INT8) return HCCL_DATA_TYPE_INT8;
  return dt == ACL_BF16 ? HCCL_DATA_TYPE_BFP16 : HCCL_DATA_TYPE_FP16;
}

int32_t mc2TakeStep(int32_t status, aclOpExecutor* executor, uint64_t* workspaceBytes, Mc2Step* step) {
  if (status != kSuccess) return status;
  const OpInstance* op = executorOp(executor);
  if (op != nullptr) step->op = op->clone();
  step->opWorkspace = executor->workspaceSize;
  step->opWorkspaceOffset = *workspaceBytes;
  *workspaceBytes += executor->workspaceSize;
  aclDestroyAclOpExecutor(executor);
  return kSuccess;
}

Mc2Step mc2Collective(HcclCMDType cmd, uint64_t send, uint64_t recv, uint64_t count, aclDataType dtype) {
  Mc2Step s;
  s.collective = cmd;
  s.send = send;
  s.recv = recv;
  s.count = count;
  s.type = mc2HcclType(dtype);
  return s;
}

int32_t Mc2Instance::launchSteps(const char* api, void* workspace, aclrtStream stream) const {
  Mc2Comm c;  // resolved again: the communicator may have been destroyed since phase 1
  int32_t st = mc2ResolveGroup(api, group.c_str(), &c);
  if (st != kSuccess) return st;
  const uint64_t ws = reinterpret_cast<uint64_t>(workspace);
  std::vector<TensorDesc> now = inputs;
  now.insert(now.end(), outputs.begin(), outputs.end());
  auto place = [&](uint64_t a) {
    if (a >= kMc2WorkspaceBase) return a - kMc2WorkspaceBase + ws;
    for (size_t i = 0; i < builtOn.size() && i < now.size(); ++i) {
      const TensorDesc& b = builtOn[i];
      if (now[i].data != b.data && a >= b.data && a < b.data + b.storageNumel() * b.elementSize())
        return a - b.data + now[i].data;
    }
    return a;
  };
  for (const Mc2Step& s : steps) {
    if (s.op) {
      std::shared_ptr<OpInstance> op = s.op->clone();
      for (auto* list : {&op->inputs, &op->outputs})
        for (TensorDesc& d : *list) d.data = place(d.data);
      const std::string problem = memoryProblem(*op);
      if (!problem.empty()) return fail(api, kErrParamInvalid, problem);
      if (!op->hasWork()) continue;
      void* opWs = s.opWorkspace > 0 ? static_cast<char*>(workspace) + s.opWorkspaceOffset : nullptr;
      const aclError err = enqueueInstance(op, opWs, s.opWorkspace, 0, stream);
      if (err != ACL_SUCCESS) {
        return fail(api, kErrRuntimeError,
                    fmt::format("enqueueing {} on the stream failed with ACL error {}", op->name, err));
      }
      continue;
    }
    void* send = reinterpret_cast<void*>(place(s.send));
    void* recv = reinterpret_cast<void*>(place(s.recv));
    HcclResult r = HCCL_E_NOT_SUPPORT;
    const char* what = "HcclAllReduce";
    switch (s.collective) {
      case HCCL_CMD_ALLREDUCE:
        r = HcclAllReduce(send, recv, s.count, s.type, HCCL_REDUCE_SUM, c.comm, stream);
        break;
      case HCCL_CMD_REDUCE_SCATTER:
        what = "HcclReduceScatter";
        r = HcclReduceScatter(send, recv, s.count, s.type, HCCL_REDUCE_SUM, c.comm, stream);
        break;
      case HCCL_CMD_ALLGATHER:
        what = "HcclAllGather";
        r = HcclAllGather(send, recv, s.count, s.type, c.comm, stream);
        break;
      case HCCL_CMD_ALLTOALL:
        what = "HcclAlltoAll";
        r = HcclAlltoAll(send, s.count, s.type, recv, s.count, s.type, c.comm, stream);
        break;
      default:
        break;
    }
    if (r != HCCL_SUCCESS) {
      return fail(api, kErrRuntimeError,
                  fmt::format("{} over group '{}' failed with HCCL error {} (the stream must be on the "
                              "device of the calling thread's rank)",
                              what, group, static_cast<int>(r)));
    }
  }
  return kSuccess;
}

}  // namespace npusim::aclnn
