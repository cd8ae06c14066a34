// aclnnOneHot (ops-math math/one_hot) and the experimental aclnnOnehot (experimental/conversion/
// onehot): out has self's shape with numClasses inserted at `axis`, and out[..., j, ...] is
// onValue where self[...] == j, else offValue (self values outside [0, numClasses) give only
// offValue). Cost: self and the two values read once, out written once, one compare pass.
#include <fmt/format.h>

#include "aclnnop/aclnn_one_hot.h"
#include "aclnnop/aclnn_onehot.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

// aclnnOneHot.md: self UINT8, INT32, INT64; onValue/offValue/out FLOAT16, FLOAT, INT8, UINT8,
// INT32, INT64 (one type for the three).
const OpInfo kOneHot{"aclnnOneHot",
                     ExecUnit::kVector,
                     {ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_UINT8, ACL_INT32, ACL_INT64},
                     "out[..., j (at axis), ...] = self[...] == j ? onValue : offValue"};
const OpRegistrar kOneHotRegistrar(kOneHot);
const OpInfo kOnehot{"aclnnOnehot", ExecUnit::kVector, {ACL_INT32}, "z[..., j] = x[...] == j ? 1 : 0"};
const OpRegistrar kOnehotRegistrar(kOnehot);

class OneHotInstance : public OpInstanceBase<OneHotInstance> {
 public:
  int64_t classes = 0, axis = 0;  // axis: where the class dimension sits in out

  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), 0});
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (out[0].numel() == 0) return;
    const std::vector<int64_t> idx = loadDense<int64_t>(in[0]);
    // Without value tensors (aclnnOnehot) the values are 1 and 0.
    const double on = in.size() > 1 ? loadDense<double>(in[1])[0] : 1.0;
    const double off = in.size() > 2 ? loadDense<double>(in[2])[0] : 0.0;
    const int64_t outer = dimProduct(in[0].shape, 0, static_cast<size_t>(axis));
    const int64_t inner = dimProduct(in[0].shape, static_cast<size_t>(axis), in[0].shape.size());
    std::vector<double> y(static_cast<size_t>(out[0].numel()));
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t j = 0; j < classes; ++j) {
        for (int64_t i = 0; i < inner; ++i) {
          y[static_cast<size_t>((o * classes + j) * inner + i)] =
              idx[static_cast<size_t>(o * inner + i)] == j ? on : off;
        }
      }
    }
    storeDense(out[0], y.data());
  }
};

// Checks self (an integer index tensor), numClasses and out's shape; *a = axis in out.
int32_t checkOneHot(const char* api, const aclTensor* self, int64_t classes, int64_t axis,
                    const aclTensor* out, int64_t* a) {
  int32_t st = checkTensor(api, "self", self->desc);
  if (st != kSuccess || (st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  const aclDataType it = self->desc.dtype;
  if (it != ACL_UINT8 && it != ACL_INT32 && it != ACL_INT64)
    return fail(api, kErrParamInvalid,
                fmt::format("self type must be uint8, int32 or int64, not {}", dtypeName(it)));
  if (classes < 0 || (classes == 0 && self->desc.numel() == 0))
    return fail(api, kErrParamInvalid, fmt::format("numClasses {} is not allowed here", classes));
  const size_t r = self->desc.rank() + 1;
  *a = wrapDim(axis, r);
  if (*a < 0)
    return fail(api, kErrParamInvalid, fmt::format("axis {} is out of range for {} dimensions", axis, r));
  std::vector<int64_t> shape = self->desc.shape;
  shape.insert(shape.begin() + *a, classes);
  return checkShape(api, "out", out->desc.shape, shape);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnOneHotGetWorkspaceSize(const aclTensor* self, int numClasses,
                                                   const aclTensor* onValue, const aclTensor* offValue,
                                                   int64_t axis, aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  const char* api = "aclnnOneHotGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st =
      checkNotNull(api, {{"self", self}, {"onValue", onValue}, {"offValue", offValue}, {"out", out}});
  if (st != kSuccess) return st;
  int64_t a = 0;
  if ((st = checkOneHot(api, self, numClasses, axis, out, &a)) != kSuccess) return st;
  if ((st = checkDtype(api, "out", out->desc.dtype, kOneHot)) != kSuccess) return st;
  for (auto [name, t] : {std::pair{"onValue", onValue}, {"offValue", offValue}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if (t->desc.dtype != out->desc.dtype) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} type {} must equal out type {}", name, dtypeName(t->desc.dtype),
                              dtypeName(out->desc.dtype)));
    }
    if (t->desc.numel() != 1)
      return fail(api, kErrParamInvalid, fmt::format("{} must hold one element", name));
  }
  auto inst = std::make_unique<OneHotInstance>();
  inst->name = "aclnnOneHot";
  inst->classes = numClasses;
  inst->axis = a;
  addInput(*inst, "self", self);
  addInput(*inst, "onValue", onValue);
  addInput(*inst, "offValue", offValue);
  addOutput(*inst, "out", out);
  inst->attrs = fmt::format("numClasses={} axis={}", numClasses, axis);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(OneHot)

extern "C" aclnnStatus aclnnOnehotGetWorkspaceSize(const aclTensor* x, int64_t depth, const aclTensor* z,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnOnehotGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x", x}, {"z", z}});
  if (st != kSuccess) return st;
  int64_t a = 0;
  if ((st = checkOneHot(api, x, depth, -1, z, &a)) != kSuccess) return st;
  if ((st = checkDtype(api, "x", x->desc.dtype, kOnehot)) != kSuccess) return st;
  if ((st = checkDtype(api, "z", z->desc.dtype, kOnehot)) != kSuccess) return st;
  auto inst = std::make_unique<OneHotInstance>();
  inst->name = "aclnnOnehot";
  inst->classes = depth;
  inst->axis = a;
  addInput(*inst, "x", x);
  addOutput(*inst, "z", z);
  inst->attrs = fmt::format("depth={}", depth);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Onehot)
