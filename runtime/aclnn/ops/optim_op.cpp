#include "runtime/aclnn/ops/optim_op.h"

#include <fmt/format.h>

#include <algorithm>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

namespace {

// Results a step may write even when the call passes fewer outputs (an optional state).
constexpr size_t kMaxStepOutputs = 8;

class OptimInstance : public OpInstanceBase<OptimInstance> {
 public:
  const OptimDef* def = nullptr;
  std::vector<int> inputSlot;   // per step input: index in `inputs`, or -1 (absent, reads 0)
  std::vector<bool> firstOnly;  // per step input: only its first element is used (a step count)
  std::vector<double> attrs;

  rt::OpWork work() const override {
    // every input and output streamed once; the extra outputs' bytes ride on the first's tiles
    uint64_t extraWrite = 0;
    for (size_t j = 1; j < outputs.size(); ++j) extraWrite += outputs[j].numel() * outputs[j].elementSize();
    VectorPass pass{&inputs, &outputs[0], outputs[0].numel(), def->passes - 1, extraWrite};
    return vectorTiles(pass);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const int64_t n = out[0].numel();
    std::vector<std::vector<double>> vals;
    for (const HostTensor& t : in) vals.push_back(loadDense<double>(t));
    std::vector<std::vector<double>> res(out.size(), std::vector<double>(static_cast<size_t>(n)));
    std::vector<double> x(inputSlot.size()), y(std::max<size_t>(out.size(), kMaxStepOutputs));
    for (int64_t e = 0; e < n; ++e) {
      for (size_t k = 0; k < inputSlot.size(); ++k) {
        const int s = inputSlot[k];
        if (s < 0) {
          x[k] = 0;
          continue;
        }
        const std::vector<double>& v = vals[static_cast<size_t>(s)];
        x[k] = v.size() == 1 || firstOnly[k] ? v[0] : v[static_cast<size_t>(e)];
      }
      def->step(x.data(), attrs.data(), y.data());
      for (size_t j = 0; j < out.size(); ++j) res[j][static_cast<size_t>(e)] = y[j];
    }
    for (size_t j = 0; j < out.size(); ++j) {
      if (out[j].dtype != ACL_DOUBLE) quantizeRow(ACL_FLOAT, res[j].data(), n);
      storeDense<double>(out[j], res[j].data());
    }
  }
};

}  // namespace

int32_t buildOptim(const OptimDef& d, const char* api, const char* opName, const OptimArgs& a,
                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  rt::chargeOpPrepare(api);
  for (const std::vector<OptimTensor>* group : {&a.inputs, &a.outputs}) {
    for (const OptimTensor& t : *group) {
      if (t.t == nullptr && !t.optional)
        return fail(api, kErrParamNullptr, fmt::format("{} must not be nullptr", t.name));
    }
  }
  const TensorDesc& first = a.inputs[0].t->desc;
  int32_t st = kSuccess;
  if ((st = checkDtype(api, a.inputs[0].name, first.dtype, *d.info)) != kSuccess) return st;
  auto check = [&](const OptimTensor& t, bool output) {
    if (int32_t s = checkTensor(api, t.name, t.t->desc); s != kSuccess) return s;
    const TensorDesc& desc = t.t->desc;
    if (!t.ownTypes.empty()) {
      // the first element is used: the ApplyFusedEmaAdam example passes a [2, 2] step where its
      // doc says [1]
      if (std::find(t.ownTypes.begin(), t.ownTypes.end(), desc.dtype) == t.ownTypes.end() ||
          desc.numel() < 1) {
        return fail(api, kErrParamInvalid,
                    fmt::format("{} must have an element of an accepted type, not {}", t.name, desc.brief()));
      }
      return kSuccess;
    }
    if (desc.dtype != first.dtype) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} is {} where {} is {}: the operator takes one type", t.name,
                              dtypeName(desc.dtype), a.inputs[0].name, dtypeName(first.dtype)));
    }
    if (desc.shape != first.shape && (output || desc.numel() != 1)) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} has shape {}; {}'s shape {}{} is needed", t.name, shapeString(desc.shape),
                              a.inputs[0].name, shapeString(first.shape), output ? "" : " or one element"));
    }
    return kSuccess;
  };
  auto inst = std::make_unique<OptimInstance>();
  inst->name = opName;
  inst->def = &d;
  inst->attrs = a.attrs;
  for (const OptimTensor& t : a.inputs) {
    if (t.t == nullptr) {
      inst->inputSlot.push_back(-1);
      inst->firstOnly.push_back(false);
      continue;
    }
    if ((st = check(t, false)) != kSuccess) return st;
    inst->inputSlot.push_back(static_cast<int>(inst->inputs.size()));
    inst->firstOnly.push_back(!t.ownTypes.empty());
    addInput(*inst, t.name, t.t);
  }
  for (const OptimTensor& t : a.outputs) {
    if ((st = check(t, true)) != kSuccess) return st;
    int alias = -1;
    for (size_t k = 0; k < a.inputs.size(); ++k) {
      if (a.inputs[k].t == t.t) alias = inst->inputSlot[k];
    }
    addOutput(*inst, t.name, t.t, alias);
  }
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace npusim::aclnn
