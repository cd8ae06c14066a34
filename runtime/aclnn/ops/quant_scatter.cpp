// aclnnInplaceQuantScatter and aclnnInplaceQuantScatterV2 (ops-nn index/quant_update_scatter):
// updates quantised to int8 along its last axis (quantAxis -1), then written into selfRef at an
// offset along axis -2: for batch b < updates.shape[0],
//   selfRef[b][.., indices[b] + j, :] = rint(updates[b][.., j, :] / quantScales + quantZeroPoints)
// saturated to int8 (the Quantize formula the V2 doc names; the kernels divide unless told the
// scales are reciprocals, which these entry points never do). As the kernels: fp32 arithmetic
// on the widened inputs, NaN gives 0. V2 adds roundMode, of which int8 takes only "rint".
// An offset that puts the slice outside selfRef is an execution error and the batch is skipped.
// Cost: updates, indices, scales and zero points read, the int8 slices written, 3 vector passes.
#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_quant_scatter.h"
#include "aclnnop/aclnn_quant_scatter_v2.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

// The docs: selfRef INT8; indices INT32, INT64; (updates, quantScales, quantZeroPoints) =
// (FLOAT16, FLOAT32, INT32) or (BFLOAT16, BFLOAT16, BFLOAT16).
const OpInfo kInfoV1{"aclnnInplaceQuantScatter",
                     ExecUnit::kVector,
                     {ACL_FLOAT16, ACL_BF16},
                     "selfRef[b][.., indices[b] + j, :] = int8(rint(updates / scales + zeroPoints))"};
const OpInfo kInfoV2{"aclnnInplaceQuantScatterV2",
                     ExecUnit::kVector,
                     {ACL_FLOAT16, ACL_BF16},
                     "selfRef[b][.., indices[b] + j, :] = int8(round(updates / scales + zeroPoints))"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kInfoV1), OpRegistrar(kInfoV2)};

// Inputs: selfRef, indices, updates, quantScales, [quantZeroPoints]; output: selfRef.
class QuantScatterInstance : public OpInstanceBase<QuantScatterInstance> {
 public:
  bool hasZeroPoints = false;
  TensorDesc written;  // the int8 slices: updates' shape

  rt::OpWork work() const override {
    const std::vector<TensorDesc> read(inputs.begin() + 1, inputs.end());
    return vectorTiles(VectorPass{&read, &written, written.numel(), 3});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    std::vector<int64_t> self = loadDense<int64_t>(in[0]);
    const std::vector<int64_t> indices = loadDense<int64_t>(in[1]);
    const std::vector<float> x = loadDense<float>(in[2]);
    const std::vector<float> scale = loadDense<float>(in[3]);
    const std::vector<float> zero =
        hasZeroPoints ? loadDense<float>(in[4]) : std::vector<float>(scale.size(), 0.f);
    const std::vector<int64_t>& s = in[0].shape;
    const std::vector<int64_t>& u = in[2].shape;
    const size_t r = s.size();
    const int64_t h = u[r - 1];  // quantised axis, whole in both
    const int64_t rowsSelf = s[r - 2], rowsUpd = u[r - 2];
    const int64_t middle = dimProduct(u, 1, r - 2);  // dims between batch and axis (equal in both)
    for (int64_t b = 0; b < u[0]; ++b) {
      const int64_t start = indices[static_cast<size_t>(b)];
      if (start < 0 || start + rowsUpd > rowsSelf) {
        reportExecutionError(name.c_str(), fmt::format("indices[{}] = {} puts {} rows outside selfRef's {}",
                                                       b, start, rowsUpd, rowsSelf));
        continue;
      }
      for (int64_t m = 0; m < middle; ++m) {
        for (int64_t j = 0; j < rowsUpd; ++j) {
          const int64_t src = ((b * middle + m) * rowsUpd + j) * h;
          const int64_t dst = ((b * middle + m) * rowsSelf + start + j) * h;
          for (int64_t k = 0; k < h; ++k) {
            const float y = std::rint(x[static_cast<size_t>(src + k)] / scale[static_cast<size_t>(k)] +
                                      zero[static_cast<size_t>(k)]);
            self[static_cast<size_t>(dst + k)] =
                std::isnan(y) ? 0 : static_cast<int64_t>(std::fmin(127.f, std::fmax(-128.f, y)));
          }
        }
      }
    }
    storeDense(out[0], self.data());
  }
};

int32_t build(const OpInfo& info, aclTensor* selfRef, const aclTensor* indices, const aclTensor* updates,
              const aclTensor* scales, const aclTensor* zeroPoints, int64_t axis, int64_t quantAxis,
              int64_t reduction, const char* roundMode, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const std::string apiName = info.name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(
      api, {{"selfRef", selfRef}, {"indices", indices}, {"updates", updates}, {"quantScales", scales}});
  if (st != kSuccess) return st;
  std::vector<std::pair<const char*, const aclTensor*>> all = {
      {"selfRef", selfRef}, {"indices", indices}, {"updates", updates}, {"quantScales", scales}};
  if (zeroPoints != nullptr) all.emplace_back("quantZeroPoints", zeroPoints);
  for (auto [name, t] : all) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  const aclDataType ut = updates->desc.dtype, stt = scales->desc.dtype;
  if (selfRef->desc.dtype != ACL_INT8)
    return fail(api, kErrParamInvalid,
                fmt::format("selfRef type must be int8, not {}", dtypeName(selfRef->desc.dtype)));
  if (indices->desc.dtype != ACL_INT32 && indices->desc.dtype != ACL_INT64)
    return fail(api, kErrParamInvalid,
                fmt::format("indices type must be int32 or int64, not {}", dtypeName(indices->desc.dtype)));
  const aclDataType wantScale = ut == ACL_FLOAT16 ? ACL_FLOAT : ACL_BF16;
  const aclDataType wantZero = ut == ACL_FLOAT16 ? ACL_INT32 : ACL_BF16;
  if ((st = checkDtype(api, "updates", ut, info)) != kSuccess) return st;
  if (stt != wantScale || (zeroPoints != nullptr && zeroPoints->desc.dtype != wantZero))
    return fail(
        api, kErrParamInvalid,
        fmt::format("(updates, quantScales, quantZeroPoints) types must be (fp16, fp32, int32) or (bf16, "
                    "bf16, bf16), not ({}, {}, {})",
                    dtypeName(ut), dtypeName(stt),
                    zeroPoints != nullptr ? dtypeName(zeroPoints->desc.dtype) : std::string("none")));
  if (roundMode != nullptr && std::string(roundMode) != "rint")
    return fail(api, kErrParamInvalid,
                fmt::format("roundMode '{}' is not supported for int8 (only \"rint\")", roundMode));
  const TensorDesc &s = selfRef->desc, &u = updates->desc;
  const int64_t rank = static_cast<int64_t>(s.rank());
  if (u.rank() != s.rank())
    return fail(api, kErrParamInvalid,
                fmt::format("selfRef {} and updates {} must have as many dimensions", shapeString(s.shape),
                            shapeString(u.shape)));
  if (rank < 3)
    return fail(api, kErrParamInvalid, fmt::format("selfRef {} must be 3-D", shapeString(s.shape)));
  if (axis != -2 && axis != rank - 2)
    return fail(api, kErrParamInvalid, fmt::format("axis {} is not supported (only -2)", axis));
  if (quantAxis != -1 && quantAxis != rank - 1)
    return fail(api, kErrParamInvalid, fmt::format("quantAxis {} is not supported (only -1)", quantAxis));
  if (reduction != 1)
    return fail(api, kErrParamInvalid,
                fmt::format("reduction {} is not supported (only 1, update)", reduction));
  for (int64_t d = 0; d < rank; ++d) {
    const size_t k = static_cast<size_t>(d);
    const bool fits = d == 0 || d == rank - 2 ? u.shape[k] <= s.shape[k] : u.shape[k] == s.shape[k];
    if (!fits)
      return fail(api, kErrParamInvalid,
                  fmt::format("updates {} does not fit selfRef {} (dimension {})", shapeString(u.shape),
                              shapeString(s.shape), d));
  }
  if (indices->desc.rank() != 1 || indices->desc.shape[0] != u.shape[0])
    return fail(api, kErrParamInvalid,
                fmt::format("indices {} must be [{}] (updates' first dimension)",
                            shapeString(indices->desc.shape), u.shape[0]));
  const int64_t h = u.shape.back();
  for (auto [name, t] : {std::pair{"quantScales", scales}, {"quantZeroPoints", zeroPoints}}) {
    if (t != nullptr && t->desc.numel() != h)
      return fail(
          api, kErrParamInvalid,
          fmt::format("{} {} must hold {} values (updates' quantAxis)", name, shapeString(t->desc.shape), h));
  }
  auto inst = std::make_unique<QuantScatterInstance>();
  inst->name = info.name;
  inst->hasZeroPoints = zeroPoints != nullptr;
  inst->written = u;
  inst->written.dtype = ACL_INT8;
  addInput(*inst, "selfRef", selfRef);
  addInput(*inst, "indices", indices);
  addInput(*inst, "updates", updates);
  addInput(*inst, "quantScales", scales);
  if (zeroPoints != nullptr) addInput(*inst, "quantZeroPoints", zeroPoints);
  addOutput(*inst, "selfRef", selfRef, 0);
  if (s.numel() == 0 || u.numel() == 0) inst.reset();  // nothing to write: an empty launch
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnInplaceQuantScatterGetWorkspaceSize(
    aclTensor* selfRef, const aclTensor* indices, const aclTensor* updates, const aclTensor* quantScales,
    const aclTensor* quantZeroPoints, int64_t axis, int64_t quantAxis, int64_t reduction,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  return build(kInfoV1, selfRef, indices, updates, quantScales, quantZeroPoints, axis, quantAxis, reduction,
               nullptr, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceQuantScatter)

extern "C" aclnnStatus aclnnInplaceQuantScatterV2GetWorkspaceSize(
    aclTensor* selfRef, const aclTensor* indices, const aclTensor* updates, const aclTensor* quantScales,
    const aclTensor* quantZeroPoints, int64_t axis, int64_t quantAxis, int64_t reduction,
    const char* roundMode, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  if (roundMode == nullptr)
    return fail("aclnnInplaceQuantScatterV2GetWorkspaceSize", kErrParamNullptr,
                "roundMode must not be nullptr");
  return build(kInfoV2, selfRef, indices, updates, quantScales, quantZeroPoints, axis, quantAxis, reduction,
               roundMode, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceQuantScatterV2)
