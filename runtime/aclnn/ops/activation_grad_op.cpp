#include "runtime/aclnn/ops/activation_grad_op.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/broadcast_pair.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/strided_loop.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

class ActivationGradInstance : public OpInstanceBase<ActivationGradInstance> {
 public:
  const GradDef* def = nullptr;
  GradParams params{};
  aclDataType calc = ACL_FLOAT;

  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), def->passes - 1});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const HostTensor &g = in[0], &x = in[1], &o = out[0];
    if (o.numel() == 0) return;
    forEachBroadcastPair<double>(o, g, x, calc, [&](double* gb, const double* xb, int64_t m) {
      for (int64_t i = 0; i < m; ++i) gb[i] *= def->deriv(xb[i], params);
    });  // rounded to fp32 on the device unless the operands are fp64
  }
};

}  // namespace

int32_t buildActivationGrad(const GradDef& def, const GradArgs& a, const aclTensor* grad, const aclTensor* x,
                            const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  rt::chargeOpPrepare(a.api);
  int32_t st = checkNotNull(a.api, {{a.gradName, grad}, {a.xName, x}, {a.outName, out}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{a.gradName, grad}, {a.xName, x}, {a.outName, out}}) {
    if ((st = checkTensor(a.api, name, t->desc)) != kSuccess) return st;
  }
  if ((st = checkDtype(a.api, a.outName, out->desc.dtype, *def.info)) != kSuccess) return st;
  // gradOutput and x promote to a common type (the docs' deduction rule: an int32 gradOutput
  // with an fp32 self computes in fp32), which must be one of the operator's floating types.
  const aclDataType promoted = promoteTypes(grad->desc.dtype, x->desc.dtype);
  if (promoted == ACL_DT_UNDEFINED || !def.info->accepts(promoted)) {
    return fail(
        a.api, kErrParamInvalid,
        fmt::format("{} type {} and {} type {} do not promote to one of {}", a.gradName,
                    dtypeName(grad->desc.dtype), a.xName, dtypeName(x->desc.dtype), def.info->dtypeList()));
  }
  if (!canCast(promoted, out->desc.dtype)) {
    return fail(a.api, kErrParamInvalid,
                fmt::format("the promoted type {} cannot be written to {} of type {}", dtypeName(promoted),
                            a.outName, dtypeName(out->desc.dtype)));
  }
  std::vector<int64_t> shape;
  if (!broadcastShapes(grad->desc.shape, x->desc.shape, &shape)) {
    return fail(a.api, kErrParamInvalid,
                fmt::format("{} shape {} and {} shape {} are not broadcastable", a.gradName,
                            shapeString(grad->desc.shape), a.xName, shapeString(x->desc.shape)));
  }
  if ((st = checkShape(a.api, a.outName, out->desc.shape, shape)) != kSuccess) return st;
  auto inst = std::make_unique<ActivationGradInstance>();
  inst->name = def.info->name;
  inst->def = &def;
  inst->params = a.params;
  inst->calc = promoted == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT;
  inst->attrs = a.attrs;
  addInput(*inst, a.gradName, grad);
  addInput(*inst, a.xName, x);
  addOutput(*inst, a.outName, out);
  return makeExecutor(a.api, std::move(inst), workspaceSize, executor);
}

}  // namespace npusim::aclnn
