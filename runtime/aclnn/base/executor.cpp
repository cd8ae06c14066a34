#include "runtime/aclnn/base/executor.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <deque>
#include <mutex>
#include <new>
#include <unordered_set>

#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/float_bits.h"
#include "runtime/aclnn/base/status.h"

namespace npusim::aclnn {

namespace {

// Executors handed out and not yet freed. Consumed shells are kept for a while (not freed at
// once) so that a second launch of the same pointer is recognised instead of hitting a new
// executor that reused the address.
struct ExecutorTable {
  std::mutex mu;
  std::unordered_set<aclOpExecutor*> known;
  std::deque<aclOpExecutor*> graveyard;
  static constexpr size_t kGraveyardSize = 4096;

  void bury(aclOpExecutor* ex) {  // mu held
    graveyard.push_back(ex);
    if (graveyard.size() > kGraveyardSize) {
      aclOpExecutor* old = graveyard.front();
      graveyard.pop_front();
      known.erase(old);
      delete old;
    }
  }
};

ExecutorTable& table() {
  static ExecutorTable* t = new ExecutorTable;  // never destroyed: used from atexit paths too
  return *t;
}

// Host address of the first element of `d` (nullptr if the memory is not a live device allocation).
char* resolve(const TensorDesc& d) {
  int64_t lo = 0, hi = 0;
  d.elementSpan(&lo, &hi);
  const int64_t es = static_cast<int64_t>(d.elementSize());
  const uint64_t start = d.data + static_cast<uint64_t>(lo * es);
  void* host =
      rt::deviceBacking(reinterpret_cast<const void*>(start), static_cast<uint64_t>((hi - lo + 1) * es));
  if (host == nullptr) return nullptr;
  return static_cast<char*>(host) + (d.offset - lo) * es;
}

// Device address of the lowest byte `d` touches.
const void* firstByte(const TensorDesc& d) {
  int64_t lo = 0, hi = 0;
  d.elementSpan(&lo, &hi);
  return reinterpret_cast<const void*>(d.data +
                                       static_cast<uint64_t>(lo * static_cast<int64_t>(d.elementSize())));
}

}  // namespace

std::string memoryProblem(const OpInstance& op) {
  auto check = [](const TensorDesc& d, const std::string& what) -> std::string {
    if (d.numel() == 0 || resolve(d) != nullptr) return {};
    int64_t lo = 0, hi = 0;
    d.elementSpan(&lo, &hi);
    const int64_t es = static_cast<int64_t>(d.elementSize());
    return fmt::format("{} {} addresses [{:#x}, {:#x}) which are not inside one live device allocation", what,
                       d.brief(), d.data + lo * es, d.data + (hi + 1) * es);
  };
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    std::string p = check(op.inputs[i], i < op.inputNames.size() ? op.inputNames[i] : "input");
    if (!p.empty()) return p;
  }
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    std::string p = check(op.outputs[i], i < op.outputNames.size() ? op.outputNames[i] : "output");
    if (!p.empty()) return p;
  }
  return {};
}

void computeOnDevice(const OpInstance& op) {
  std::vector<HostTensor> in, out;
  in.reserve(op.inputs.size());
  out.reserve(op.outputs.size());
  auto host = [&op](const TensorDesc& d, std::vector<HostTensor>& v) {
    HostTensor h;
    h.dtype = d.dtype;
    h.shape = d.shape;
    h.strides = d.strides;
    h.data = d.numel() > 0 ? resolve(d) : nullptr;
    if (d.numel() > 0 && h.data == nullptr) {
      reportExecutionError(op.name.c_str(),
                           "device memory of " + d.brief() + " was freed before the kernel ran");
      return false;
    }
    v.push_back(std::move(h));
    return true;
  };
  for (const TensorDesc& d : op.inputs) {
    if (!host(d, in)) return;
  }
  for (const TensorDesc& d : op.outputs) {
    if (!host(d, out)) return;
  }
  op.compute(in, out);
}

// Whether a floating-point output of `op` holds an Inf or NaN (after its kernel ran).
bool outputsOverflowed(const OpInstance& op) {
  for (const TensorDesc& d : op.outputs) {
    if (d.numel() == 0 || (d.dtype != ACL_FLOAT && d.dtype != ACL_FLOAT16 && d.dtype != ACL_BF16)) continue;
    const char* base = resolve(d);
    if (!base) continue;
    const int64_t es = static_cast<int64_t>(d.elementSize());
    std::vector<int64_t> idx(d.shape.size(), 0);
    for (int64_t n = 0; n < d.numel(); ++n) {  // every element, through the strides
      int64_t off = 0;
      for (size_t k = 0; k < idx.size(); ++k) off += idx[k] * d.strides[k];
      const char* p = base + off * es;
      float v;
      if (d.dtype == ACL_FLOAT) {
        std::memcpy(&v, p, 4);
      } else {
        uint16_t h;
        std::memcpy(&h, p, 2);
        v = d.dtype == ACL_FLOAT16 ? halfToFloat(h) : bf16ToFloat(h);
      }
      if (!std::isfinite(v)) return true;
      for (size_t k = idx.size(); k-- > 0;) {
        if (++idx[k] < d.shape[k]) break;
        idx[k] = 0;
      }
    }
  }
  return false;
}

const OpInstance* executorOp(const aclOpExecutor* executor) {
  return executor != nullptr ? executor->op.get() : nullptr;
}

void computeOnHost(const OpInstance& op) {
  auto host = [](const TensorDesc& d) {
    HostTensor h;
    h.dtype = d.dtype;
    h.shape = d.shape;
    h.strides = d.strides;
    h.data = reinterpret_cast<char*>(d.data) + d.offset * static_cast<int64_t>(d.elementSize());
    return h;
  };
  std::vector<HostTensor> in, out;
  for (const TensorDesc& d : op.inputs) in.push_back(host(d));
  for (const TensorDesc& d : op.outputs) out.push_back(host(d));
  op.compute(in, out);
}

int32_t makeExecutor(const char* api, std::unique_ptr<OpInstance> op, uint64_t* workspaceSize,
                     aclOpExecutor** executor) {
  if (workspaceSize == nullptr) return fail(api, kErrParamNullptr, "workspaceSize must not be nullptr");
  if (executor == nullptr) return fail(api, kErrParamNullptr, "executor must not be nullptr");
  auto* ex = new (std::nothrow) aclOpExecutor;
  if (ex == nullptr) return fail(api, kErrInner, "out of host memory creating the executor");
  ex->op = std::move(op);
  ExecutorTable& t = table();
  {
    std::lock_guard<std::mutex> lock(t.mu);
    t.known.insert(ex);
  }
  *workspaceSize = ex->workspaceSize;
  *executor = ex;
  return kSuccess;
}

aclError enqueueInstance(std::shared_ptr<const OpInstance> op, void* workspace, uint64_t workspaceSize,
                         uint64_t fromAllocator, aclrtStream stream) {
  rt::OpLaunch launch;
  launch.name = op->name;
  launch.argsSummary = op->describe();
  launch.work = op->work();
  for (const auto* list : {&op->inputs, &op->outputs})
    for (const TensorDesc& d : *list)
      if (d.numel() > 0) launch.buffers.push_back(firstByte(d));
  if (workspace != nullptr && workspaceSize > 0) launch.buffers.push_back(workspace);
  launch.allocatorWorkspace = fromAllocator;
  if (rt::functionalEnabled()) {
    launch.compute = [op]() { computeOnDevice(*op); };
    launch.overflowed = [op]() { return outputsOverflowed(*op); };
  }
  return rt::launchOperator(stream, std::move(launch));
}

int32_t runExecutor(const char* api, void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                    aclrtStream stream) {
  if (executor == nullptr) return fail(api, kErrParamNullptr, "executor must not be nullptr");
  ExecutorTable& t = table();
  std::shared_ptr<const OpInstance> snapshot;
  bool repeatable = false;
  uint64_t fromAllocator = 0;
  {
    std::lock_guard<std::mutex> lock(t.mu);
    if (t.known.count(executor) == 0) {
      return fail(api, kErrParamInvalid, "executor is not valid (never created, or already destroyed)");
    }
    if (executor->consumed) {
      return fail(api, kErrParamInvalid,
                  "executor was already launched; phase 2 may run once per executor unless "
                  "aclSetAclOpExecutorRepeatable was called before the first launch");
    }
    // No workspace at all: the runtime takes it from the stream's user allocator (launchOperator).
    fromAllocator = workspace == nullptr && workspaceSize == 0 ? executor->workspaceSize : 0;
    if (fromAllocator == 0 && workspaceSize < executor->workspaceSize) {
      return fail(api, kErrParamInvalid,
                  fmt::format("workspaceSize {} is smaller than the {} bytes phase 1 asked for",
                              workspaceSize, executor->workspaceSize));
    }
    if (fromAllocator == 0 && executor->workspaceSize > 0 && workspace == nullptr) {
      return fail(api, kErrParamNullptr, "workspace must not be nullptr");
    }
    if (executor->op) snapshot = executor->op->clone();
    repeatable = executor->repeatable;
    // Claim it now so a concurrent second launch is refused; undone if the launch fails.
    if (!repeatable) executor->consumed = true;
  }
  auto unclaim = [&t, executor, repeatable]() {
    if (repeatable) return;
    std::lock_guard<std::mutex> lock(t.mu);
    executor->consumed = false;
  };

  int32_t status = kSuccess;
  if (snapshot && snapshot->hasWork()) {
    std::string problem = memoryProblem(*snapshot);
    if (!problem.empty()) {
      unclaim();
      return fail(api, kErrParamInvalid, problem);
    }
    if (snapshot->launchesSteps()) {
      if (fromAllocator != 0) {
        unclaim();
        return fail(
            api, kErrParamInvalid,
            fmt::format("{} needs its {}-byte workspace passed to phase 2", snapshot->name, fromAllocator));
      }
      // Once a step is on the stream the launch cannot be taken back: the executor stays consumed.
      status = snapshot->launchSteps(api, workspace, stream);
    } else if (const aclError err =
                   enqueueInstance(snapshot, workspace, workspaceSize, fromAllocator, stream);
               err != ACL_SUCCESS) {
      unclaim();
      return fail(api, kErrRuntimeError,
                  fmt::format("enqueueing {} on the stream failed with ACL error {}", snapshot->name, err));
    }
  }

  if (!repeatable) {
    std::lock_guard<std::mutex> lock(t.mu);
    executor->op.reset();
    t.bury(executor);
  }
  return status;
}

size_t liveExecutorCount() {
  ExecutorTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  return t.known.size() - t.graveyard.size();
}

namespace {

// Looks up a live, unconsumed executor for the management APIs. Returns a status.
int32_t lookup(const char* api, aclOpExecutor* ex) {
  if (ex == nullptr) return fail(api, kErrInnerNullptr, "executor must not be nullptr");
  if (table().known.count(ex) == 0)
    return fail(api, kErrInner, "executor is not valid (never created, or destroyed)");
  if (ex->consumed) return fail(api, kErrParamInvalid, "executor was already consumed by its launch");
  return kSuccess;
}

int32_t setAddr(const char* api, aclOpExecutor* ex, size_t index, aclTensor* tensor, void* addr, int which) {
  if (tensor == nullptr) return fail(api, kErrInnerNullptr, "tensor must not be nullptr");
  tensor->desc.data = reinterpret_cast<uint64_t>(addr);
  ExecutorTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  int32_t st = lookup(api, ex);
  if (st != kSuccess) return st;
  if (!ex->op) return kSuccess;  // empty operator: nothing refers to memory
  OpInstance& op = *ex->op;
  const uint64_t a = reinterpret_cast<uint64_t>(addr);
  // which: 0 = input index, 1 = output index, 2 = inputs then outputs.
  bool isInput = which == 0 || (which == 2 && index < op.inputs.size());
  size_t i = (which == 2 && !isInput) ? index - op.inputs.size() : index;
  if (isInput) {
    if (i >= op.inputs.size())
      return fail(api, kErrParamInvalid, fmt::format("input index {} out of range", index));
    op.inputs[i].data = a;
    for (size_t o = 0; o < op.outputs.size(); ++o) {
      if (o < op.outputAlias.size() && op.outputAlias[o] == static_cast<int>(i)) op.outputs[o].data = a;
    }
  } else {
    if (i >= op.outputs.size())
      return fail(api, kErrParamInvalid, fmt::format("output index {} out of range", index));
    op.outputs[i].data = a;
    if (i < op.outputAlias.size() && op.outputAlias[i] >= 0) op.inputs[op.outputAlias[i]].data = a;
  }
  return kSuccess;
}

}  // namespace

}  // namespace npusim::aclnn

using npusim::aclnn::setAddr;

extern "C" {

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
  auto& t = npusim::aclnn::table();
  std::lock_guard<std::mutex> lock(t.mu);
  int32_t st = npusim::aclnn::lookup("aclSetAclOpExecutorRepeatable", executor);
  if (st != npusim::aclnn::kSuccess) return st;
  executor->repeatable = true;
  return OK;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
  const char* api = "aclDestroyAclOpExecutor";
  auto& t = npusim::aclnn::table();
  std::lock_guard<std::mutex> lock(t.mu);
  int32_t st = npusim::aclnn::lookup(api, executor);
  if (st != npusim::aclnn::kSuccess) return st;
  t.known.erase(executor);
  delete executor;
  return OK;
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                                  void* addr) {
  return setAddr("aclSetInputTensorAddr", executor, index, tensor, addr, 0);
}
aclnnStatus aclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                                   void* addr) {
  return setAddr("aclSetOutputTensorAddr", executor, index, tensor, addr, 1);
}
aclnnStatus aclSetTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  return setAddr("aclSetTensorAddr", executor, index, tensor, addr, 2);
}
aclnnStatus AclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                                  void* addr) {
  return setAddr("AclSetInputTensorAddr", executor, index, tensor, addr, 0);
}
aclnnStatus AclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                                   void* addr) {
  return setAddr("AclSetOutputTensorAddr", executor, index, tensor, addr, 1);
}
aclnnStatus AclSetTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  return setAddr("AclSetTensorAddr", executor, index, tensor, addr, 2);
}

}  // extern "C"
