// The mc2 operators of ops-transformer (mc2/matmul_all_reduce, matmul_reduce_scatter,
// all_gather_matmul, matmul_all_reduce_add_rms_norm, inplace_matmul_all_reduce_add_rms_norm;
// docs/aclnn*.md there), each a sequence of steps on the caller's stream (mc2_op.h):
//   [Quant|WeightQuant]MatmulAllReduce[V2|V3]
//                          mm = product + bias (+ x3); output = AllReduce(mm) (V3 with its
//                          communication scales: through int8, mc2_int8_comm.cpp)
//   MatmulReduceScatter    mm = x1 @ x2 + bias;        output = ReduceScatter(mm) (rows M / n)
//   AllGatherMatmul        gatherOut = AllGather(x1);  output = gatherOut @ x2 + bias
//   [Inplace][Quant|WeightQuant]MatmulAllReduceAddRmsNorm
//                          mm = AllReduce(product + bias); y = mm + residual;
//                          normOut = y / sqrt(mean(y^2) + epsilon) * gamma (y into residual in place)
// The product is x1 @ x2 (fp16/bf16), the int8 product with its dequant scales (Quant) or x1 @
// the dequantised int8 weight (WeightQuant), each on its own engine (MatmulPart).
#include <fmt/format.h>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_all_gather_matmul.h"
#include "aclnnop/aclnn_inplace_matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_inplace_quant_matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_inplace_weight_quant_matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_matmul_all_reduce.h"
#include "aclnnop/aclnn_matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_matmul_all_reduce_v2.h"
#include "aclnnop/aclnn_matmul_reduce_scatter.h"
#include "aclnnop/aclnn_quant_matmul_all_reduce.h"
#include "aclnnop/aclnn_quant_matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_quant_matmul_all_reduce_v2.h"
#include "aclnnop/aclnn_quant_matmul_all_reduce_v3.h"
#include "aclnnop/aclnn_quant_matmul_v5.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"
#include "aclnnop/aclnn_weight_quant_matmul_all_reduce.h"
#include "aclnnop/aclnn_weight_quant_matmul_all_reduce_add_rms_norm.h"
#include "runtime/aclnn/base/dtype.h"
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
const std::vector<aclDataType> kQuantTypes{ACL_INT8, ACL_FLOAT16, ACL_BF16};
const OpInfo kQuantAllReduce{"aclnnQuantMatmulAllReduce", ExecUnit::kCube, kQuantTypes,
                             "output = allreduce(dequantScale * (x1 @ x2 + bias) + x3), x1, x2 int8"};
const OpInfo kQuantAllReduceV2{"aclnnQuantMatmulAllReduceV2", ExecUnit::kCube, kQuantTypes,
                               "output = allreduce(dequantScale * pertokenScale * (x1 @ x2 + bias) + x3)"};
const OpInfo kQuantAllReduceV3{"aclnnQuantMatmulAllReduceV3", ExecUnit::kCube, kQuantTypes,
                               "as V2, or with commQuantScale1/2 the reduction by int8 AlltoAll + AllGather"};
const OpInfo kWeightQuantAllReduce{
    "aclnnWeightQuantMatmulAllReduce", ExecUnit::kCube, kQuantTypes,
    "output = allreduce(x1 @ ((x2 + antiquantOffset) * antiquantScale) + bias + x3)"};
const OpInfo kQuantAddRmsNorm{
    "aclnnQuantMatmulAllReduceAddRmsNorm", ExecUnit::kCube, kQuantTypes,
    "y = allreduce(dequantScale * (x1 @ x2 + bias)) + residual; normOut = rmsnorm(y)"};
const OpInfo kInplaceQuantAddRmsNorm{"aclnnInplaceQuantMatmulAllReduceAddRmsNorm", ExecUnit::kCube,
                                     kQuantTypes, "as QuantMatmulAllReduceAddRmsNorm, y into residual"};
const OpInfo kWeightQuantAddRmsNorm{
    "aclnnWeightQuantMatmulAllReduceAddRmsNorm", ExecUnit::kCube, kQuantTypes,
    "y = allreduce(x1 @ antiquant(x2) + bias) + residual; normOut = rmsnorm(y)"};
const OpInfo kInplaceWeightQuantAddRmsNorm{"aclnnInplaceWeightQuantMatmulAllReduceAddRmsNorm",
                                           ExecUnit::kCube, kQuantTypes,
                                           "as WeightQuantMatmulAllReduceAddRmsNorm, y into residual"};
const OpRegistrar kQuantRegs[] = {
    OpRegistrar(kQuantAllReduce),        OpRegistrar(kQuantAllReduceV2),
    OpRegistrar(kQuantAllReduceV3),      OpRegistrar(kWeightQuantAllReduce),
    OpRegistrar(kQuantAddRmsNorm),       OpRegistrar(kInplaceQuantAddRmsNorm),
    OpRegistrar(kWeightQuantAddRmsNorm), OpRegistrar(kInplaceWeightQuantAddRmsNorm)};
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

// How an operator forms its local product: x1 @ x2 on the float cube (the matmul engine), the
// int8 product dequantised by per-channel (and per-token) scales (aclnnQuantMatmulV5's engine),
// or x1 @ the dequantised int8 weight (aclnnWeightQuantBatchMatmulV2's).
struct MatmulPart {
  enum class Kind { kFloat, kQuant, kWeightQuant } kind = Kind::kFloat;
  const aclTensor *x1 = nullptr, *x2 = nullptr, *bias = nullptr;
  const aclTensor *dequantScale = nullptr, *pertokenScale = nullptr;      // kQuant
  const aclTensor *antiquantScale = nullptr, *antiquantOffset = nullptr;  // kWeightQuant
  int64_t antiquantGroupSize = 0;
};

// A (b, s, c) tensor as the (b * s, c) matrix the engines take; a 2-D one as it is.
int32_t rowsView(const char* api, const char* name, const aclTensor& t, aclTensor* out) {
  *out = t;
  if (t.desc.rank() != 3) return kSuccess;
  if (!t.desc.isContiguous()) {
    return fail(api, kErrParamInvalid, fmt::format("a 3-D {} {} must be contiguous", name, t.desc.brief()));
  }
  out->desc.shape = {t.desc.shape[0] * t.desc.shape[1], t.desc.shape[2]};
  out->desc.strides = contiguousStrides(out->desc.shape);
  return kSuccess;
}

// The cube step: out = the product of `p` (+ bias), with its engine's checks, numerics and cost.
int32_t matmulStep(const char* api, const OpInfo& info, Mc2Instance& inst, const MatmulPart& p,
                   const aclTensor& out) {
  aclTensor x1;
  int32_t st = rowsView(api, "x1", *p.x1, &x1);
  if (st != kSuccess) return st;
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  switch (p.kind) {
    case MatmulPart::Kind::kFloat: {
      const AddTerm add{p.bias, 1.0, 1.0, false};
      st = buildMatmul({api, info.name.c_str(), &info, 0}, &x1, p.x2, &out, kKeepDtype, &ws, &ex,
                       p.bias != nullptr ? &add : nullptr);
      break;
    }
    case MatmulPart::Kind::kQuant: {
      aclTensor o = out;
      st = aclnnQuantMatmulV5GetWorkspaceSize(&x1, p.x2, p.pertokenScale, p.dequantScale, nullptr, nullptr,
                                              nullptr, nullptr, p.bias, false, false, 0, &o, &ws, &ex);
      break;
    }
    case MatmulPart::Kind::kWeightQuant:
      st = aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
          &x1, p.x2, p.antiquantScale, p.antiquantOffset, nullptr, nullptr, p.bias,
          static_cast<int>(p.antiquantGroupSize), &out, &ws, &ex);
      break;
  }
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

// The common start of phase 1: null pointers, attributes, types (`typed` share one float type),
// and x2 2-D with x1's k.
int32_t checkCommon(const char* api, const MatmulPart& p, const aclTensor* output, const char* reduceOp,
                    int64_t commTurn, int64_t streamMode,
                    std::initializer_list<std::pair<const char*, const aclTensor*>> typed) {
  const aclTensor *x1 = p.x1, *x2 = p.x2;
  int32_t st = checkNotNull(api, {{"x1", x1}, {"x2", x2}, {"output", output}});
  if (st != kSuccess) return st;
  if (p.kind == MatmulPart::Kind::kQuant &&
      (st = checkNotNull(api, {{"dequantScale", p.dequantScale}})) != kSuccess)
    return st;
  if (p.kind == MatmulPart::Kind::kWeightQuant &&
      (st = checkNotNull(api, {{"antiquantScale", p.antiquantScale}})) != kSuccess)
    return st;
  if ((st = mc2CheckAttrs(api, reduceOp, commTurn, streamMode)) != kSuccess) return st;
  if ((st = mc2CheckTypes(api, typed)) != kSuccess) return st;
  if (p.kind == MatmulPart::Kind::kQuant && (x1->desc.dtype != ACL_INT8 || x2->desc.dtype != ACL_INT8)) {
    return fail(api, kErrParamInvalid,
                fmt::format("x1 and x2 must be int8, but are {} and {}", dtypeName(x1->desc.dtype),
                            dtypeName(x2->desc.dtype)));
  }
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
  inst->builtOn = inst->inputs;
  inst->builtOn.insert(inst->builtOn.end(), inst->outputs.begin(), inst->outputs.end());
  const int32_t st = makeExecutor(api, std::move(inst), workspaceSize, executor);
  if (st == kSuccess) (*executor)->workspaceSize = *workspaceSize = bytes;
  return st;
}

using Typed = std::initializer_list<std::pair<const char*, const aclTensor*>>;

// The all-reduce operators: output = AllReduce(product + bias (+ x3)).
// commScale1/2 (QuantMatmulAllReduceV3): the reduction through int8 communication instead.
int32_t buildAllReduce(const char* api, const OpInfo& info, const MatmulPart& p, const aclTensor* x3,
                       const char* group, const char* reduceOp, int64_t commTurn, int64_t streamMode,
                       const aclTensor* output, Typed typed, uint64_t* workspaceSize,
                       aclOpExecutor** executor, const aclTensor* commScale1 = nullptr,
                       const aclTensor* commScale2 = nullptr) {
  int32_t st = checkCommon(api, p, output, reduceOp, commTurn, streamMode, typed);
  if (st != kSuccess) return st;
  if ((st = requireRank(api, "x1", *p.x1, 2, 3)) != kSuccess) return st;
  const int64_t n = p.x2->desc.shape[1];
  std::vector<int64_t> outShape = p.x1->desc.shape;
  outShape.back() = n;
  if ((st = checkBias(api, p.bias, n)) != kSuccess) return st;
  if ((st = checkShape(api, "output", output->desc.shape, outShape)) != kSuccess) return st;
  if (x3 != nullptr && (st = checkShape(api, "x3", x3->desc.shape, outShape)) != kSuccess) return st;
  if ((st = requireContiguous(api, "output", *output)) != kSuccess) return st;
  Mc2Comm comm;
  if ((st = mc2ResolveGroup(api, group, &comm)) != kSuccess) return st;

  auto inst = newInstance(info, group, {{"x1", p.x1}, {"x2", p.x2}, {"bias", p.bias}, {"x3", x3}},
                          {{"output", output}});
  if (output->desc.numel() > 0) {
    const aclDataType dt = output->desc.dtype;
    const aclTensor mm = workspaceTensor(*inst, dt, {output->desc.numel() / n, n});
    if ((st = matmulStep(api, info, *inst, p, mm)) != kSuccess) return st;
    if (x3 != nullptr) {
      aclTensor x3Rows;
      if ((st = rowsView(api, "x3", *x3, &x3Rows)) != kSuccess) return st;
      float one = 1.0f;
      aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
      uint64_t ws = 0;
      aclOpExecutor* ex = nullptr;
      st = aclnnInplaceAddGetWorkspaceSize(&mm, &x3Rows, alpha, &ws, &ex);
      aclDestroyScalar(alpha);
      if ((st = addOpStep(*inst, st, ex, info.name + " add x3")) != kSuccess) return st;
    }
    if (commScale1 != nullptr) {
      auto alloc = [&inst](aclDataType type, std::vector<int64_t> shape) {
        return workspaceTensor(*inst, type, shape);
      };
      st = mc2Int8AllReduce(api, info.name, *inst, mm, *commScale1, *commScale2, *output, comm.rankSize,
                            alloc);
      if (st != kSuccess) return st;
    } else {
      inst->steps.push_back(mc2Collective(HCCL_CMD_ALLREDUCE, mc2Address(mm), mc2Address(*output),
                                          static_cast<uint64_t>(output->desc.numel()), dt));
    }
  }
  return finish(api, std::move(inst), workspaceSize, executor);
}

// The add + RMS norm operators; `y` null: the in-place form writes y into residual.
int32_t buildAddRmsNorm(const char* api, const OpInfo& info, const MatmulPart& p, const aclTensor* residual,
                        const aclTensor* gamma, double epsilon, const char* group, const char* reduceOp,
                        int64_t commTurn, int64_t streamMode, const aclTensor* y, const aclTensor* normOut,
                        Typed typed, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const bool inplace = y == nullptr;
  int32_t st = checkNotNull(api, {{"residual", residual}, {"gamma", gamma}, {"normOut", normOut}});
  if (st != kSuccess) return st;
  if ((st = checkCommon(api, p, normOut, reduceOp, commTurn, streamMode, typed)) != kSuccess) return st;
  if ((st = requireRank(api, "x1", *p.x1, 2, 3)) != kSuccess) return st;
  if ((st = requireRank(api, "residual", *residual, 3, 3)) != kSuccess) return st;
  if (!(epsilon > 0 && epsilon < 1)) {
    return fail(api, kErrParamInvalid, fmt::format("epsilon must be in (0, 1), but is {}", epsilon));
  }
  if (p.x1->desc.shape.back() == 0)
    return fail(api, kErrParamInvalid, "x1's k axis is 0, which is not supported");
  const int64_t n = p.x2->desc.shape[1];
  const std::vector<int64_t>& rs = residual->desc.shape;
  const int64_t rows = p.x1->desc.numel() / p.x1->desc.shape.back();
  if (rs[2] != n || rs[0] * rs[1] != rows) {
    return fail(api, kErrParamInvalid,
                fmt::format("residual {} must be (b, s, n) with b * s = {} rows of x1 and n = {}",
                            shapeString(rs), rows, n));
  }
  if ((st = checkBias(api, p.bias, n)) != kSuccess) return st;
  if ((st = checkShape(api, "gamma", gamma->desc.shape, {n})) != kSuccess) return st;
  if (!inplace && (st = checkShape(api, "y", y->desc.shape, rs)) != kSuccess) return st;
  if ((st = checkShape(api, "normOut", normOut->desc.shape, rs)) != kSuccess) return st;
  Mc2Comm comm;
  if ((st = mc2ResolveGroup(api, group, &comm)) != kSuccess) return st;

  auto inst = newInstance(
      info, group, {{"x1", p.x1}, {"x2", p.x2}, {"bias", p.bias}, {"residual", residual}, {"gamma", gamma}},
      {{"y", y}, {"normOut", normOut}});
  if (inplace) {
    const int residualIndex = static_cast<int>(inst->inputs.size()) - 2;  // before gamma
    addOutput(*inst, "residual", residual, residualIndex);
  }
  inst->attrs += fmt::format(", epsilon={}", epsilon);
  if (normOut->desc.numel() > 0) {
    const aclDataType dt = normOut->desc.dtype;
    const aclTensor mm = workspaceTensor(*inst, dt, {rows, n});
    const aclTensor sum = workspaceTensor(*inst, dt, rs);
    aclTensor rstd = workspaceTensor(*inst, ACL_FLOAT, {rs[0], rs[1]});
    if ((st = matmulStep(api, info, *inst, p, mm)) != kSuccess) return st;
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
using Kind = MatmulPart::Kind;

extern "C" aclnnStatus aclnnMatmulAllReduceGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                            const aclTensor* bias, const char* group,
                                                            const char* reduceOp, int64_t commTurn,
                                                            int64_t streamMode, const aclTensor* output,
                                                            uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  return buildAllReduce("aclnnMatmulAllReduceGetWorkspaceSize", kAllReduce, {Kind::kFloat, x1, x2, bias},
                        nullptr, group, reduceOp, commTurn, streamMode, output,
                        {{"x1", x1}, {"x2", x2}, {"output", output}, {"bias", bias}}, workspaceSize,
                        executor);
}

extern "C" aclnnStatus aclnnMatmulAllReduceV2GetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const aclTensor* x3, const char* group,
    const char* reduceOp, int64_t commTurn, int64_t streamMode, const aclTensor* output,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildAllReduce("aclnnMatmulAllReduceV2GetWorkspaceSize", kAllReduceV2, {Kind::kFloat, x1, x2, bias},
                        x3, group, reduceOp, commTurn, streamMode, output,
                        {{"x1", x1}, {"x2", x2}, {"output", output}, {"bias", bias}, {"x3", x3}},
                        workspaceSize, executor);
}

// The int8 forms: dequantScale per channel (fp32/bf16, or uint64/int64 from aclnnTransQuantParam),
// pertokenScale per row of x1 (V2, V3).
static aclnnStatus quantAllReduce(const char* api, const OpInfo& info, const aclTensor* x1,
                                  const aclTensor* x2, const aclTensor* bias, const aclTensor* x3,
                                  const aclTensor* dequantScale, const aclTensor* pertokenScale,
                                  const char* group, const char* reduceOp, int64_t commTurn,
                                  int64_t streamMode, const aclTensor* output, uint64_t* workspaceSize,
                                  aclOpExecutor** executor, const aclTensor* commScale1 = nullptr,
                                  const aclTensor* commScale2 = nullptr) {
  MatmulPart p{Kind::kQuant, x1, x2, bias};
  p.dequantScale = dequantScale;
  p.pertokenScale = pertokenScale;
  return buildAllReduce(
      api, info, p, x3, group, reduceOp, commTurn, streamMode, output,
      {{"output", output}, {"x3", x3}, {"commQuantScale1", commScale1}, {"commQuantScale2", commScale2}},
      workspaceSize, executor, commScale1, commScale2);
}

extern "C" aclnnStatus aclnnQuantMatmulAllReduceGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const aclTensor* x3,
    const aclTensor* dequantScale, const char* group, const char* reduceOp, int64_t commTurn,
    int64_t streamMode, const aclTensor* output, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return quantAllReduce("aclnnQuantMatmulAllReduceGetWorkspaceSize", kQuantAllReduce, x1, x2, bias, x3,
                        dequantScale, nullptr, group, reduceOp, commTurn, streamMode, output, workspaceSize,
                        executor);
}

extern "C" aclnnStatus aclnnQuantMatmulAllReduceV2GetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* biasOptional, const aclTensor* x3Optional,
    const aclTensor* dequantScale, const aclTensor* pertokenScaleOptional, const char* group,
    const char* reduceOp, int64_t commTurn, int64_t streamMode, const aclTensor* output,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return quantAllReduce("aclnnQuantMatmulAllReduceV2GetWorkspaceSize", kQuantAllReduceV2, x1, x2,
                        biasOptional, x3Optional, dequantScale, pertokenScaleOptional, group, reduceOp,
                        commTurn, streamMode, output, workspaceSize, executor);
}

// V3: with commQuantScale1/2 (both or neither, (n), output's type) the reduction is the int8
// communication of mc2_int8_comm.cpp.
extern "C" aclnnStatus aclnnQuantMatmulAllReduceV3GetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* biasOptional, const aclTensor* x3Optional,
    const aclTensor* dequantScale, const aclTensor* pertokenScaleOptional,
    const aclTensor* commQuantScale1Optional, const aclTensor* commQuantScale2Optional, const char* group,
    const char* reduceOp, int64_t commTurn, int64_t streamMode, const aclTensor* output,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnQuantMatmulAllReduceV3GetWorkspaceSize";
  const aclTensor *s1 = commQuantScale1Optional, *s2 = commQuantScale2Optional;
  if ((s1 == nullptr) != (s2 == nullptr)) {
    return fail(api, kErrParamInvalid,
                "commQuantScale1 and commQuantScale2 must both be given or both be null");
  }
  if (s1 != nullptr && x2 != nullptr) {
    const int64_t n = x2->desc.rank() == 2 ? x2->desc.shape[1] : -1;
    int32_t st = checkShape(api, "commQuantScale1", s1->desc.shape, {n});
    if (st == kSuccess) st = checkShape(api, "commQuantScale2", s2->desc.shape, {n});
    if (st != kSuccess) return st;
  }
  return quantAllReduce(api, kQuantAllReduceV3, x1, x2, biasOptional, x3Optional, dequantScale,
                        pertokenScaleOptional, group, reduceOp, commTurn, streamMode, output, workspaceSize,
                        executor, s1, s2);
}

extern "C" aclnnStatus aclnnWeightQuantMatmulAllReduceGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const aclTensor* antiquantScale,
    const aclTensor* antiquantOffset, const aclTensor* x3, const char* group, const char* reduceOp,
    int64_t commTurn, int64_t streamMode, int64_t antiquantGroupSize, const aclTensor* output,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  MatmulPart p{Kind::kWeightQuant, x1, x2, bias};
  p.antiquantScale = antiquantScale;
  p.antiquantOffset = antiquantOffset;
  p.antiquantGroupSize = antiquantGroupSize;
  return buildAllReduce("aclnnWeightQuantMatmulAllReduceGetWorkspaceSize", kWeightQuantAllReduce, p, x3,
                        group, reduceOp, commTurn, streamMode, output,
                        {{"x1", x1},
                         {"output", output},
                         {"bias", bias},
                         {"x3", x3},
                         {"antiquantScale", antiquantScale},
                         {"antiquantOffset", antiquantOffset}},
                        workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMatmulReduceScatterGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                                const aclTensor* bias, const char* group,
                                                                const char* reduceOp, int64_t commTurn,
                                                                int64_t streamMode, const aclTensor* output,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor) {
  const char* api = "aclnnMatmulReduceScatterGetWorkspaceSize";
  const MatmulPart p{Kind::kFloat, x1, x2, bias};
  int32_t st = checkCommon(api, p, output, reduceOp, commTurn, streamMode,
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
    if ((st = matmulStep(api, kReduceScatter, *inst, p, mm)) != kSuccess) return st;
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
      checkCommon(api, {Kind::kFloat, x1, x2, bias}, output, "sum", commTurn, streamMode,
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
    if ((st = matmulStep(api, kAllGather, *inst, {Kind::kFloat, &all, x2, bias}, *output)) != kSuccess)
      return st;
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
  return buildAddRmsNorm(api, kAddRmsNorm, {Kind::kFloat, x1, x2, bias}, residual, gamma, epsilon, group,
                         reduceOp, commTurn, streamMode, y, normOut,
                         {{"x1", x1},
                          {"x2", x2},
                          {"bias", bias},
                          {"residual", residual},
                          {"gamma", gamma},
                          {"y", y},
                          {"normOut", normOut}},
                         workspaceSize, executor);
}

extern "C" aclnnStatus aclnnInplaceMatmulAllReduceAddRmsNormGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const aclTensor* residual,
    const aclTensor* gamma, double epsilon, const char* group, const char* reduceOp, int64_t commTurn,
    int64_t streamMode, const aclTensor* normOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildAddRmsNorm("aclnnInplaceMatmulAllReduceAddRmsNormGetWorkspaceSize", kInplaceAddRmsNorm,
                         {Kind::kFloat, x1, x2, bias}, residual, gamma, epsilon, group, reduceOp, commTurn,
                         streamMode, nullptr, normOut,
                         {{"x1", x1},
                          {"x2", x2},
                          {"bias", bias},
                          {"residual", residual},
                          {"gamma", gamma},
                          {"normOut", normOut}},
                         workspaceSize, executor);
}

// The int8 add + RMS norm forms; `y` null: in place.
static aclnnStatus quantAddRmsNorm(const char* api, const OpInfo& info, const aclTensor* x1,
                                   const aclTensor* x2, const aclTensor* bias, const aclTensor* dequantScale,
                                   const aclTensor* residual, const aclTensor* gamma, double epsilon,
                                   const char* group, const char* reduceOp, int64_t commTurn,
                                   int64_t streamMode, const aclTensor* y, const aclTensor* normOut,
                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  MatmulPart p{Kind::kQuant, x1, x2, bias};
  p.dequantScale = dequantScale;
  return buildAddRmsNorm(api, info, p, residual, gamma, epsilon, group, reduceOp, commTurn, streamMode, y,
                         normOut, {{"residual", residual}, {"gamma", gamma}, {"y", y}, {"normOut", normOut}},
                         workspaceSize, executor);
}

extern "C" aclnnStatus aclnnQuantMatmulAllReduceAddRmsNormGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const aclTensor* dequantScale,
    const aclTensor* residual, const aclTensor* gamma, double epsilon, const char* group,
    const char* reduceOp, int64_t commTurn, int64_t streamMode, const aclTensor* y, const aclTensor* normOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnQuantMatmulAllReduceAddRmsNormGetWorkspaceSize";
  if (y == nullptr) return fail(api, kErrParamNullptr, "y must not be nullptr");
  return quantAddRmsNorm(api, kQuantAddRmsNorm, x1, x2, bias, dequantScale, residual, gamma, epsilon, group,
                         reduceOp, commTurn, streamMode, y, normOut, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnInplaceQuantMatmulAllReduceAddRmsNormGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const aclTensor* dequantScale,
    const aclTensor* residual, const aclTensor* gamma, double epsilon, const char* group,
    const char* reduceOp, int64_t commTurn, int64_t streamMode, const aclTensor* normOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return quantAddRmsNorm("aclnnInplaceQuantMatmulAllReduceAddRmsNormGetWorkspaceSize",
                         kInplaceQuantAddRmsNorm, x1, x2, bias, dequantScale, residual, gamma, epsilon, group,
                         reduceOp, commTurn, streamMode, nullptr, normOut, workspaceSize, executor);
}

// The weight-quantised add + RMS norm forms; `y` null: in place.
static aclnnStatus weightQuantAddRmsNorm(const char* api, const OpInfo& info, const aclTensor* x1,
                                         const aclTensor* x2, const aclTensor* bias,
                                         const aclTensor* antiquantScale, const aclTensor* antiquantOffset,
                                         const aclTensor* residual, const aclTensor* gamma, double epsilon,
                                         const char* group, const char* reduceOp, int64_t commTurn,
                                         int64_t streamMode, int64_t antiquantGroupSize, const aclTensor* y,
                                         const aclTensor* normOut, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  MatmulPart p{Kind::kWeightQuant, x1, x2, bias};
  p.antiquantScale = antiquantScale;
  p.antiquantOffset = antiquantOffset;
  p.antiquantGroupSize = antiquantGroupSize;
  return buildAddRmsNorm(api, info, p, residual, gamma, epsilon, group, reduceOp, commTurn, streamMode, y,
                         normOut,
                         {{"x1", x1},
                          {"bias", bias},
                          {"antiquantScale", antiquantScale},
                          {"antiquantOffset", antiquantOffset},
                          {"residual", residual},
                          {"gamma", gamma},
                          {"y", y},
                          {"normOut", normOut}},
                         workspaceSize, executor);
}

extern "C" aclnnStatus aclnnWeightQuantMatmulAllReduceAddRmsNormGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const aclTensor* antiquantScale,
    const aclTensor* antiquantOffset, const aclTensor* residual, const aclTensor* gamma, double epsilon,
    const char* group, const char* reduceOp, int64_t commTurn, int64_t streamMode, int64_t antiquantGroupSize,
    const aclTensor* y, const aclTensor* normOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnWeightQuantMatmulAllReduceAddRmsNormGetWorkspaceSize";
  if (y == nullptr) return fail(api, kErrParamNullptr, "y must not be nullptr");
  return weightQuantAddRmsNorm(api, kWeightQuantAddRmsNorm, x1, x2, bias, antiquantScale, antiquantOffset,
                               residual, gamma, epsilon, group, reduceOp, commTurn, streamMode,
                               antiquantGroupSize, y, normOut, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnInplaceWeightQuantMatmulAllReduceAddRmsNormGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const aclTensor* antiquantScale,
    const aclTensor* antiquantOffset, const aclTensor* residual, const aclTensor* gamma, double epsilon,
    const char* group, const char* reduceOp, int64_t commTurn, int64_t streamMode, int64_t antiquantGroupSize,
    const aclTensor* normOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return weightQuantAddRmsNorm("aclnnInplaceWeightQuantMatmulAllReduceAddRmsNormGetWorkspaceSize",
                               kInplaceWeightQuantAddRmsNorm, x1, x2, bias, antiquantScale, antiquantOffset,
                               residual, gamma, epsilon, group, reduceOp, commTurn, streamMode,
                               antiquantGroupSize, nullptr, normOut, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(MatmulAllReduce)
NPUSIM_ACLNN_PHASE2(MatmulAllReduceV2)
NPUSIM_ACLNN_PHASE2(QuantMatmulAllReduce)
NPUSIM_ACLNN_PHASE2(QuantMatmulAllReduceV2)
NPUSIM_ACLNN_PHASE2(QuantMatmulAllReduceV3)
NPUSIM_ACLNN_PHASE2(WeightQuantMatmulAllReduce)
NPUSIM_ACLNN_PHASE2(MatmulReduceScatter)
NPUSIM_ACLNN_PHASE2(AllGatherMatmul)
NPUSIM_ACLNN_PHASE2(MatmulAllReduceAddRmsNorm)
NPUSIM_ACLNN_PHASE2(InplaceMatmulAllReduceAddRmsNorm)
NPUSIM_ACLNN_PHASE2(QuantMatmulAllReduceAddRmsNorm)
NPUSIM_ACLNN_PHASE2(InplaceQuantMatmulAllReduceAddRmsNorm)
NPUSIM_ACLNN_PHASE2(WeightQuantMatmulAllReduceAddRmsNorm)
NPUSIM_ACLNN_PHASE2(InplaceWeightQuantMatmulAllReduceAddRmsNorm)
