#include "runtime/aclnn/ops/optim_op.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>

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

// One tensor set of the call: a single-tensor operator has one, a list operator one per entry.
struct OptimEntry {
  std::vector<int> inputSlot;   // per step input: index in `inputs`, or -1 (absent, reads 0)
  std::vector<bool> firstOnly;  // per step input: only its first element is used (a step count)
  size_t inBegin = 0, inEnd = 0, outBegin = 0, outEnd = 0;  // its ranges of `inputs` / `outputs`
};

class OptimInstance : public OpInstanceBase<OptimInstance> {
 public:
  const OptimDef* def = nullptr;
  std::vector<OptimEntry> entries;
  std::vector<double> attrs;

  rt::OpWork work() const override {
    // every input and output streamed once; an entry's extra outputs ride on its first's tiles
    rt::OpWork w;
    for (const OptimEntry& en : entries) {
      std::vector<TensorDesc> reads(inputs.begin() + static_cast<std::ptrdiff_t>(en.inBegin),
                                    inputs.begin() + static_cast<std::ptrdiff_t>(en.inEnd));
      uint64_t extraWrite = 0;
      for (size_t j = en.outBegin + 1; j < en.outEnd; ++j)
        extraWrite += outputs[j].numel() * outputs[j].elementSize();
      const TensorDesc& o = outputs[en.outBegin];
      rt::OpWork e = vectorTiles(VectorPass{&reads, &o, o.numel(), def->passes - 1, extraWrite});
      w.tiles.insert(w.tiles.end(), e.tiles.begin(), e.tiles.end());
    }
    return w;
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    for (const OptimEntry& en : entries) computeEntry(en, in, out);
  }

 private:
  void computeEntry(const OptimEntry& en, const std::vector<HostTensor>& in,
                    const std::vector<HostTensor>& out) const {
    const int64_t n = out[en.outBegin].numel();
    const size_t outs = en.outEnd - en.outBegin;
    std::vector<std::vector<double>> vals;
    for (size_t k = en.inBegin; k < en.inEnd; ++k) vals.push_back(loadDense<double>(in[k]));
    std::vector<std::vector<double>> res(outs, std::vector<double>(static_cast<size_t>(n)));
    std::vector<double> x(en.inputSlot.size()), y(std::max<size_t>(outs, kMaxStepOutputs));
    for (int64_t e = 0; e < n; ++e) {
      for (size_t k = 0; k < en.inputSlot.size(); ++k) {
        const int s = en.inputSlot[k];
        if (s < 0) {
          x[k] = 0;
          continue;
        }
        const std::vector<double>& v = vals[static_cast<size_t>(s) - en.inBegin];
        x[k] = v.size() == 1 || en.firstOnly[k] ? v[0] : v[static_cast<size_t>(e)];
      }
      def->step(x.data(), attrs.data(), y.data());
      for (size_t j = 0; j < outs; ++j) res[j][static_cast<size_t>(e)] = y[j];
    }
    for (size_t j = 0; j < outs; ++j) {
      const HostTensor& o = out[en.outBegin + j];
      if (o.dtype != ACL_DOUBLE) quantizeRow(ACL_FLOAT, res[j].data(), n);
      storeDense<double>(o, res[j].data());
    }
  }
};

// Checks one entry's tensors and adds them to the instance.
int32_t addEntry(const char* api, const OptimDef& d, const OptimArgs& a, OptimInstance& inst) {
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
  OptimEntry en;
  en.inBegin = inst.inputs.size();
  for (const OptimTensor& t : a.inputs) {
    if (t.t == nullptr) {
      en.inputSlot.push_back(-1);
      en.firstOnly.push_back(false);
      continue;
    }
    if ((st = check(t, false)) != kSuccess) return st;
    en.inputSlot.push_back(static_cast<int>(inst.inputs.size()));
    en.firstOnly.push_back(!t.ownTypes.empty());
    addInput(inst, t.name, t.t);
  }
  en.inEnd = inst.inputs.size();
  en.outBegin = inst.outputs.size();
  for (const OptimTensor& t : a.outputs) {
    if ((st = check(t, true)) != kSuccess) return st;
    int alias = -1;
    for (size_t k = 0; k < a.inputs.size(); ++k) {
      if (a.inputs[k].t == t.t) alias = en.inputSlot[k];
    }
    addOutput(inst, t.name, t.t, alias);
  }
  en.outEnd = inst.outputs.size();
  inst.entries.push_back(std::move(en));
  return kSuccess;
}

}  // namespace

int32_t buildOptimList(const OptimDef& d, const char* api, const char* opName,
                       const std::vector<OptimArgs>& entries, const std::vector<double>& attrs,
                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  rt::chargeOpPrepare(api);
  auto inst = std::make_unique<OptimInstance>();
  inst->name = opName;
  inst->def = &d;
  inst->attrs = attrs;
  for (const OptimArgs& a : entries) {
    if (int32_t st = addEntry(api, d, a, *inst); st != kSuccess) return st;
  }
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

int32_t buildOptim(const OptimDef& d, const char* api, const char* opName, const OptimArgs& a,
                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildOptimList(d, api, opName, {a}, a.attrs, workspaceSize, executor);
}

}  // namespace npusim::aclnn
