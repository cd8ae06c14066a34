// The clamps with tensor bounds (ops-math conversion/clip_by_value_v2: ClampTensor,
// ClampMinTensor, ClampMaxTensor and the in-place forms): out = min(max(self, lo), hi), each
// bound a tensor broadcast to out's shape, computed in the promoted type of the operands (fp64
// for floating types, int64 for integers) and written in out's type. A NaN self stays NaN; a
// NaN bound gives NaN. Cost: every operand read once, out written once, two vector passes.
#include <fmt/format.h>

#include <cmath>

#include "aclnnop/aclnn_clamp.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"
#include "runtime/aclnn/ops/where_op.h"

namespace npusim::aclnn {
namespace {

// aclnnClampTensor.md: FLOAT16, FLOAT, DOUBLE, INT8, UINT8, INT16, INT32, INT64, BFLOAT16.
const std::vector<aclDataType> kTypes{ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT8, ACL_UINT8,
                                      ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BF16};
const OpInfo kClampTensor{"aclnnClampTensor", ExecUnit::kVector, kTypes, "out = min(max(self, min), max)"};
const OpRegistrar kClampTensorRegistrar(kClampTensor);
const OpInfo kClampMinTensor{"aclnnClampMinTensor", ExecUnit::kVector, kTypes, "out = max(self, min)"};
const OpRegistrar kClampMinTensorRegistrar(kClampMinTensor);
const OpInfo kClampMaxTensor{"aclnnClampMaxTensor", ExecUnit::kVector, kTypes, "out = min(self, max)"};
const OpRegistrar kClampMaxTensorRegistrar(kClampMaxTensor);
const OpInfo kInplaceClampMinTensor{"aclnnInplaceClampMinTensor", ExecUnit::kVector, kTypes,
                                    "selfRef = max(selfRef, min)"};
const OpRegistrar kInplaceClampMinTensorRegistrar(kInplaceClampMinTensor);
const OpInfo kInplaceClampMaxTensor{"aclnnInplaceClampMaxTensor", ExecUnit::kVector, kTypes,
                                    "selfRef = min(selfRef, max)"};
const OpRegistrar kInplaceClampMaxTensorRegistrar(kInplaceClampMaxTensor);

class ClampTensorInstance : public OpInstanceBase<ClampTensorInstance> {
 public:
  int minInput = -1, maxInput = -1;  // input indices of the bounds (-1: none); self is input 0
  bool integral = false;             // the promoted type is an integer type

  rt::OpWork work() const override {
    VectorPass p{&inputs, &outputs[0], outputs[0].numel(), 1};
    return vectorTiles(p);
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (out[0].numel() == 0) return;
    if (integral)
      run<int64_t>(in, out[0]);
    else
      run<double>(in, out[0]);
  }

 private:
  template <typename T>
  void run(const std::vector<HostTensor>& in, const HostTensor& out) const {
    std::vector<T> y = loadDense<T>(broadcastView(in[0], out.shape));
    auto bound = [&](int k, bool lower) {
      if (k < 0) return;
      const std::vector<T> b = loadDense<T>(broadcastView(in[static_cast<size_t>(k)], out.shape));
      for (size_t i = 0; i < y.size(); ++i) {
        if constexpr (std::is_floating_point_v<T>) {
          if (std::isnan(y[i])) continue;
          if (std::isnan(b[i])) {
            y[i] = b[i];
            continue;
          }
        }
        y[i] = lower ? std::max(y[i], b[i]) : std::min(y[i], b[i]);
      }
    };
    bound(minInput, true);
    bound(maxInput, false);
    storeDense(out, y.data());
  }
};

int32_t buildClamp(const char* api, const OpInfo& info, const aclTensor* self, const aclTensor* lo,
                   const aclTensor* hi, const aclTensor* out, bool inPlace, uint64_t* workspaceSize,
                   aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  const char* selfName = inPlace ? "selfRef" : "self";
  int32_t st = checkNotNull(api, {{selfName, self}, {inPlace ? "selfRef" : "out", out}});
  if (st != kSuccess) return st;
  if (lo == nullptr && hi == nullptr) return checkNotNull(api, {{"clipValueMin", lo}, {"clipValueMax", hi}});
  aclDataType promoted = self->desc.dtype;
  std::vector<int64_t> shape = self->desc.shape;
  for (auto [name, t] :
       {std::pair{selfName, self}, {"clipValueMin", lo}, {"clipValueMax", hi}, {"out", out}}) {
    if (t == nullptr) continue;
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, info)) != kSuccess) return st;
    if (std::string(name) == "out") continue;
    promoted = promoteTypes(promoted, t->desc.dtype);
    std::vector<int64_t> joined;
    if (!broadcastShapes(shape, t->desc.shape, &joined)) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} shape {} does not broadcast with {}", name, shapeString(t->desc.shape),
                              shapeString(shape)));
    }
    shape = joined;
  }
  if (promoted == ACL_DT_UNDEFINED || !canCast(promoted, out->desc.dtype)) {
    return fail(api, kErrParamInvalid,
                fmt::format("the operands promote to no type that {} ({}) can hold",
                            inPlace ? "selfRef" : "out", dtypeName(out->desc.dtype)));
  }
  if ((st = checkShape(api, inPlace ? "selfRef" : "out", out->desc.shape, shape)) != kSuccess) return st;
  auto inst = std::make_unique<ClampTensorInstance>();
  inst->name = info.name;
  addInput(*inst, selfName, self);
  if (lo != nullptr) {
    inst->minInput = static_cast<int>(inst->inputs.size());
    addInput(*inst, "clipValueMin", lo);
  }
  if (hi != nullptr) {
    inst->maxInput = static_cast<int>(inst->inputs.size());
    addInput(*inst, "clipValueMax", hi);
  }
  inst->integral = isIntegral(promoted, true);
  addOutput(*inst, inPlace ? "selfRef" : "out", out, inPlace ? 0 : -1);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnClampTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* clipValueMin,
                                                        const aclTensor* clipValueMax, aclTensor* out,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildClamp("aclnnClampTensorGetWorkspaceSize", kClampTensor, self, clipValueMin, clipValueMax, out,
                    false, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ClampTensor)

extern "C" aclnnStatus aclnnClampMinTensorGetWorkspaceSize(const aclTensor* self,
                                                           const aclTensor* clipValueMin, aclTensor* out,
                                                           uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  const char* api = "aclnnClampMinTensorGetWorkspaceSize";
  if (clipValueMin == nullptr) return checkNotNull(api, {{"clipValueMin", clipValueMin}});
  return buildClamp(api, kClampMinTensor, self, clipValueMin, nullptr, out, false, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ClampMinTensor)

extern "C" aclnnStatus aclnnInplaceClampMinTensorGetWorkspaceSize(aclTensor* selfRef,
                                                                  const aclTensor* clipValueMin,
                                                                  uint64_t* workspaceSize,
                                                                  aclOpExecutor** executor) {
  const char* api = "aclnnInplaceClampMinTensorGetWorkspaceSize";
  if (clipValueMin == nullptr) return checkNotNull(api, {{"clipValueMin", clipValueMin}});
  return buildClamp(api, kInplaceClampMinTensor, selfRef, clipValueMin, nullptr, selfRef, true, workspaceSize,
                    executor);
}
NPUSIM_ACLNN_PHASE2(InplaceClampMinTensor)

extern "C" aclnnStatus aclnnClampMaxTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* max,
                                                           aclTensor* out, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  const char* api = "aclnnClampMaxTensorGetWorkspaceSize";
  if (max == nullptr) return checkNotNull(api, {{"max", max}});
  return buildClamp(api, kClampMaxTensor, self, nullptr, max, out, false, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ClampMaxTensor)

extern "C" aclnnStatus aclnnInplaceClampMaxTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* max,
                                                                  uint64_t* workspaceSize,
                                                                  aclOpExecutor** executor) {
  const char* api = "aclnnInplaceClampMaxTensorGetWorkspaceSize";
  if (max == nullptr) return checkNotNull(api, {{"max", max}});
  return buildClamp(api, kInplaceClampMaxTensor, selfRef, nullptr, max, selfRef, true, workspaceSize,
                    executor);
}
NPUSIM_ACLNN_PHASE2(InplaceClampMaxTensor)
