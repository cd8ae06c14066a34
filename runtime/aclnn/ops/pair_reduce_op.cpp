#include "runtime/aclnn/ops/pair_reduce_op.h"

#include <fmt/format.h>

#include <vector>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

class PairReduceInstance : public OpInstanceBase<PairReduceInstance> {
 public:
  double (*f)(double, double) = nullptr;
  int passes = 1;
  PairReduction reduction = PairReduction::kSum;
  std::vector<int64_t> shape;  // the operands' common (broadcast or flattened) shape
  aclDataType calc = ACL_FLOAT;
  bool flatten = false;

  rt::OpWork work() const override {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return vectorTiles(VectorPass{&inputs, &outputs[0], n, passes - 1});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    std::vector<double> a(static_cast<size_t>(n)), b(static_cast<size_t>(n));
    // Flattened operands are dense views of their own shape, read in row-major order.
    copyView(in[0], hostTensor(ACL_DOUBLE, flatten ? in[0].shape : shape, a.data()));
    copyView(in[1], hostTensor(ACL_DOUBLE, flatten ? in[1].shape : shape, b.data()));
    for (size_t i = 0; i < a.size(); ++i) a[i] = f(a[i], b[i]);
    if (reduction == PairReduction::kNone) {
      quantizeRow(calc, a.data(), n);
      return copyView(hostTensor(ACL_DOUBLE, shape, a.data()), out[0]);
    }
    double s = 0;
    for (double v : a) s += v;
    if (reduction == PairReduction::kMean) s /= static_cast<double>(n);
    if (reduction == PairReduction::kBatchMean) s /= static_cast<double>(shape.empty() ? 1 : shape[0]);
    quantizeRow(calc, &s, 1);
    copyView(hostTensor(ACL_DOUBLE, {}, &s), out[0]);
  }
};

}  // namespace

int32_t buildPairReduce(const PairReduceArgs& a, uint64_t* workspaceSize, aclOpExecutor** executor) {
  rt::chargeOpPrepare(a.api);
  int32_t st = checkNotNull(a.api, {{a.aName, a.a}, {a.bName, a.b}, {"out", a.out}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{a.aName, a.a}, {a.bName, a.b}, {"out", a.out}}) {
    if ((st = checkTensor(a.api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(a.api, name, t->desc.dtype, *a.info)) != kSuccess) return st;
  }
  const aclDataType at = a.a->desc.dtype, bt = a.b->desc.dtype, ot = a.out->desc.dtype;
  if (a.sameTypes && (at != bt || at != ot)) {
    return fail(a.api, kErrParamInvalid,
                fmt::format("{} ({}), {} ({}) and out ({}) must have one type", a.aName, dtypeName(at),
                            a.bName, dtypeName(bt), dtypeName(ot)));
  }
  const aclDataType promoted = promoteTypes(at, bt);
  if (promoted == ACL_DT_UNDEFINED || !canCast(promoted, ot)) {
    return fail(a.api, kErrParamInvalid,
                fmt::format("{} ({}) and {} ({}) cannot be written to out of type {}", a.aName, dtypeName(at),
                            a.bName, dtypeName(bt), dtypeName(ot)));
  }
  std::vector<int64_t> shape;
  if (a.flatten) {
    if (a.a->desc.numel() != a.b->desc.numel()) {
      return fail(a.api, kErrParamInvalid,
                  fmt::format("{} {} and {} {} must have as many elements", a.aName,
                              shapeString(a.a->desc.shape), a.bName, shapeString(a.b->desc.shape)));
    }
    shape = {a.a->desc.numel()};
  } else if (!broadcastShapes(a.a->desc.shape, a.b->desc.shape, &shape)) {
    return fail(a.api, kErrParamInvalid,
                fmt::format("{} shape {} and {} shape {} are not broadcastable", a.aName,
                            shapeString(a.a->desc.shape), a.bName, shapeString(a.b->desc.shape)));
  }
  if (a.reduction == PairReduction::kNone) {
    if ((st = checkShape(a.api, "out", a.out->desc.shape, shape)) != kSuccess) return st;
  } else if (a.out->desc.numel() != 1 || a.out->desc.shape.size() > 1) {
    return fail(a.api, kErrParamInvalid,
                fmt::format("out shape {} must be 0-d or hold one element", shapeString(a.out->desc.shape)));
  }
  auto inst = std::make_unique<PairReduceInstance>();
  inst->name = a.opName;
  inst->f = a.f;
  inst->passes = a.passes;
  inst->reduction = a.reduction;
  inst->shape = shape;
  inst->flatten = a.flatten;
  inst->calc = isFloating(promoted) && promoted != ACL_DOUBLE ? ACL_FLOAT : promoted;
  inst->attrs = a.attrs;
  addInput(*inst, a.aName, a.a);
  addInput(*inst, a.bName, a.b);
  addOutput(*inst, "out", a.out);
  return makeExecutor(a.api, std::move(inst), workspaceSize, executor);
}

}  // namespace npusim::aclnn
