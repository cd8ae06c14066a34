// Losses over a class dimension (ops-nn loss/nll_loss, nll_loss_grad, cross_entropy_loss,
// cross_entropy_loss_grad, activation/softmax_cross_entropy_with_logits, experimental/loss/
// cross_entropy_grad, softmax_grad): self is [N, C, d...] (or [C]), the class dimension is 1,
// the target holds one class index per (n, d...) or, for the softmax forms, a row of C values.
// Each operator's kernel works on dense copies row by row; the cost model reads every operand
// and writes every out once with the operator's vector passes (vector_tiling.h).
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "aclnnop/aclnn_cross_entropy_grad.h"
#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "aclnnop/aclnn_fused_cross_entropy_loss_with_max_sum.h"
#include "aclnnop/aclnn_multilabel_margin_loss.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss2d.h"
#include "aclnnop/aclnn_nll_loss2d_backward.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_softmax_grad.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/loss_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const std::vector<aclDataType> kIndexTypes = {ACL_INT64, ACL_INT32, ACL_UINT8};

const OpInfo kNllLoss{"aclnnNLLLoss", ExecUnit::kVector, kFloats,
                      "out = reduce(-w[t] self[n, t]), mean divides by the sum of w[t]; t != ignoreIndex"};
const OpInfo kNllLoss2d{"aclnnNLLLoss2d", ExecUnit::kVector, kFloats, "aclnnNLLLoss over [N, C, H, W]"};
const OpInfo kNllLossBackward{"aclnnNLLLossBackward", ExecUnit::kVector, kFloats,
                              "out[n, t] = -w[t] gradOutput [/ totalWeight], 0 elsewhere"};
const OpInfo kNllLoss2dBackward{"aclnnNLLLoss2dBackward", ExecUnit::kVector, kFloats,
                                "aclnnNLLLossBackward over [N, C, H, W]"};
const OpInfo kCrossEntropyLoss{"aclnnCrossEntropyLoss", ExecUnit::kVector, kFloats,
                               "logProb = x - lse; loss = reduce((1 - s) nll + s/C sum_c -w_c logProb)"};
const OpInfo kCrossEntropyLossGrad{"aclnnCrossEntropyLossGrad", ExecUnit::kVector, kFloats,
                                   "out = d loss / d x from logProb (softmax = exp(logProb))"};
const OpInfo kCrossEntropyGrad{"aclnnCrossEntropyGrad", ExecUnit::kVector, kFloats,
                               "grad_input = softmax(logits) - one_hot(target)"};
const OpInfo kSoftmaxCrossEntropy{"aclnnSoftmaxCrossEntropyWithLogits", ExecUnit::kVector, kFloats,
                                  "loss = -sum(labels log softmax(features)), backprop = softmax - labels"};
const OpInfo kSoftmaxGrad{"aclnnSoftmaxGrad", ExecUnit::kVector, kFloats,
                          "dx = y (dy - sum(dy y)) over the last dim"};
const OpRegistrar kRegistrars[] = {
    OpRegistrar(kNllLoss),           OpRegistrar(kNllLoss2d),           OpRegistrar(kNllLossBackward),
    OpRegistrar(kNllLoss2dBackward), OpRegistrar(kCrossEntropyLoss),    OpRegistrar(kCrossEntropyLossGrad),
    OpRegistrar(kCrossEntropyGrad),  OpRegistrar(kSoftmaxCrossEntropy), OpRegistrar(kSoftmaxGrad)};

const OpInfo kMultilabelMargin{"aclnnMultilabelMarginLoss", ExecUnit::kVector, kFloats,
                               "out = reduce(sum over j in y, i not in y of max(0, 1 - (x[j] - x[i])) / C)"};
const OpInfo kFusedCrossEntropy{
    "aclnnFusedCrossEntropyLossWithMaxSum",
    ExecUnit::kVector,
    {ACL_FLOAT},
    "loss = log(sumExpLogits) - predictedLogits; softmax = exp(v - max) / sumExp"};
const OpRegistrar kMoreRegistrars[] = {OpRegistrar(kMultilabelMargin), OpRegistrar(kFusedCrossEntropy)};

// self [N, C, d...] or [C]: N rows of C classes, K positions each (the product of d...).
struct ClassLayout {
  int64_t n = 1, c = 1, k = 1;
  std::vector<int64_t> targetShape;  // [N, d...], or [] for a [C] self
  int64_t at(int64_t row, int64_t cls, int64_t pos) const { return (row * c + cls) * k + pos; }
};

ClassLayout layoutOf(const std::vector<int64_t>& s) {
  ClassLayout l;
  if (s.size() == 1) {
    l.c = s[0];
    return l;
  }
  l.n = s[0];
  l.c = s[1];
  l.k = dimProduct(s, 2, s.size());
  l.targetShape = s;
  l.targetShape.erase(l.targetShape.begin() + 1);
  return l;
}

double reduceScale(Reduction r, double count) { return r == Reduction::kMean ? 1 / count : 1; }

// The cost of every class-loss kernel: operands read once, outs written once, `passes` passes.
rt::OpWork classLossWork(const OpInstance& op, int64_t elements, int passes) {
  VectorPass p{&op.inputs, &op.outputs[0], elements, passes - 1};
  for (size_t k = 1; k < op.outputs.size(); ++k)
    p.extraWriteBytes += op.outputs[k].numel() * op.outputs[k].elementSize();
  return vectorTiles(p);
}

// --- NLLLoss / NLLLoss2d ---
class NllInstance : public OpInstanceBase<NllInstance> {
 public:
  ClassLayout l;
  Reduction reduction = Reduction::kMean;
  int64_t ignoreIndex = -100;

  // Reads one self element per target (a gather, as index_op's Gather), the target and the
  // weight; writes out and totalWeightOut.
  rt::OpWork work() const override {
    TensorDesc gathered = inputs[0];
    gathered.shape = inputs[1].shape;
    const std::vector<TensorDesc> reads{gathered, inputs[1]};
    VectorPass p{&reads, &outputs[0], l.n * l.k, 2};
    p.extraReadBytes = inputs[2].numel() * inputs[2].elementSize();
    p.extraWriteBytes = outputs[1].numel() * outputs[1].elementSize();
    return vectorTiles(p);
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<double> x = loadDense<double>(in[0]), w = loadDense<double>(in[2]);
    const std::vector<int64_t> t = loadDense<int64_t>(in[1]);
    std::vector<double> loss(t.size(), 0.0);
    double sum = 0, totalWeight = 0;
    for (int64_t r = 0; r < l.n; ++r) {
      for (int64_t p = 0; p < l.k; ++p) {
        const size_t i = static_cast<size_t>(r * l.k + p);
        const int64_t cls = t[i];
        if (cls == ignoreIndex || cls < 0 || cls >= l.c) continue;  // out of range: no contribution
        const double wc = w[static_cast<size_t>(cls)];
        loss[i] = -wc * x[static_cast<size_t>(l.at(r, cls, p))];
        sum += loss[i];
        totalWeight += wc;
      }
    }
    if (reduction == Reduction::kNone) {
      storeDense(out[0], loss.data());
    } else {
      const double v = reduction == Reduction::kSum ? sum
                       : totalWeight == 0           ? std::numeric_limits<double>::quiet_NaN()
                                                    : sum / totalWeight;
      storeDense(out[0], &v);
    }
    storeDense(out[1], &totalWeight);
  }
};

// Shared checks of the NLL operators: self rank (1-2, or 4 for the 2d forms), target shape and
// type, weight [C]. Fills the layout.
int32_t checkNll(const char* api, const OpInfo& info, bool twoD, const aclTensor* self,
                 const aclTensor* target, const aclTensor* weight, ClassLayout* l) {
  int32_t st = kSuccess;
  for (auto [name, t] : {std::pair{"self", self}, {"target", target}, {"weight", weight}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  if ((st = checkDtype(api, "self", self->desc.dtype, info)) != kSuccess) return st;
  if ((st = checkDtype(api, "weight", weight->desc.dtype, info)) != kSuccess) return st;
  const OpInfo idx{api, ExecUnit::kVector, kIndexTypes, ""};
  if ((st = checkDtype(api, "target", target->desc.dtype, idx)) != kSuccess) return st;
  const size_t r = self->desc.rank();
  if (twoD ? r != 4 : (r < 1 || r > 2)) {
    return fail(api, kErrParamInvalid,
                fmt::format("self must have {} dimensions, but has shape {}", twoD ? "4" : "1 or 2",
                            shapeString(self->desc.shape)));
  }
  *l = layoutOf(self->desc.shape);
  if ((st = checkShape(api, "target", target->desc.shape, l->targetShape)) != kSuccess) return st;
  return checkShape(api, "weight", weight->desc.shape, {l->c});
}

int32_t buildNll(const OpInfo& info, bool twoD, const aclTensor* self, const aclTensor* target,
                 const aclTensor* weight, int64_t reduction, int64_t ignoreIndex, aclTensor* out,
                 aclTensor* totalWeightOut, uint64_t* ws, aclOpExecutor** ex) {
  const std::string apiName = info.name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self},
                                  {"target", target},
                                  {"weight", weight},
                                  {"out", out},
                                  {"totalWeightOut", totalWeightOut}});
  if (st != kSuccess) return st;
  auto inst = std::make_unique<NllInstance>();
  if ((st = checkNll(api, info, twoD, self, target, weight, &inst->l)) != kSuccess) return st;
  if ((st = lossReduction(api, reduction, &inst->reduction)) != kSuccess) return st;
  for (auto [name, t] : {std::pair{"out", out}, {"totalWeightOut", totalWeightOut}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, info)) != kSuccess) return st;
  }
  if (inst->reduction == Reduction::kNone) {
    if ((st = checkShape(api, "out", out->desc.shape, inst->l.targetShape)) != kSuccess) return st;
  } else if (out->desc.numel() != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("out must hold one element under mean or sum, but has shape {}",
                            shapeString(out->desc.shape)));
  }
  if (totalWeightOut->desc.numel() != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("totalWeightOut must hold one element, but has shape {}",
                            shapeString(totalWeightOut->desc.shape)));
  }
  inst->name = info.name;
  inst->ignoreIndex = ignoreIndex;
  inst->attrs = fmt::format("reduction={}, ignoreIndex={}", reduction, ignoreIndex);
  addInput(*inst, "self", self);
  addInput(*inst, "target", target);
  addInput(*inst, "weight", weight);
  addOutput(*inst, "out", out);
  addOutput(*inst, "totalWeightOut", totalWeightOut);
  return makeExecutor(api, std::move(inst), ws, ex);
}

// --- NLLLossBackward / NLLLoss2dBackward ---
class NllBackwardInstance : public OpInstanceBase<NllBackwardInstance> {
 public:
  ClassLayout l;
  Reduction reduction = Reduction::kMean;
  int64_t ignoreIndex = -100;

  // Writes the whole gradient (zeros and the scattered values); self gives only its shape and
  // is not read.
  rt::OpWork work() const override {
    const std::vector<TensorDesc> reads{inputs[0], inputs[2], inputs[3], inputs[4]};
    return vectorTiles(VectorPass{&reads, &outputs[0], outputs[0].numel(), 1});
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<double> g = loadDense<double>(in[0]), w = loadDense<double>(in[3]),
                              tw = loadDense<double>(in[4]);
    const std::vector<int64_t> t = loadDense<int64_t>(in[2]);
    std::vector<double> grad(static_cast<size_t>(l.n * l.c * l.k), 0.0);
    const double scale = reduction == Reduction::kMean ? 1 / tw[0] : 1;
    for (int64_t r = 0; r < l.n; ++r) {
      for (int64_t p = 0; p < l.k; ++p) {
        const size_t i = static_cast<size_t>(r * l.k + p);
        const int64_t cls = t[i];
        if (cls == ignoreIndex || cls < 0 || cls >= l.c) continue;
        const double gi = reduction == Reduction::kNone ? g[i] : g[0];
        grad[static_cast<size_t>(l.at(r, cls, p))] = -w[static_cast<size_t>(cls)] * gi * scale;
      }
    }
    storeDense(out[0], grad.data());
  }
};

int32_t buildNllBackward(const OpInfo& info, bool twoD, const aclTensor* gradOutput, const aclTensor* self,
                         const aclTensor* target, const aclTensor* weight, int64_t reduction,
                         int64_t ignoreIndex, const aclTensor* totalWeight, const aclTensor* out,
                         uint64_t* ws, aclOpExecutor** ex) {
  const std::string apiName = info.name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"gradOutput", gradOutput},
                                  {"self", self},
                                  {"target", target},
                                  {"weight", weight},
                                  {"totalWeight", totalWeight},
                                  {"out", out}});
  if (st != kSuccess) return st;
  auto inst = std::make_unique<NllBackwardInstance>();
  if ((st = checkNll(api, info, twoD, self, target, weight, &inst->l)) != kSuccess) return st;
  if ((st = lossReduction(api, reduction, &inst->reduction)) != kSuccess) return st;
  for (auto [name, t] : {std::pair{"gradOutput", gradOutput}, {"totalWeight", totalWeight}, {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, info)) != kSuccess) return st;
  }
  if (inst->reduction == Reduction::kNone) {
    if ((st = checkShape(api, "gradOutput", gradOutput->desc.shape, inst->l.targetShape)) != kSuccess)
      return st;
  } else if (gradOutput->desc.numel() != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("gradOutput must hold one element under mean or sum, but has shape {}",
                            shapeString(gradOutput->desc.shape)));
  }
  if (totalWeight->desc.numel() != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("totalWeight must hold one element, but has shape {}",
                            shapeString(totalWeight->desc.shape)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, self->desc.shape)) != kSuccess) return st;
  inst->name = info.name;
  inst->ignoreIndex = ignoreIndex;
  inst->attrs = fmt::format("reduction={}, ignoreIndex={}", reduction, ignoreIndex);
  addInput(*inst, "gradOutput", gradOutput);
  addInput(*inst, "self", self);
  addInput(*inst, "target", target);
  addInput(*inst, "weight", weight);
  addInput(*inst, "totalWeight", totalWeight);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}

// log-sum-exp of row[0..c) (max-shifted).
double logSumExp(const double* row, int64_t c) {
  double m = -std::numeric_limits<double>::infinity(), s = 0;
  for (int64_t j = 0; j < c; ++j) m = std::max(m, row[j]);
  for (int64_t j = 0; j < c; ++j) s += std::exp(row[j] - m);
  return m + std::log(s);
}

// --- CrossEntropyLoss ---
class CrossEntropyInstance : public OpInstanceBase<CrossEntropyInstance> {
 public:
  int64_t n = 0, c = 0;
  Reduction reduction = Reduction::kMean;
  int64_t ignoreIndex = -100;
  double smoothing = 0, zScale = 0;
  bool hasWeight = false, returnZloss = false;

  rt::OpWork work() const override { return classLossWork(*this, n * c, 6); }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<double> x = loadDense<double>(in[0]);
    const std::vector<int64_t> t = loadDense<int64_t>(in[1]);
    std::vector<double> w(static_cast<size_t>(c), 1.0);
    if (hasWeight) w = loadDense<double>(in[2]);
    std::vector<double> logProb(x.size()), loss(static_cast<size_t>(n), 0.0), lse(static_cast<size_t>(n)),
        zloss(static_cast<size_t>(n), 0.0);
    double weightSum = 0, kept = 0;
    for (int64_t r = 0; r < n; ++r) {
      const double* row = x.data() + r * c;
      lse[static_cast<size_t>(r)] = logSumExp(row, c);
      double smooth = 0;
      for (int64_t j = 0; j < c; ++j) {
        logProb[static_cast<size_t>(r * c + j)] = row[j] - lse[static_cast<size_t>(r)];
        smooth -= w[static_cast<size_t>(j)] * logProb[static_cast<size_t>(r * c + j)];
      }
      const int64_t cls = t[static_cast<size_t>(r)];
      if (cls == ignoreIndex || cls < 0 || cls >= c) continue;
      const double wc = w[static_cast<size_t>(cls)];
      loss[static_cast<size_t>(r)] = (1 - smoothing) * -wc * logProb[static_cast<size_t>(r * c + cls)] +
                                     smoothing / static_cast<double>(c) * smooth;
      zloss[static_cast<size_t>(r)] = zScale * lse[static_cast<size_t>(r)] * lse[static_cast<size_t>(r)];
      weightSum += wc;
      kept += 1;
    }
    storeReduced(out[0], loss, weightSum);
    storeDense(out[1], logProb.data());
    if (returnZloss) {
      storeReduced(out[2], zloss, kept);
      storeDense(out[3], lse.data());
    }
  }

 private:
  void storeReduced(const HostTensor& o, const std::vector<double>& v, double meanCount) const {
    if (reduction == Reduction::kNone) {
      storeDense(o, v.data());
      return;
    }
    double s = 0;
    for (double e : v) s += e;
    s *= reduceScale(reduction, meanCount);
    storeDense(o, &s);
  }
};

// --- CrossEntropyLossGrad ---
class CrossEntropyGradInstance : public OpInstanceBase<CrossEntropyGradInstance> {
 public:
  int64_t n = 0, c = 0;
  Reduction reduction = Reduction::kMean;
  int64_t ignoreIndex = -100;
  double smoothing = 0, zScale = 0;
  int weightIn = -1, zlossIn = -1, lseIn = -1;  // input indices of the optional operands

  rt::OpWork work() const override { return classLossWork(*this, n * c, 6); }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<double> g = loadDense<double>(in[0]), lp = loadDense<double>(in[1]);
    const std::vector<int64_t> t = loadDense<int64_t>(in[2]);
    std::vector<double> w(static_cast<size_t>(c), 1.0), gz, lse;
    if (weightIn >= 0) w = loadDense<double>(in[static_cast<size_t>(weightIn)]);
    if (zlossIn >= 0) gz = loadDense<double>(in[static_cast<size_t>(zlossIn)]);
    if (lseIn >= 0) lse = loadDense<double>(in[static_cast<size_t>(lseIn)]);
    double weightSum = 0;
    for (int64_t r = 0; r < n; ++r) {
      const int64_t cls = t[static_cast<size_t>(r)];
      if (cls != ignoreIndex && cls >= 0 && cls < c) weightSum += w[static_cast<size_t>(cls)];
    }
    double wAll = 0;
    for (double e : w) wAll += e;
    std::vector<double> dx(lp.size(), 0.0);
    for (int64_t r = 0; r < n; ++r) {
      const int64_t cls = t[static_cast<size_t>(r)];
      const bool keep = cls != ignoreIndex && cls >= 0 && cls < c;
      const double gr = (reduction == Reduction::kNone ? g[static_cast<size_t>(r)] : g[0]) *
                        (reduction == Reduction::kMean ? 1 / weightSum : 1) * (keep ? 1 : 0);
      const double nll = gr * (1 - smoothing) * (keep ? w[static_cast<size_t>(cls)] : 0);
      const double smooth = gr * smoothing / static_cast<double>(c);
      double z = 0;  // d(scale lse^2)/d lse, carried by the softmax
      if (!gz.empty() && !lse.empty()) {
        z = (gz.size() == 1 ? gz[0] : gz[static_cast<size_t>(r)]) * 2 * zScale * lse[static_cast<size_t>(r)];
      }
      for (int64_t j = 0; j < c; ++j) {
        const size_t i = static_cast<size_t>(r * c + j);
        const double p = std::exp(lp[i]);
        dx[i] = p * (nll + smooth * wAll + z) - smooth * w[static_cast<size_t>(j)] - (j == cls ? nll : 0);
      }
    }
    storeDense(out[0], dx.data());
  }
};

// Checks of the cross-entropy pair: [N, C] floating, target [N] of an index type, weight [C].
int32_t checkCrossEntropy(const char* api, const OpInfo& info, const char* xName, const aclTensor* x,
                          const aclTensor* target, const aclTensor* weight) {
  int32_t st = kSuccess;
  if ((st = checkTensor(api, xName, x->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "target", target->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, xName, x->desc.dtype, info)) != kSuccess) return st;
  const OpInfo idx{api, ExecUnit::kVector, kIndexTypes, ""};
  if ((st = checkDtype(api, "target", target->desc.dtype, idx)) != kSuccess) return st;
  if (x->desc.rank() != 2 || x->desc.shape[1] == 0) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("{} must be [N, C] with C > 0, but has shape {}", xName, shapeString(x->desc.shape)));
  }
  if ((st = checkShape(api, "target", target->desc.shape, {x->desc.shape[0]})) != kSuccess) return st;
  if (weight != nullptr) {
    if ((st = checkTensor(api, "weightOptional", weight->desc)) != kSuccess) return st;
    if (weight->desc.dtype != ACL_FLOAT) {
      return fail(api, kErrParamInvalid,
                  fmt::format("weightOptional must be fp32, but is {}", dtypeName(weight->desc.dtype)));
    }
    if ((st = checkShape(api, "weightOptional", weight->desc.shape, {x->desc.shape[1]})) != kSuccess)
      return st;
  }
  return kSuccess;
}

int32_t checkSmoothing(const char* api, double s) {
  if (s >= 0 && s <= 1) return kSuccess;
  return fail(api, kErrParamInvalid, fmt::format("labelSmoothing must be in [0, 1], but is {}", s));
}

// --- row-softmax operators: SoftmaxCrossEntropyWithLogits, CrossEntropyGrad, SoftmaxGrad ---
enum class RowKind { kSoftmaxCrossEntropy, kCrossEntropyGrad, kSoftmaxGrad };

class RowInstance : public OpInstanceBase<RowInstance> {
 public:
  RowKind kind = RowKind::kSoftmaxGrad;
  int64_t rows = 0, c = 0;

  rt::OpWork work() const override { return classLossWork(*this, rows * c, 5); }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<double> a = loadDense<double>(in[0]);
    std::vector<double> res(a.size()), loss(static_cast<size_t>(rows));
    const std::vector<double> b =
        kind == RowKind::kCrossEntropyGrad ? std::vector<double>{} : loadDense<double>(in[1]);
    const std::vector<int64_t> t =
        kind == RowKind::kCrossEntropyGrad ? loadDense<int64_t>(in[1]) : std::vector<int64_t>{};
    for (int64_t r = 0; r < rows; ++r) {
      const double* x = a.data() + r * c;
      double* o = res.data() + r * c;
      if (kind == RowKind::kSoftmaxGrad) {  // a = y, b = dy
        double dot = 0;
        for (int64_t j = 0; j < c; ++j) dot += x[j] * b[static_cast<size_t>(r * c + j)];
        for (int64_t j = 0; j < c; ++j) o[j] = x[j] * (b[static_cast<size_t>(r * c + j)] - dot);
        continue;
      }
      const double lse = logSumExp(x, c);
      double l = 0;
      for (int64_t j = 0; j < c; ++j) {
        const double target = kind == RowKind::kCrossEntropyGrad
                                  ? (t[static_cast<size_t>(r)] == j ? 1.0 : 0.0)
                                  : b[static_cast<size_t>(r * c + j)];
        o[j] = std::exp(x[j] - lse) - target;
        l -= target * (x[j] - lse);
      }
      loss[static_cast<size_t>(r)] = l;
    }
    if (kind == RowKind::kSoftmaxCrossEntropy) {
      storeDense(out[0], loss.data());
      storeDense(out[1], res.data());
    } else {
      storeDense(out[0], res.data());
    }
  }
};

// rows x C of a tensor whose last dimension is C (1-D: one row).
void rowsOf(const std::vector<int64_t>& s, int64_t* rows, int64_t* c) {
  *c = s.empty() ? 1 : s.back();
  *rows = s.empty() ? 1 : dimProduct(s, 0, s.size() - 1);
}

int32_t buildRow(const OpInfo& info, RowKind kind,
                 std::initializer_list<std::pair<const char*, const aclTensor*>> ins,
                 std::initializer_list<std::pair<const char*, const aclTensor*>> outs, uint64_t* ws,
                 aclOpExecutor** ex) {
  const std::string apiName = info.name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  rt::chargeOpPrepare(api);
  int32_t st = kSuccess;
  for (auto [name, t] : ins) {
    if (t == nullptr) return checkNotNull(api, {{name, t}});
  }
  for (auto [name, t] : outs) {
    if (t == nullptr) return checkNotNull(api, {{name, t}});
  }
  const aclTensor* x = ins.begin()->second;
  auto inst = std::make_unique<RowInstance>();
  inst->kind = kind;
  rowsOf(x->desc.shape, &inst->rows, &inst->c);
  for (auto [name, t] : ins) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    const bool index = kind == RowKind::kCrossEntropyGrad && t != x;
    if (index) {
      const OpInfo idx{api, ExecUnit::kVector, {ACL_INT32, ACL_INT64}, ""};
      if ((st = checkDtype(api, name, t->desc.dtype, idx)) != kSuccess) return st;
      std::vector<int64_t> rowShape(x->desc.shape.begin(),
                                    x->desc.shape.end() - (x->desc.rank() > 0 ? 1 : 0));
      if ((st = checkShape(api, name, t->desc.shape, rowShape)) != kSuccess) return st;
    } else {
      if ((st = checkDtype(api, name, t->desc.dtype, info)) != kSuccess) return st;
      if ((st = checkShape(api, name, t->desc.shape, x->desc.shape)) != kSuccess) return st;
    }
    addInput(*inst, name, t);
  }
  for (auto [name, t] : outs) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, info)) != kSuccess) return st;
    const bool lossOut = kind == RowKind::kSoftmaxCrossEntropy && t == outs.begin()->second;
    std::vector<int64_t> want = x->desc.shape;
    if (lossOut && !want.empty()) want.pop_back();
    if ((st = checkShape(api, name, t->desc.shape, want)) != kSuccess) return st;
    addOutput(*inst, name, t);
  }
  inst->name = info.name;
  return makeExecutor(api, std::move(inst), ws, ex);
}

// --- MultilabelMarginLoss: target rows list class indices up to the first -1 ---
class MultilabelMarginInstance : public OpInstanceBase<MultilabelMarginInstance> {
 public:
  int64_t n = 1, c = 0;
  Reduction reduction = Reduction::kMean;

  rt::OpWork work() const override { return classLossWork(*this, n * c, 4); }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<double> x = loadDense<double>(in[0]);
    const std::vector<int64_t> t = loadDense<int64_t>(in[1]);
    std::vector<double> loss(static_cast<size_t>(n), 0.0), isTarget(x.size(), 0.0);
    for (int64_t r = 0; r < n; ++r) {
      const double* xr = x.data() + r * c;
      double* mark = isTarget.data() + r * c;
      for (int64_t k = 0; k < c; ++k) {
        const int64_t cls = t[static_cast<size_t>(r * c + k)];
        if (cls < 0 || cls >= c) break;  // -1 ends the list
        mark[cls] = 1;
      }
      double l = 0;
      for (int64_t j = 0; j < c; ++j) {
        if (mark[j] == 0) continue;
        for (int64_t i = 0; i < c; ++i) {
          if (mark[i] == 0) l += std::max(0.0, 1 - (xr[j] - xr[i]));
        }
      }
      loss[static_cast<size_t>(r)] = l / static_cast<double>(c);
    }
    if (reduction == Reduction::kNone) {
      storeDense(out[0], loss.data());
    } else {
      double s = 0;
      for (double v : loss) s += v;
      s *= reduceScale(reduction, static_cast<double>(n));
      storeDense(out[0], &s);
    }
    storeDense(out[1], isTarget.data());
  }
};

// --- FusedCrossEntropyLossWithMaxSum: the tail of a vocabulary-parallel cross entropy ---
class FusedCrossEntropyInstance : public OpInstanceBase<FusedCrossEntropyInstance> {
 public:
  int64_t rows = 0, vocab = 0;
  int logitsIn = -1;  // input index of vocabParallelLogits, -1 without softMaxOut

  rt::OpWork work() const override { return classLossWork(*this, std::max<int64_t>(rows * vocab, rows), 3); }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<double> mx = loadDense<double>(in[0]), se = loadDense<double>(in[1]),
                              pred = loadDense<double>(in[2]);
    std::vector<double> loss(static_cast<size_t>(rows));
    for (size_t r = 0; r < loss.size(); ++r) loss[r] = std::log(se[r]) - pred[r];
    storeDense(out[0], loss.data());
    if (logitsIn < 0) return;
    std::vector<double> v = loadDense<double>(in[static_cast<size_t>(logitsIn)]);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t j = 0; j < vocab; ++j) {
        double& e = v[static_cast<size_t>(r * vocab + j)];
        e = std::exp(e - mx[static_cast<size_t>(r)]) / se[static_cast<size_t>(r)];
      }
    }
    storeDense(out[1], v.data());
  }
};

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnNLLLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                    const aclTensor* weight, int64_t reduction,
                                                    int64_t ignoreIndex, aclTensor* out,
                                                    aclTensor* totalWeightOut, uint64_t* ws,
                                                    aclOpExecutor** ex) {
  return buildNll(kNllLoss, false, self, target, weight, reduction, ignoreIndex, out, totalWeightOut, ws, ex);
}
NPUSIM_ACLNN_PHASE2(NLLLoss)

extern "C" aclnnStatus aclnnNLLLoss2dGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                      const aclTensor* weight, int64_t reduction,
                                                      int64_t ignoreIndex, aclTensor* out,
                                                      aclTensor* totalWeightOut, uint64_t* ws,
                                                      aclOpExecutor** ex) {
  return buildNll(kNllLoss2d, true, self, target, weight, reduction, ignoreIndex, out, totalWeightOut, ws,
                  ex);
}
NPUSIM_ACLNN_PHASE2(NLLLoss2d)

extern "C" aclnnStatus aclnnNLLLossBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                            const aclTensor* self, const aclTensor* target,
                                                            const aclTensor* weight, int64_t reduction,
                                                            int64_t ignoreIndex, const aclTensor* totalWeight,
                                                            aclTensor* out, uint64_t* ws,
                                                            aclOpExecutor** ex) {
  return buildNllBackward(kNllLossBackward, false, gradOutput, self, target, weight, reduction, ignoreIndex,
                          totalWeight, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(NLLLossBackward)

extern "C" aclnnStatus aclnnNLLLoss2dBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                              const aclTensor* self, const aclTensor* target,
                                                              const aclTensor* weight, int64_t reduction,
                                                              int64_t ignoreIndex, aclTensor* totalWeight,
                                                              aclTensor* out, uint64_t* ws,
                                                              aclOpExecutor** ex) {
  return buildNllBackward(kNllLoss2dBackward, true, gradOutput, self, target, weight, reduction, ignoreIndex,
                          totalWeight, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(NLLLoss2dBackward)

extern "C" aclnnStatus aclnnCrossEntropyLossGetWorkspaceSize(
    const aclTensor* input, const aclTensor* target, const aclTensor* weightOptional, char* reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, bool returnZloss,
    const aclTensor* lossOut, const aclTensor* logProbOut, const aclTensor* zlossOut,
    const aclTensor* lseForZlossOut, uint64_t* ws, aclOpExecutor** ex) {
  const char* api = "aclnnCrossEntropyLossGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(
      api, {{"input", input}, {"target", target}, {"lossOut", lossOut}, {"logProbOut", logProbOut}});
  if (st != kSuccess) return st;
  if (returnZloss &&
      (st = checkNotNull(api, {{"zlossOut", zlossOut}, {"lseForZlossOut", lseForZlossOut}})) != kSuccess) {
    return st;
  }
  auto inst = std::make_unique<CrossEntropyInstance>();
  if ((st = checkCrossEntropy(api, kCrossEntropyLoss, "input", input, target, weightOptional)) != kSuccess)
    return st;
  if ((st = lossReduction(api, reductionOptional == nullptr ? "mean" : reductionOptional,
                          &inst->reduction)) != kSuccess) {
    return st;
  }
  if ((st = checkSmoothing(api, labelSmoothing)) != kSuccess) return st;
  const int64_t n = input->desc.shape[0], c = input->desc.shape[1];
  const std::vector<int64_t> rowShape{n};
  std::vector<std::pair<const char*, const aclTensor*>> outs = {{"lossOut", lossOut},
                                                                {"logProbOut", logProbOut}};
  if (returnZloss) outs.insert(outs.end(), {{"zlossOut", zlossOut}, {"lseForZlossOut", lseForZlossOut}});
  for (auto [name, t] : outs) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kCrossEntropyLoss)) != kSuccess) return st;
    const std::string nm = name;
    const bool perRow = nm == "lseForZlossOut" || inst->reduction == Reduction::kNone;
    if (nm == "logProbOut") {
      if ((st = checkShape(api, name, t->desc.shape, input->desc.shape)) != kSuccess) return st;
    } else if (perRow) {
      if ((st = checkShape(api, name, t->desc.shape, rowShape)) != kSuccess) return st;
    } else if (t->desc.numel() != 1) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} must hold one element under mean or sum, but has shape {}", name,
                              shapeString(t->desc.shape)));
    }
  }
  inst->name = kCrossEntropyLoss.name;
  inst->n = n;
  inst->c = c;
  inst->ignoreIndex = ignoreIndex;
  inst->smoothing = labelSmoothing;
  inst->zScale = lseSquareScaleForZloss;
  inst->returnZloss = returnZloss;
  inst->hasWeight = weightOptional != nullptr;
  inst->attrs = fmt::format(
      "reduction={}, ignoreIndex={}, labelSmoothing={}, lseSquareScaleForZloss={}, returnZloss={}",
      reductionOptional == nullptr ? "mean" : reductionOptional, ignoreIndex, labelSmoothing,
      lseSquareScaleForZloss, returnZloss);
  addInput(*inst, "input", input);
  addInput(*inst, "target", target);
  if (weightOptional != nullptr) addInput(*inst, "weightOptional", weightOptional);
  for (auto [name, t] : outs) addOutput(*inst, name, t);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(CrossEntropyLoss)

extern "C" aclnnStatus aclnnCrossEntropyLossGradGetWorkspaceSize(
    const aclTensor* gradLoss, const aclTensor* logProb, const aclTensor* target,
    const aclTensor* weightOptional, const aclTensor* gradZlossOptional, const aclTensor* lseForZlossOptional,
    char* reductionOptional, int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss,
    const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  const char* api = "aclnnCrossEntropyLossGradGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st =
      checkNotNull(api, {{"gradLoss", gradLoss}, {"logProb", logProb}, {"target", target}, {"out", out}});
  if (st != kSuccess) return st;
  auto inst = std::make_unique<CrossEntropyGradInstance>();
  if ((st = checkCrossEntropy(api, kCrossEntropyLossGrad, "logProb", logProb, target, weightOptional)) !=
      kSuccess) {
    return st;
  }
  if ((st = lossReduction(api, reductionOptional == nullptr ? "mean" : reductionOptional,
                          &inst->reduction)) != kSuccess) {
    return st;
  }
  if ((st = checkSmoothing(api, labelSmoothing)) != kSuccess) return st;
  const int64_t n = logProb->desc.shape[0];
  for (auto [name, t] : {std::pair{"gradLoss", gradLoss}, {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kCrossEntropyLossGrad)) != kSuccess) return st;
  }
  if (inst->reduction == Reduction::kNone) {
    if ((st = checkShape(api, "gradLoss", gradLoss->desc.shape, {n})) != kSuccess) return st;
  } else if (gradLoss->desc.numel() != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("gradLoss must hold one element under mean or sum, but has shape {}",
                            shapeString(gradLoss->desc.shape)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, logProb->desc.shape)) != kSuccess) return st;
  addInput(*inst, "gradLoss", gradLoss);
  addInput(*inst, "logProb", logProb);
  addInput(*inst, "target", target);
  auto optional = [&](const char* name, const aclTensor* t, int* slot) {
    if (t == nullptr) return kSuccess;
    int32_t s = checkTensor(api, name, t->desc);
    if (s != kSuccess) return s;
    *slot = static_cast<int>(inst->inputs.size());
    addInput(*inst, name, t);
    return kSuccess;
  };
  if ((st = optional("weightOptional", weightOptional, &inst->weightIn)) != kSuccess) return st;
  if ((st = optional("gradZlossOptional", gradZlossOptional, &inst->zlossIn)) != kSuccess) return st;
  if ((st = optional("lseForZlossOptional", lseForZlossOptional, &inst->lseIn)) != kSuccess) return st;
  inst->name = kCrossEntropyLossGrad.name;
  inst->n = n;
  inst->c = logProb->desc.shape[1];
  inst->ignoreIndex = ignoreIndex;
  inst->smoothing = labelSmoothing;
  inst->zScale = lseSquareScaleForZloss;
  inst->attrs =
      fmt::format("reduction={}, ignoreIndex={}, labelSmoothing={}",
                  reductionOptional == nullptr ? "mean" : reductionOptional, ignoreIndex, labelSmoothing);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(CrossEntropyLossGrad)

extern "C" aclnnStatus aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(const aclTensor* features,
                                                                          aclTensor* labels, aclTensor* loss,
                                                                          aclTensor* backprop, uint64_t* ws,
                                                                          aclOpExecutor** ex) {
  return buildRow(kSoftmaxCrossEntropy, RowKind::kSoftmaxCrossEntropy,
                  {{"features", features}, {"labels", labels}}, {{"loss", loss}, {"backprop", backprop}}, ws,
                  ex);
}
NPUSIM_ACLNN_PHASE2(SoftmaxCrossEntropyWithLogits)

extern "C" aclnnStatus aclnnCrossEntropyGradGetWorkspaceSize(const aclTensor* logits, const aclTensor* target,
                                                             const aclTensor* gradInput, uint64_t* ws,
                                                             aclOpExecutor** ex) {
  return buildRow(kCrossEntropyGrad, RowKind::kCrossEntropyGrad, {{"logits", logits}, {"target", target}},
                  {{"gradInput", gradInput}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(CrossEntropyGrad)

extern "C" aclnnStatus aclnnSoftmaxGradGetWorkspaceSize(const aclTensor* y, const aclTensor* dy,
                                                        const aclTensor* dx, uint64_t* ws,
                                                        aclOpExecutor** ex) {
  return buildRow(kSoftmaxGrad, RowKind::kSoftmaxGrad, {{"y", y}, {"dy", dy}}, {{"dx", dx}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(SoftmaxGrad)

extern "C" aclnnStatus aclnnMultilabelMarginLossGetWorkspaceSize(const aclTensor* self,
                                                                 const aclTensor* target, int64_t reduction,
                                                                 aclTensor* out, aclTensor* isTarget,
                                                                 uint64_t* ws, aclOpExecutor** ex) {
  const char* api = "aclnnMultilabelMarginLossGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"target", target}, {"out", out}, {"isTarget", isTarget}});
  if (st != kSuccess) return st;
  auto inst = std::make_unique<MultilabelMarginInstance>();
  if ((st = lossReduction(api, reduction, &inst->reduction)) != kSuccess) return st;
  for (auto [name, t] : {std::pair{"self", self}, {"target", target}, {"out", out}, {"isTarget", isTarget}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  for (auto [name, t] : {std::pair{"self", self}, {"out", out}, {"isTarget", isTarget}}) {
    if ((st = checkDtype(api, name, t->desc.dtype, kMultilabelMargin)) != kSuccess) return st;
  }
  const OpInfo idx{api, ExecUnit::kVector, {ACL_INT32, ACL_INT64}, ""};
  if ((st = checkDtype(api, "target", target->desc.dtype, idx)) != kSuccess) return st;
  const auto& xs = self->desc.shape;
  if (xs.empty() || xs.size() > 2) {
    return fail(api, kErrParamInvalid,
                fmt::format("self must be [C] or [N, C], but has shape {}", shapeString(xs)));
  }
  if ((st = checkShape(api, "target", target->desc.shape, xs)) != kSuccess) return st;
  if ((st = checkShape(api, "isTarget", isTarget->desc.shape, xs)) != kSuccess) return st;
  inst->n = xs.size() == 2 ? xs[0] : 1;
  inst->c = xs.back();
  if (inst->reduction == Reduction::kNone) {
    const std::vector<int64_t> rowShape =
        xs.size() == 2 ? std::vector<int64_t>{xs[0]} : std::vector<int64_t>{};
    if ((st = checkShape(api, "out", out->desc.shape, rowShape)) != kSuccess) return st;
  } else if (out->desc.numel() != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("out must hold one element under mean or sum, but has shape {}",
                            shapeString(out->desc.shape)));
  }
  inst->name = kMultilabelMargin.name;
  inst->attrs = fmt::format("reduction={}", reduction);
  addInput(*inst, "self", self);
  addInput(*inst, "target", target);
  addOutput(*inst, "out", out);
  addOutput(*inst, "isTarget", isTarget);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(MultilabelMarginLoss)

// inputOptional and weightOptional (the matmul the fused form would run) are not read: the doc
// supports only their absence, and the public example passes tensors it does not need.
extern "C" aclnnStatus aclnnFusedCrossEntropyLossWithMaxSumGetWorkspaceSize(
    const aclTensor* logitsMax, const aclTensor* sumExpLogits, const aclTensor* predictedLogits,
    float labelSmoothing, const aclTensor* inputOptional, const aclTensor* weightOptional,
    const aclTensor* vocabParallelLogitsOptional, aclTensor* lossOut, aclTensor* softMaxOutOptional,
    uint64_t* ws, aclOpExecutor** ex) {
  const char* api = "aclnnFusedCrossEntropyLossWithMaxSumGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"logitsMax", logitsMax},
                                  {"sumExpLogits", sumExpLogits},
                                  {"predictedLogits", predictedLogits},
                                  {"lossOut", lossOut}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"logitsMax", logitsMax},
                         {"sumExpLogits", sumExpLogits},
                         {"predictedLogits", predictedLogits},
                         {"lossOut", lossOut}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kFusedCrossEntropy)) != kSuccess) return st;
    if (t->desc.rank() != 1) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} must be 1-D, but has shape {}", name, shapeString(t->desc.shape)));
    }
    if ((st = checkShape(api, name, t->desc.shape, logitsMax->desc.shape)) != kSuccess) return st;
  }
  const bool softmax = vocabParallelLogitsOptional != nullptr && softMaxOutOptional != nullptr;
  auto inst = std::make_unique<FusedCrossEntropyInstance>();
  inst->rows = logitsMax->desc.shape[0];
  addInput(*inst, "logitsMax", logitsMax);
  addInput(*inst, "sumExpLogits", sumExpLogits);
  addInput(*inst, "predictedLogits", predictedLogits);
  if (softmax) {
    const OpInfo logitsTypes{api, ExecUnit::kVector, kFloats, ""};
    for (auto [name, t] : {std::pair{"vocabParallelLogitsOptional", vocabParallelLogitsOptional},
                           {"softMaxOutOptional", softMaxOutOptional}}) {
      if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
      if ((st = checkDtype(api, name, t->desc.dtype, logitsTypes)) != kSuccess) return st;
      if (t->desc.rank() != 2 || t->desc.shape[0] != inst->rows) {
        return fail(api, kErrParamInvalid,
                    fmt::format("{} must be [{}, V], but has shape {}", name, inst->rows,
                                shapeString(t->desc.shape)));
      }
    }
    if ((st = checkShape(api, "softMaxOutOptional", softMaxOutOptional->desc.shape,
                         vocabParallelLogitsOptional->desc.shape)) != kSuccess) {
      return st;
    }
    inst->vocab = vocabParallelLogitsOptional->desc.shape[1];
    inst->logitsIn = static_cast<int>(inst->inputs.size());
    addInput(*inst, "vocabParallelLogitsOptional", vocabParallelLogitsOptional);
  }
  inst->name = kFusedCrossEntropy.name;
  inst->attrs = fmt::format("labelSmoothing={}", labelSmoothing);
  addOutput(*inst, "lossOut", lossOut);
  if (softmax) addOutput(*inst, "softMaxOutOptional", softMaxOutOptional);
  (void)inputOptional;
  (void)weightOptional;
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(FusedCrossEntropyLossWithMaxSum)
