// The mc2 operators of ops-transformer (mc2/matmul_all_reduce, matmul_reduce_scatter,
// all_gather_matmul, matmul_all_reduce_add_rms_norm, inplace_matmul_all_reduce_add_rms_norm;
// docs/aclnn*.md there), each a sequence of steps on the caller's stream (mc2_op.h):
//   MatmulAllReduce[V2]    mm = x1 @ x2 + bias (+ x3); output = AllReduce(mm)
//   MatmulReduceScatter    mm = x1 @ x2 + bias;        output = ReduceScatter(mm) (rows M / n)
//   AllGatherMatmul        gatherOut = AllGather(x1);  output = gatherOut @ x2 + bias
//   [Inplace]MatmulAllReduceAddRmsNorm
//                          mm = AllReduce(x1 @ x2 + bias); y = mm + residual;
//                          normOut = y / sqrt(mean(y^2) + epsilon) * gamma (y into residual in place)
#include <fmt/format.h>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_all_gather_matmul.h"
#include "aclnnop/aclnn_inplace_matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_matmul_all_reduce.h"
#include "aclnnop/aclnn_matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_matmul_all_reduce_v2.h"
#include "aclnnop/aclnn_matmul_reduce_scatter.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/matmul.h"
#include "runtime/aclnn/ops/mc2_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kTypes{ACL_FLOAT16, ACL_BF16};
const OpInfo kAllReduce{"aclnnMatmulAllReduce", ExecUnit::kCube, kTypes,
                        "output = allreduce(x1 @ x2 + bias)"};
const OpInfo kAllReduceV2{"aclnnMatmulAllReduceV2", ExecUnit::kCube, kTypes,
                          "output = allreduce(x1 @ x2 + bias + x3)"};
const OpInfo kReduceScatter{"aclnnMatmulReduceScatter", ExecUnit::kCube, kTypes,
                            "output = reducescatter(x1 @ x2 + bias)"};
const OpInfo kAllGather{"aclnnAllGatherMatmul", ExecUnit::kCube, kTypes,
                        "gatherOut = allgather(x1); output = gatherOut @ x2 + bias"};
const OpInfo kAddRmsNorm{"aclnnMatmulAllReduceAddRmsNorm", ExecUnit::kCube, kTypes,
                         "y = allreduce(x1 @ x2 + bias) + residual; normOut = rmsnorm(y) * gamma"};
const OpInfo kInplaceAddRmsNorm{
    "aclnnInplaceMatmulAllReduceAddRmsNorm", ExecUnit::kCube, kTypes,
    "residual = allreduce(x1 @ x2 + bias) + residual; normOut = rmsnorm(residual) * gamma"};
const OpRegistrar kRegs[] = {OpRegistrar(kAllReduce),     OpRegistrar(kAllReduceV2),
                             OpRegistrar(kReduceScatter), OpRegistrar(kAllGather),
                             OpRegistrar(kAddRmsNorm),    OpRegistrar(kInplaceAddRmsNorm)};

// The k range the reduce-scatter and all-gather documents give.
constexpr int64_t kMinK = 256, kMaxK = 65535;

uint64_t bytesOf(const aclTensor& t) { return static_cast<uint64_t>(t.desc.numel()) * t.desc.elementSize(); }

// Workspace regions start on 512-byte boundaries, as device allocations do.
uint64_t alignUp(uint64_t n) { return (n + 511) / 512 * 512; }

// A tensor in the workspace of `inst`, appended after what is there.
aclTensor workspaceTensor(Mc2Instance& inst, aclDataType dtype, const std::vector<int64_t>& shape) {
  aclTensor t = mc2WorkspaceTensor(dtype, shape, inst.workspaceBytes);
  inst.workspaceBytes = alignUp(inst.workspaceBytes + bytesOf(t));
  return t;
}

// Takes an operator step from a phase-1 call's result and names it after the fused operator.
int32_t addOpStep(Mc2Instance& inst, int32_t status, aclOpExecutor* ex, const std::string& name) {
  Mc2Step s;
  const int32_t st = mc2TakeStep(status, ex, &inst.workspaceBytes, &s);
  if (st != kSuccess) return st;
  if (s.op) {
    std::unique_ptr<OpInstance> named = s.op->clone();
    named->name = name;
    s.op = std::move(named);
  }
  inst.steps.push_back(std::move(s));
  return kSuccess;
}

// The cube step: out = x1 @ x2 (+ bias), with the matmul family's checks, numerics and cost.
int32_t matmulStep(const char* api, const OpInfo& info, Mc2Instance& inst, const aclTensor* x1,
                   const aclTensor* x2, const aclTensor* bias, const aclTensor& out) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const AddTerm add{bias, 1.0, 1.0, false};
  const int32_t st = buildMatmul({api, info.name.c_str(), &info, 0}, x1, x2, &out, kKeepDtype, &ws, &ex,
                                 bias != nullptr ? &add : nullptr);
  return addOpStep(inst, st, ex, info.name + " matmul");
}

int32_t requireContiguous(const char* api, const char* name, const aclTensor& t) {
  if (t.desc.isContiguous()) return kSuccess;
  return fail(api, kErrParamInvalid,
              fmt::format("{} {} must be contiguous: the collective reads or writes it as one buffer", name,
                          t.desc.brief()));
}

int32_t requireRank(const char* api, const char* name, const aclTensor& t, size_t lo, size_t hi) {
  if (t.desc.rank() >= lo && t.desc.rank() <= hi) return kSuccess;
  return fail(api, kErrParamInvalid,
              lo == hi
                  ? fmt::format("{} must be {}-dimensional, but is {}", name, lo, shapeString(t.desc.shape))
                  : fmt::format("{} must have {} to {} dimensions, but is {}", name, lo, hi,
                                shapeString(t.desc.shape)));
}

int32_t requireKRange(const char* api, int64_t k) {
  if (k >= kMinK && k < kMaxK) return kSuccess;
  return fail(api, kErrParamInvalid, fmt::format("k must be in [{}, {}), but is {}", kMinK, kMaxK, k));
}

// bias, when given: 1-D [n].
int32_t checkBias(const char* api, const aclTensor* bias, int64_t n) {
  if (bias == nullptr) return kSuccess;
  return checkShape(api, "bias", bias->desc.shape, {n});
}

// The common start of phase 1: null pointers, attributes, types, and x2 2-D with x1's k.
int32_t checkCommon(const char* api, const aclTensor* x1, const aclTensor* x2, const aclTensor* output,
                    const char* reduceOp, int64_t commTurn, int64_t streamMode,
                    std::initializer_list<std::pair<const char*, const aclTensor*>> typed) {
  int32_t st = checkNotNull(api, {{"x1", x1}, {"x2", x2}, {"output", output}});
  if (st != kSuccess) return st;
  if ((st = mc2CheckAttrs(api, reduceOp, commTurn, streamMode)) != kSuccess) return st;
  if ((st = mc2CheckTypes(api, typed)) != kSuccess) return st;
  if ((st = requireRank(api, "x2", *x2, 2, 2)) != kSuccess) return st;
  if (x1->desc.rank() == 0 || x1->desc.shape.back() != x2->desc.shape[0]) {
    return fail(api, kErrParamInvalid,
                fmt::format("the k axes of x1 {} and x2 {} differ", shapeString(x1->desc.shape),
                            shapeString(x2->desc.shape)));
  }
  return kSuccess;
}

std::unique_ptr<Mc2Instance> newInstance(
    const OpInfo& info, const char* group, std::initializer_list<std::pair<const char*, const aclTensor*>> in,
    std::initializer_list<std::pair<const char*, const aclTensor*>> out) {
  auto inst = std::make_unique<Mc2Instance>();
  inst->name = info.name;
  inst->group = group;
  for (const auto& [name, t] : in)
    if (t != nullptr) addInput(*inst, name, t);
  for (const auto& [name, t] : out)
    if (t != nullptr) addOutput(*inst, name, t);
  inst->attrs = fmt::format("group={}", group);
  return inst;
}

// The executor of `inst`, asking for the workspace its steps use.
int32_t finish(const char* api, std::unique_ptr<Mc2Instance> inst, uint64_t* workspaceSize,
               aclOpExecutor** executor) {
  const uint64_t bytes = inst->workspaceBytes;
  const int32_t st = makeExecutor(api, std::move(inst), workspaceSize, executor);
  if (st == kSuccess) (*executor)->workspaceSize = *workspaceSize = bytes;
  return st;
}

// MatmulAllReduce and its V2 (x3 added before the reduction).
int32_t buildAllReduce(const char* api, const OpInfo& info, const aclTensor* x1, const aclTensor* x2,
                       const aclTensor* bias, const aclTensor* x3, const char* group, const char* reduceOp,
                       int64_t commTurn, int64_t streamMode, const aclTensor* output, uint64_t* workspaceSize,
                       aclOpExecutor** executor) {
  int32_t st = checkCommon(api, x1, x2, output, reduceOp, commTurn, streamMode,
                           {{"x1", x1}, {"x2", x2}, {"output", output}, {"bias", bias}, {"x3", x3}});
  if (st != kSuccess) return st;
  if ((st = requireRank(api, "x1", *x1, 2, 3)) != kSuccess) return st;
  const int64_t n = x2->desc.shape[1];
  std::vector<int64_t> outShape = x1->desc.shape;
  outShape.back() = n;
  if ((st = checkBias(api, bias, n)) != kSuccess) return st;
  if ((st = checkShape(api, "output", output->desc.shape, outShape)) != kSuccess) return st;
  if (x3 != nullptr && (st = checkShape(api, "x3", x3->desc.shape, outShape)) != kSuccess) return st;
  if ((st = requireContiguous(api, "output", *output)) != kSuccess) return st;
  Mc2Comm comm;
  if ((st = mc2ResolveGroup(api, group, &comm)) != kSuccess) return st;

  auto inst =
      newInstance(info, group, {{"x1", x1}, {"x2", x2}, {"bias", bias}, {"x3", x3}}, {{"output", output}});
  if (output->desc.numel() > 0) {
    const aclDataType dt = output->desc.dtype;
    const aclTensor mm = workspaceTensor(*inst, dt, outShape);
    if ((st = matmulStep(api, info, *inst, x1, x2, bias, mm)) != kSuccess) return st;
    if (x3 != nullptr) {
      float one = 1.0f;
      aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
      uint64_t ws = 0;
      aclOpExecutor* ex = nullptr;
      st = aclnnInplaceAddGetWorkspaceSize(&mm, x3, alpha, &ws, &ex);
      aclDestroyScalar(alpha);
      if ((st = addOpStep(*inst, st, ex, info.name + " add x3")) != kSuccess) return st;
    }
    inst->steps.push_back(mc2Collective(HCCL_CMD_ALLREDUCE, mc2Address(mm), mc2Address(*output),
                                        static_cast<uint64_t>(output->desc.numel()), dt));
  }
  return finish(api, std::move(inst), workspaceSize, executor);
}

// MatmulAllReduceAddRmsNorm; `y` null: the in-place form writes y into residual.
int32_t buildAddRmsNorm(const char* api, const OpInfo& info, const aclTensor* x1, const aclTensor* x2,
                        const aclTensor* bias, const aclTensor* residual, const aclTensor* gamma,
                        double epsilon, const char* group, const char* reduceOp, int64_t commTurn,
                        int64_t streamMode, const aclTensor* y, const aclTensor* normOut,
                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  const bool inplace = y == nullptr;
  int32_t st = checkNotNull(api, {{"residual", residual}, {"gamma", gamma}, {"normOut", normOut}});
  if (st != kSuccess) return st;
  st = checkCommon(api, x1, x2, normOut, reduceOp, commTurn, streamMode,
                   {{"x1", x1},
                    {"x2", x2},
                    {"bias", bias},
                    {"residual", residual},
                    {"gamma", gamma},
                    {"y", y},
                    {"normOut", normOut}});
  if (st != kSuccess) return st;
  if ((st = requireRank(api, "x1", *x1, 2, 3)) != kSuccess) return st;
  if ((st = requireRank(api, "residual", *residual, 3, 3)) != kSuccess) return st;
  if (!(epsilon > 0 && epsilon < 1)) {
    return fail(api, kErrParamInvalid, fmt::format("epsilon must be in (0, 1), but is {}", epsilon));
  }
  if (x1->desc.shape.back() == 0)
    return fail(api, kErrParamInvalid, "x1's k axis is 0, which is not supported");
  const int64_t n = x2->desc.shape[1];
  std::vector<int64_t> mmShape = x1->desc.shape;
  mmShape.back() = n;
  const std::vector<int64_t>& rs = residual->desc.shape;
  const int64_t rows = x1->desc.numel() / x1->desc.shape.back();
  if (rs[2] != n || rs[0] * rs[1] != rows) {
    return fail(api, kErrParamInvalid,
                fmt::format("residual {} must be (b, s, n) with b * s = {} rows of x1 and n = {}",
                            shapeString(rs), rows, n));
  }
  if ((st = checkBias(api, bias, n)) != kSuccess) return st;
  if ((st = checkShape(api, "gamma", gamma->desc.shape, {n})) != kSuccess) return st;
  if (!inplace && (st = checkShape(api, "y", y->desc.shape, rs)) != kSuccess) return st;
  if ((st = checkShape(api, "normOut", normOut->desc.shape, rs)) != kSuccess) return st;
  Mc2Comm comm;
  if ((st = mc2ResolveGroup(api, group, &comm)) != kSuccess) return st;

  auto inst = newInstance(info, group,
                          {{"x1", x1}, {"x2", x2}, {"bias", bias}, {"residual", residual}, {"gamma", gamma}},
                          {{"y", y}, {"normOut", normOut}});
  if (inplace) {
    const int residualIndex = static_cast<int>(inst->inputs.size()) - 2;  // before gamma
    addOutput(*inst, "residual", residual, residualIndex);
  }
  inst->attrs += fmt::format(", epsilon={}", epsilon);
  if (normOut->desc.numel() > 0) {
    const aclDataType dt = normOut->desc.dtype;
    const aclTensor mm = workspaceTensor(*inst, dt, mmShape);
    const aclTensor sum = workspaceTensor(*inst, dt, rs);
    aclTensor rstd = workspaceTensor(*inst, ACL_FLOAT, {rs[0], rs[1]});
    if ((st = matmulStep(api, info, *inst, x1, x2, bias, mm)) != kSuccess) return st;
    inst->steps.push_back(mc2Collective(HCCL_CMD_ALLREDUCE, mc2Address(mm), mc2Address(sum),
                                        static_cast<uint64_t>(sum.desc.numel()), dt));
    aclTensor normT{normOut->desc}, yT{inplace ? residual->desc : y->desc};
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    st = aclnnAddRmsNormGetWorkspaceSize(&sum, residual, gamma, epsilon, &normT, &rstd, &yT, &ws, &ex);
    if ((st = addOpStep(*inst, st, ex, info.name + " add rms_norm")) != kSuccess) return st;
  }
  return finish(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;  // NOLINT: the entry points below only forward

extern "C" aclnnStatus aclnnMatmulAllReduceGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                            const aclTensor* bias, const char* group,
                                                            const char* reduceOp, int64_t commTurn,
                                                            int64_t streamMode, const aclTensor* output,
                                                            uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  return buildAllReduce("aclnnMatmulAllReduceGetWorkspaceSize", kAllReduce, x1, x2, bias, nullptr, group,
                        reduceOp, commTurn, streamMode, output, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMatmulAllReduceV2GetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const aclTensor* x3, const char* group,
    const char* reduceOp, int64_t commTurn, int64_t streamMode, const aclTensor* output,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildAllReduce("aclnnMatmulAllReduceV2GetWorkspaceSize", kAllReduceV2, x1, x2, bias, x3, group,
                        reduceOp, commTurn, streamMode, output, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMatmulReduceScatterGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                                const aclTensor* bias, const char* group,
                                                                const char* reduceOp, int64_t commTurn,
                                                                int64_t streamMode, const aclTensor* output,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor) {
  const char* api = "aclnnMatmulReduceScatterGetWorkspaceSize";
  int32_t st = checkCommon(api, x1, x2, output, reduceOp, commTurn, streamMode,
                           {{"x1", x1}, {"x2", x2}, {"output", output}, {"bias", bias}});
  if (st != kSuccess) return st;
  if ((st = requireRank(api, "x1", *x1, 2, 2)) != kSuccess) return st;
  if ((st = requireKRange(api, x1->desc.shape[1])) != kSuccess) return st;
  const int64_t m = x1->desc.shape[0], n = x2->desc.shape[1];
  if ((st = checkBias(api, bias, n)) != kSuccess) return st;
  if ((st = requireContiguous(api, "output", *output)) != kSuccess) return st;
  Mc2Comm comm;
  if ((st = mc2ResolveGroup(api, group, &comm)) != kSuccess) return st;
  const int64_t ranks = comm.rankSize;
  if (m % ranks != 0) {
    return fail(api, kErrParamInvalid,
                fmt::format("x1's m = {} must be a multiple of the group's {} ranks", m, ranks));
  }
  if ((st = checkShape(api, "output", output->desc.shape, {m / ranks, n})) != kSuccess) return st;

  auto inst =
      newInstance(kReduceScatter, group, {{"x1", x1}, {"x2", x2}, {"bias", bias}}, {{"output", output}});
  if (output->desc.numel() > 0) {
    const aclDataType dt = output->desc.dtype;
    const aclTensor mm = workspaceTensor(*inst, dt, {m, n});
    if ((st = matmulStep(api, kReduceScatter, *inst, x1, x2, bias, mm)) != kSuccess) return st;
    inst->steps.push_back(mc2Collective(HCCL_CMD_REDUCE_SCATTER, mc2Address(mm), mc2Address(*output),
                                        static_cast<uint64_t>(output->desc.numel()), dt));
  }
  return finish(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnAllGatherMatmulGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const char* group, int64_t gatherIndex,
    int64_t commTurn, int64_t streamMode, const aclTensor* output, const aclTensor* gatherOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnAllGatherMatmulGetWorkspaceSize";
  int32_t st =
      checkCommon(api, x1, x2, output, "sum", commTurn, streamMode,
                  {{"x1", x1}, {"x2", x2}, {"output", output}, {"bias", bias}, {"gatherOut", gatherOut}});
  if (st != kSuccess) return st;
  if (gatherIndex != 0) {
    return fail(api, kErrParamInvalid,
                fmt::format("gatherIndex must be 0 (gather x1), but is {}", gatherIndex));
  }
  if ((st = requireRank(api, "x1", *x1, 2, 2)) != kSuccess) return st;
  if (x1->desc.shape[1] == 0) return fail(api, kErrParamInvalid, "x1's k axis is 0, which is not supported");
  if ((st = requireKRange(api, x1->desc.shape[1])) != kSuccess) return st;
  const int64_t m = x1->desc.shape[0], k = x1->desc.shape[1], n = x2->desc.shape[1];
  if ((st = checkBias(api, bias, n)) != kSuccess) return st;
  if ((st = requireContiguous(api, "x1", *x1)) != kSuccess) return st;
  // An empty gatherOut, like a null one, asks for no gathered copy (the document's IsGatherOut).
  const aclTensor* gathered = gatherOut != nullptr && gatherOut->desc.numel() > 0 ? gatherOut : nullptr;
  Mc2Comm comm;
  if ((st = mc2ResolveGroup(api, group, &comm)) != kSuccess) return st;
  const int64_t ranks = comm.rankSize;
  if ((st = checkShape(api, "output", output->desc.shape, {m * ranks, n})) != kSuccess) return st;
  if (gathered != nullptr) {
    if ((st = checkShape(api, "gatherOut", gathered->desc.shape, {m * ranks, k})) != kSuccess) return st;
    if ((st = requireContiguous(api, "gatherOut", *gathered)) != kSuccess) return st;
  }

  auto inst = newInstance(kAllGather, group, {{"x1", x1}, {"x2", x2}, {"bias", bias}},
                          {{"output", output}, {"gatherOut", gathered}});
  if (m > 0) {
    const aclDataType dt = x1->desc.dtype;
    const aclTensor all = gathered != nullptr ? *gathered : workspaceTensor(*inst, dt, {m * ranks, k});
    inst->steps.push_back(mc2Collective(HCCL_CMD_ALLGATHER, mc2Address(*x1), mc2Address(all),
                                        static_cast<uint64_t>(x1->desc.numel()), dt));
    if ((st = matmulStep(api, kAllGather, *inst, &all, x2, bias, *output)) != kSuccess) return st;
  }
  return finish(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMatmulAllReduceAddRmsNormGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const aclTensor* residual,
    const aclTensor* gamma, double epsilon, const char* group, const char* reduceOp, int64_t commTurn,
    int64_t streamMode, const aclTensor* y, const aclTensor* normOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  const char* api = "aclnnMatmulAllReduceAddRmsNormGetWorkspaceSize";
  if (y == nullptr) return fail(api, kErrParamNullptr, "y must not be nullptr");
  return buildAddRmsNorm(api, kAddRmsNorm, x1, x2, bias, residual, gamma, epsilon, group, reduceOp, commTurn,
                         streamMode, y, normOut, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnInplaceMatmulAllReduceAddRmsNormGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const aclTensor* residual,
    const aclTensor* gamma, double epsilon, const char* group, const char* reduceOp, int64_t commTurn,
    int64_t streamMode, const aclTensor* normOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildAddRmsNorm("aclnnInplaceMatmulAllReduceAddRmsNormGetWorkspaceSize", kInplaceAddRmsNorm, x1, x2,
                         bias, residual, gamma, epsilon, group, reduceOp, commTurn, streamMode, nullptr,
                         normOut, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(MatmulAllReduce)
NPUSIM_ACLNN_PHASE2(MatmulAllReduceV2)
NPUSIM_ACLNN_PHASE2(MatmulReduceScatter)
NPUSIM_ACLNN_PHASE2(AllGatherMatmul)
NPUSIM_ACLNN_PHASE2(MatmulAllReduceAddRmsNorm)
NPUSIM_ACLNN_PHASE2(InplaceMatmulAllReduceAddRmsNorm)
