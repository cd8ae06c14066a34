#include "runtime/aclnn/ops/loss_op.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

constexpr int kMaxOperands = 6, kMaxOuts = 2;

class LossInstance : public OpInstanceBase<LossInstance> {
 public:
  const LossDef* def = nullptr;
  LossParams params{};
  Reduction reduction = Reduction::kNone;
  bool gradient = false;
  std::vector<int> slot;                        // per operand: its index in inputs, or -1 when absent
  std::vector<double> absent;                   // per operand: the value an absent one stands for
  std::vector<int64_t> shape;                   // iteration shape
  std::vector<std::vector<int64_t>> outShapes;  // per out, right-aligned to shape (trailing 1 added)

  rt::OpWork work() const override {
    VectorPass p{&inputs, &outputs[0], dimProduct(shape, 0, shape.size()), def->passes - 1};
    for (size_t k = 1; k < outputs.size(); ++k)
      p.extraWriteBytes += outputs[k].numel() * outputs[k].elementSize();
    return vectorTiles(p);
  }

  // Row-major element strides of a tensor of shape `s` broadcast (right-aligned) to `shape`.
  std::vector<int64_t> broadcastStrides(const std::vector<int64_t>& s) const {
    std::vector<int64_t> st(shape.size(), 0);
    int64_t step = 1;
    for (size_t k = s.size(); k-- > 0;) {
      st[shape.size() - s.size() + k] = s[k] == 1 ? 0 : step;
      step *= s[k];
    }
    return st;
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const size_t rank = shape.size(), nOps = slot.size(), nOuts = out.size();
    const int64_t n = dimProduct(shape, 0, rank);
    // Dense copies of the inputs and their element strides broadcast to the iteration shape;
    // the outs' strides likewise (0 along the dims a summed out broadcasts).
    std::vector<std::vector<double>> data(in.size());
    std::vector<std::vector<int64_t>> strides;
    for (size_t i = 0; i < in.size(); ++i) {
      data[i] = loadDense<double>(in[i]);
      strides.push_back(broadcastStrides(in[i].shape));
    }
    for (size_t k = 0; k < nOuts; ++k) strides.push_back(broadcastStrides(outShapes[k]));
    const bool keep = gradient || reduction == Reduction::kNone;
    double scale = 1;
    if (gradient && reduction == Reduction::kMean) scale = 1.0 / static_cast<double>(n);
    if (gradient && reduction == Reduction::kBatchMean && rank > 0)
      scale = 1.0 / static_cast<double>(shape[0]);
    std::vector<std::vector<double>> res(nOuts);
    for (size_t k = 0; k < nOuts && keep; ++k) res[k].assign(static_cast<size_t>(out[k].numel()), 0.0);
    std::vector<int64_t> idx(rank, 0), pos(strides.size(), 0);
    double v[kMaxOperands], o[kMaxOuts], sum = 0;
    for (int64_t e = 0; e < n; ++e) {
      for (size_t j = 0; j < nOps; ++j) {
        const int s = slot[j];
        v[j] = s < 0 ? absent[j]
                     : data[static_cast<size_t>(s)][static_cast<size_t>(pos[static_cast<size_t>(s)])];
      }
      def->term(v, params, o);
      if (keep) {
        for (size_t k = 0; k < nOuts; ++k) res[k][static_cast<size_t>(pos[in.size() + k])] += o[k] * scale;
      } else {
        sum += o[0];
      }
      for (size_t d = rank; d-- > 0;) {  // advance the odometer
        for (size_t i = 0; i < pos.size(); ++i) pos[i] += strides[i][d];
        if (++idx[d] < shape[d]) break;
        for (size_t i = 0; i < pos.size(); ++i) pos[i] -= strides[i][d] * shape[d];
        idx[d] = 0;
      }
    }
    if (keep) {
      for (size_t k = 0; k < nOuts; ++k) storeDense(out[k], res[k].data());
      return;
    }
    if (reduction == Reduction::kBatchMean) sum /= rank > 0 ? static_cast<double>(shape[0]) : 1.0;
    // The mean of no elements is nan (PyTorch's rule), their sum 0.
    const double r = reduction != Reduction::kMean ? sum
                     : n == 0                      ? std::numeric_limits<double>::quiet_NaN()
                                                   : sum / static_cast<double>(n);
    storeDense(out[0], &r);
  }
};

}  // namespace

int32_t lossReduction(const char* api, int64_t r, Reduction* out) {
  if (r < 0 || r > 2) {
    return fail(api, kErrParamInvalid,
                fmt::format("reduction must be 0 (none), 1 (mean) or 2 (sum), not {}", r));
  }
  *out = static_cast<Reduction>(r);
  return kSuccess;
}

int32_t lossReduction(const char* api, const char* r, Reduction* out) {
  if (r == nullptr) return checkNotNull(api, {{"reduction", r}});
  const char* names[] = {"none", "mean", "sum"};
  for (int i = 0; i < 3; ++i) {
    if (std::strcmp(r, names[i]) == 0) {
      *out = static_cast<Reduction>(i);
      return kSuccess;
    }
  }
  return fail(api, kErrParamInvalid,
              fmt::format("reduction must be \"none\", \"mean\" or \"sum\", not \"{}\"", r));
}

int32_t buildLoss(const LossDef& def, const LossArgs& a, uint64_t* workspaceSize, aclOpExecutor** executor) {
  rt::chargeOpPrepare(a.api);
  int32_t st = kSuccess;
  for (const LossOperand& op : a.operands) {
    if (op.tensor == nullptr && !op.optional) return checkNotNull(a.api, {{op.name, op.tensor}});
  }
  for (auto [name, t] : a.outs) {
    if (t == nullptr) return checkNotNull(a.api, {{name, t}});
  }
  // Operand descriptors, a var-like one given its trailing 1.
  std::vector<TensorDesc> descs;
  for (size_t j = 0; j < a.operands.size(); ++j) {
    const LossOperand& op = a.operands[j];
    if (op.tensor == nullptr) continue;
    if ((st = checkTensor(a.api, op.name, op.tensor->desc)) != kSuccess) return st;
    if ((st = checkDtype(a.api, op.name, op.tensor->desc.dtype, *def.info)) != kSuccess) return st;
    TensorDesc d = op.tensor->desc;
    const auto& lead = a.operands[0].tensor->desc.shape;
    if (static_cast<int>(j) == a.unsqueezeLast && d.rank() + 1 == lead.size() &&
        std::equal(d.shape.begin(), d.shape.end(), lead.begin())) {
      d.shape.push_back(1);
      d.strides.push_back(1);
    }
    descs.push_back(d);
  }
  for (auto [name, t] : a.outs) {
    if ((st = checkTensor(a.api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(a.api, name, t->desc.dtype, *def.info)) != kSuccess) return st;
  }
  std::vector<int64_t> shape = descs[0].shape;
  size_t k = 0;
  for (const LossOperand& op : a.operands) {
    if (op.tensor == nullptr) continue;
    const TensorDesc& d = descs[k++];
    if (a.sameShape && d.shape != descs[0].shape) {
      return fail(a.api, kErrParamInvalid,
                  fmt::format("{} shape {} must equal {} shape {}", op.name, shapeString(d.shape),
                              a.operands[0].name, shapeString(descs[0].shape)));
    }
    std::vector<int64_t> b;
    if (!broadcastShapes(shape, d.shape, &b)) {
      return fail(a.api, kErrParamInvalid,
                  fmt::format("{} shape {} does not broadcast with {}", op.name, shapeString(d.shape),
                              shapeString(shape)));
    }
    shape = b;
  }
  const bool keep = a.gradient || a.reduction == Reduction::kNone;
  std::vector<std::vector<int64_t>> outShapes;
  for (size_t k = 0; k < a.outs.size(); ++k) {
    auto [name, t] = a.outs[k];
    std::vector<int64_t> os = t->desc.shape;
    if (static_cast<int>(k) == a.sumOut) {
      // Summed over the dims it broadcasts along: any shape that broadcasts to the iteration shape.
      if (os.size() + 1 == shape.size() && std::equal(os.begin(), os.end(), shape.begin())) os.push_back(1);
      std::vector<int64_t> b;
      if (!broadcastShapes(os, shape, &b) || b != shape) {
        return fail(a.api, kErrParamInvalid,
                    fmt::format("{} shape {} does not broadcast to {}", name, shapeString(t->desc.shape),
                                shapeString(shape)));
      }
    } else if (keep) {
      if ((st = checkShape(a.api, name, os, shape)) != kSuccess) return st;
    } else if (t->desc.numel() != 1) {
      return fail(a.api, kErrParamInvalid,
                  fmt::format("{} must hold one element under mean or sum reduction, but has shape {}", name,
                              shapeString(t->desc.shape)));
    }
    outShapes.push_back(keep ? os : std::vector<int64_t>{});
  }
  auto inst = std::make_unique<LossInstance>();
  inst->name = def.info->name;
  inst->def = &def;
  inst->params = a.params;
  inst->reduction = a.reduction;
  inst->gradient = a.gradient;
  inst->shape = shape;
  inst->outShapes = outShapes;
  inst->attrs = a.attrs;
  k = 0;
  for (const LossOperand& op : a.operands) {
    inst->absent.push_back(op.absent);
    if (op.tensor == nullptr) {
      inst->slot.push_back(-1);
      continue;
    }
    inst->slot.push_back(static_cast<int>(inst->inputs.size()));
    inst->inputs.push_back(descs[k++]);
    inst->inputNames.emplace_back(op.name);
  }
  for (auto [name, t] : a.outs) addOutput(*inst, name, t);
  return makeExecutor(a.api, std::move(inst), workspaceSize, executor);
}

}  // namespace npusim::aclnn
