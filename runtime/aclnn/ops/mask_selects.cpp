// Operators on the mask engine (where_op.h): aclnnSWhere (ops-math math/select,
// experimental/math/select_v2), aclnnSelectV3, the in-place masked fills (conversion/masked_fill)
// and aclnnInplaceMaskedScatter (ops-nn index/masked_scatter).
#include <fmt/format.h>

#include <memory>
#include <string>

#include "aclnnop/aclnn_masked_fill.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_masked_fill_tensor.h"
#include "aclnnop/aclnn_masked_scatter.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_select_v3.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/where_op.h"

namespace npusim::aclnn {
namespace {

const OpInfo kSWhere{"aclnnSWhere",
                     ExecUnit::kVector,
                     {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                      ACL_INT64, ACL_BOOL},
                     "out = condition ? self : other (broadcast, promoted type)"};
const OpRegistrar kSWhereRegistrar(kSWhere);
// aclnnInplaceMaskedFill{Scalar,Tensor}.md: selfRef BOOL, INT8, INT32, INT64, FLOAT, FLOAT16, BFLOAT16.
const OpInfo kMaskedFillScalar{"aclnnInplaceMaskedFillScalar",
                               ExecUnit::kVector,
                               {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT32, ACL_INT64, ACL_BOOL},
                               "selfRef = mask ? value : selfRef"};
const OpRegistrar kMaskedFillScalarRegistrar(kMaskedFillScalar);
const OpInfo kMaskedFillTensor{"aclnnInplaceMaskedFillTensor", ExecUnit::kVector, kMaskedFillScalar.dtypes,
                               "selfRef = mask ? value : selfRef (value a 0-d tensor)"};
const OpRegistrar kMaskedFillTensorRegistrar(kMaskedFillTensor);

// experimental/math/select_v3: z = b != 0 ? x : y with an int8 b, all of one shape.
const OpInfo kSelectV3{"aclnnSelectV3", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16}, "z = b != 0 ? x : y"};
const OpRegistrar kSelectV3Registrar(kSelectV3);

const OpInfo kMaskedScatter{"aclnnInplaceMaskedScatter",
                            ExecUnit::kVector,
                            {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16,
                             ACL_INT32, ACL_INT64, ACL_BOOL},
                            "selfRef[k-th true of mask] = source.flat[k]"};
const OpRegistrar kMaskedScatterRegistrar(kMaskedScatter);

// experimental/math/masked_fill's op definition: BF16, FLOAT16, FLOAT, DOUBLE, UINT8, UINT16,
// UINT32, UINT64, INT8, INT16, INT32, INT64.
const OpInfo kMaskedFill{"aclnnMaskedFill",
                         ExecUnit::kVector,
                         {ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_UINT8, ACL_UINT16, ACL_UINT32,
                          ACL_UINT64, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64},
                         "z = mask ? value : x"};
const OpRegistrar kMaskedFillRegistrar(kMaskedFill);

int32_t checkMask(const char* api, const char* name, const aclTensor* mask, bool allowUint8) {
  int32_t st = checkTensor(api, name, mask->desc);
  if (st != kSuccess) return st;
  if (mask->desc.dtype != ACL_BOOL && !(allowUint8 && mask->desc.dtype == ACL_UINT8)) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} type must be bool{}, not {}", name, allowUint8 ? " or uint8" : "",
                            dtypeName(mask->desc.dtype)));
  }
  return kSuccess;
}

// 161002 unless mask broadcasts to selfRef's own shape (the in-place forms write selfRef).
int32_t checkMaskFitsSelf(const char* api, const aclTensor* selfRef, const aclTensor* mask) {
  std::vector<int64_t> shape;
  if (!broadcastShapes(selfRef->desc.shape, mask->desc.shape, &shape) || shape != selfRef->desc.shape) {
    return fail(api, kErrParamInvalid,
                fmt::format("mask shape {} does not broadcast to selfRef shape {}",
                            shapeString(mask->desc.shape), shapeString(selfRef->desc.shape)));
  }
  return kSuccess;
}

// A select named `name` over `inputs` (in this order): out = input `cond` ? input `whenTrue`
// (-1: a host scalar, set by the caller) : input `whenFalse`.
std::unique_ptr<WhereInstance> makeSelect(
    const std::string& name, std::initializer_list<std::pair<const char*, const aclTensor*>> inputs, int cond,
    int whenTrue, int whenFalse) {
  auto inst = std::make_unique<WhereInstance>();
  inst->name = name;
  for (auto [n, t] : inputs) addInput(*inst, n, t);
  inst->condInput = cond;
  inst->trueInput = whenTrue;
  inst->falseInput = whenFalse;
  return inst;
}

// selfRef = mask ? (value tensor or scalar) : selfRef; mask broadcasts to selfRef's shape.
int32_t maskedFill(const char* api, const OpInfo& info, aclTensor* selfRef, const aclTensor* mask,
                   const aclTensor* valueTensor, const aclScalar* valueScalar, uint64_t* workspaceSize,
                   aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"selfRef", selfRef}, {"mask", mask}});
  if (st == kSuccess)
    st =
        valueTensor == nullptr && valueScalar == nullptr ? checkNotNull(api, {{"value", nullptr}}) : kSuccess;
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "selfRef", selfRef->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "selfRef", selfRef->desc.dtype, info)) != kSuccess) return st;
  if ((st = checkMask(api, "mask", mask, false)) != kSuccess) return st;
  if ((st = checkMaskFitsSelf(api, selfRef, mask)) != kSuccess) return st;
  auto inst = makeSelect(info.name, {{"selfRef", selfRef}, {"mask", mask}}, 1, -1, 0);
  if (valueTensor != nullptr) {
    if ((st = checkTensor(api, "value", valueTensor->desc)) != kSuccess) return st;
    if (valueTensor->desc.numel() != 1 || valueTensor->desc.rank() > 1) {
      return fail(api, kErrParamInvalid,
                  fmt::format("value must be a 0-d (or one-element 1-d) tensor, not {}",
                              shapeString(valueTensor->desc.shape)));
    }
    addInput(*inst, "value", valueTensor);
    inst->trueInput = 2;
  } else {
    inst->trueScalar = valueScalar->value;
    inst->attrs = "value=" + valueScalar->value.str();
  }
  addOutput(*inst, "selfRef", selfRef, 0);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor* condition, const aclTensor* self,
                                                   const aclTensor* other, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnSWhereGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"condition", condition}, {"self", self}, {"other", other}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkMask(api, "condition", condition, true)) != kSuccess) return st;
  for (auto [name, t] : {std::pair{"self", self}, {"other", other}, {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kSWhere)) != kSuccess) return st;
  }
  const aclDataType promoted = promoteTypes(self->desc.dtype, other->desc.dtype);
  if (promoted == ACL_DT_UNDEFINED || !canCast(promoted, out->desc.dtype)) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("self {} and other {} promote to no type that out {} can hold",
                    dtypeName(self->desc.dtype), dtypeName(other->desc.dtype), dtypeName(out->desc.dtype)));
  }
  std::vector<int64_t> shape, both;
  if (!broadcastShapes(self->desc.shape, other->desc.shape, &both) ||
      !broadcastShapes(both, condition->desc.shape, &shape)) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("condition {}, self {} and other {} do not broadcast", shapeString(condition->desc.shape),
                    shapeString(self->desc.shape), shapeString(other->desc.shape)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  auto inst =
      makeSelect("aclnnSWhere", {{"condition", condition}, {"self", self}, {"other", other}}, 0, 1, 2);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(SWhere)

extern "C" aclnnStatus aclnnInplaceMaskedFillScalarGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask,
                                                                    const aclScalar* value,
                                                                    uint64_t* workspaceSize,
                                                                    aclOpExecutor** executor) {
  return maskedFill("aclnnInplaceMaskedFillScalarGetWorkspaceSize", kMaskedFillScalar, selfRef, mask, nullptr,
                    value, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceMaskedFillScalar)

extern "C" aclnnStatus aclnnInplaceMaskedFillTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask,
                                                                    const aclTensor* value,
                                                                    uint64_t* workspaceSize,
                                                                    aclOpExecutor** executor) {
  if (value == nullptr) {
    return checkNotNull("aclnnInplaceMaskedFillTensorGetWorkspaceSize", {{"value", value}});
  }
  return maskedFill("aclnnInplaceMaskedFillTensorGetWorkspaceSize", kMaskedFillTensor, selfRef, mask, value,
                    nullptr, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceMaskedFillTensor)

extern "C" aclnnStatus aclnnSelectV3GetWorkspaceSize(const aclTensor* x, const aclTensor* y,
                                                     const aclTensor* b, const aclTensor* z,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnSelectV3GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x", x}, {"y", y}, {"b", b}, {"z", z}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"x", x}, {"y", y}, {"z", z}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kSelectV3)) != kSuccess) return st;
    if (t->desc.dtype != x->desc.dtype)
      return fail(api, kErrParamInvalid,
                  fmt::format("{} type must equal x type {}", name, dtypeName(x->desc.dtype)));
    if ((st = checkShape(api, name, t->desc.shape, x->desc.shape)) != kSuccess) return st;
  }
  if ((st = checkTensor(api, "b", b->desc)) != kSuccess) return st;
  if (b->desc.dtype != ACL_INT8)
    return fail(api, kErrParamInvalid, fmt::format("b type must be int8, not {}", dtypeName(b->desc.dtype)));
  if ((st = checkShape(api, "b", b->desc.shape, x->desc.shape)) != kSuccess) return st;
  auto inst = makeSelect("aclnnSelectV3", {{"x", x}, {"y", y}, {"b", b}}, 2, 0, 1);
  addOutput(*inst, "z", z);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(SelectV3)

// The mask's true count is data; a source with fewer elements leaves the rest of selfRef as it
// was (the device's behaviour there is not documented).
extern "C" aclnnStatus aclnnInplaceMaskedScatterGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask,
                                                                 const aclTensor* source,
                                                                 uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor) {
  const char* api = "aclnnInplaceMaskedScatterGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"selfRef", selfRef}, {"mask", mask}, {"source", source}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "selfRef", selfRef->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "selfRef", selfRef->desc.dtype, kMaskedScatter)) != kSuccess) return st;
  if ((st = checkMask(api, "mask", mask, false)) != kSuccess) return st;
  if ((st = checkTensor(api, "source", source->desc)) != kSuccess) return st;
  if (source->desc.dtype != selfRef->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("source type {} must equal selfRef type {}", dtypeName(source->desc.dtype),
                            dtypeName(selfRef->desc.dtype)));
  }
  if ((st = checkMaskFitsSelf(api, selfRef, mask)) != kSuccess) return st;
  auto inst = makeSelect("aclnnInplaceMaskedScatter",
                         {{"selfRef", selfRef}, {"mask", mask}, {"source", source}}, 1, 2, 0);
  inst->consecutive = true;
  addOutput(*inst, "selfRef", selfRef, 0);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceMaskedScatter)

extern "C" aclnnStatus aclnnMaskedFillGetWorkspaceSize(const aclTensor* x, const aclTensor* mask,
                                                       const aclScalar* value, const aclTensor* z,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMaskedFillGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x", x}, {"mask", mask}, {"value", value}, {"z", z}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"x", x}, {"z", z}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kMaskedFill)) != kSuccess) return st;
  }
  if (z->desc.dtype != x->desc.dtype)
    return fail(api, kErrParamInvalid, fmt::format("z type must equal x type {}", dtypeName(x->desc.dtype)));
  if ((st = checkMask(api, "mask", mask, false)) != kSuccess) return st;
  std::vector<int64_t> shape;
  if (!broadcastShapes(x->desc.shape, mask->desc.shape, &shape)) {
    return fail(api, kErrParamInvalid,
                fmt::format("mask {} and x {} do not broadcast", shapeString(mask->desc.shape),
                            shapeString(x->desc.shape)));
  }
  if ((st = checkShape(api, "z", z->desc.shape, shape)) != kSuccess) return st;
  auto inst = makeSelect("aclnnMaskedFill", {{"x", x}, {"mask", mask}}, 1, -1, 0);
  inst->trueScalar = value->value;
  inst->attrs = "value=" + value->value.str();
  addOutput(*inst, "z", z);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(MaskedFill)
