// aclnnCtcLoss (ops-nn loss/ctc_loss_v2 docs, loss/ctc_loss_v3 example): the connectionist
// temporal classification loss by the forward (alpha) recursion in log space. logProbs
// [T, N, C] (or [T, C]: N = 1), targets [N, S] padded or 1-D concatenated, one input and one
// target length per batch. The blank-extended target l' = (blank, y1, blank, y2, ..., blank);
// alpha[0][0] = lp[0][blank], alpha[0][1] = lp[0][y1]; alpha[t][s] = lp[t][l'[s]] + logsumexp of
// alpha[t-1][s], alpha[t-1][s-1] and, where l'[s] is a label unlike l'[s-2], alpha[t-1][s-2].
// negLogLikelihood = -logsumexp(alpha[T_n-1][2L], alpha[T_n-1][2L-1]) (0 for an infinite loss
// when zeroInfinity). logAlphaOut [N, T, (2 max(L) + 8) / 8 * 8] (the 910B layout of the doc)
// holds alpha, -inf where no path reaches. Cost: logProbs and targets read once, both outs
// written once, a few vector passes per alpha element.
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "aclnnop/aclnn_ctc_loss.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnCtcLoss",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_DOUBLE},
                   "negLogLikelihood = -log sum over alignments of prod lp[t][path t] (alpha recursion)"};
const OpRegistrar kRegistrar(kInfo);
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

double logAdd(double a, double b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  const double m = std::max(a, b);
  return m + std::log1p(std::exp(-std::fabs(a - b)));
}

class CtcLossInstance : public OpInstanceBase<CtcLossInstance> {
 public:
  int64_t t = 0, n = 0, c = 0, s = 0, width = 0, blank = 0;
  bool padded = true, zeroInfinity = false;
  std::vector<int64_t> inputLengths, targetLengths;

  rt::OpWork work() const override {
    VectorPass p{&inputs, &outputs[1], n * t * width, 4};
    p.extraWriteBytes = outputs[0].numel() * outputs[0].elementSize();
    return vectorTiles(p);
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<double> lp = loadDense<double>(in[0]);
    const std::vector<int64_t> tg = loadDense<int64_t>(in[1]);
    std::vector<double> nll(static_cast<size_t>(n)), alpha(static_cast<size_t>(n * t * width), kNegInf);
    int64_t offset = 0;  // start of batch b's labels in a concatenated targets
    for (int64_t b = 0; b < n; ++b) {
      const int64_t len = targetLengths[static_cast<size_t>(b)], steps = inputLengths[static_cast<size_t>(b)];
      const int64_t* y = tg.data() + (padded ? b * s : offset);
      offset += len;
      auto label = [&](int64_t k) { return k % 2 == 0 ? blank : y[k / 2]; };
      auto logp = [&](int64_t time, int64_t cls) {
        return cls >= 0 && cls < c ? lp[static_cast<size_t>((time * n + b) * c + cls)] : kNegInf;
      };
      double* a = alpha.data() + b * t * width;
      const int64_t ext = 2 * len + 1;
      if (steps > 0) {
        a[0] = logp(0, blank);
        if (ext > 1) a[1] = logp(0, label(1));
      }
      for (int64_t time = 1; time < steps; ++time) {
        const double* prev = a + (time - 1) * width;
        double* cur = a + time * width;
        for (int64_t k = 0; k < ext; ++k) {
          double v = prev[k];
          if (k >= 1) v = logAdd(v, prev[k - 1]);
          if (k >= 2 && k % 2 == 1 && label(k) != label(k - 2)) v = logAdd(v, prev[k - 2]);
          cur[k] = v == kNegInf ? kNegInf : v + logp(time, label(k));
        }
      }
      double total = kNegInf;
      if (steps > 0) {
        const double* last = a + (steps - 1) * width;
        total = logAdd(last[ext - 1], ext > 1 ? last[ext - 2] : kNegInf);
      }
      double loss = -total;
      if (zeroInfinity && std::isinf(loss)) loss = 0;
      nll[static_cast<size_t>(b)] = loss;
    }
    storeDense(out[0], nll.data());
    storeDense(out[1], alpha.data());
  }
};

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnCtcLossGetWorkspaceSize(const aclTensor* logProbs, const aclTensor* targets,
                                                    const aclIntArray* inputLengths,
                                                    const aclIntArray* targetLengths, int64_t blank,
                                                    bool zeroInfinity, aclTensor* negLogLikelihoodOut,
                                                    aclTensor* logAlphaOut, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnCtcLossGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"logProbs", logProbs},
                                  {"targets", targets},
                                  {"inputLengths", inputLengths},
                                  {"targetLengths", targetLengths},
                                  {"negLogLikelihoodOut", negLogLikelihoodOut},
                                  {"logAlphaOut", logAlphaOut}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"logProbs", logProbs},
                         {"targets", targets},
                         {"negLogLikelihoodOut", negLogLikelihoodOut},
                         {"logAlphaOut", logAlphaOut}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  for (auto [name, t] : {std::pair{"logProbs", logProbs},
                         {"negLogLikelihoodOut", negLogLikelihoodOut},
                         {"logAlphaOut", logAlphaOut}}) {
    if ((st = checkDtype(api, name, t->desc.dtype, kInfo)) != kSuccess) return st;
  }
  const OpInfo idx{api, ExecUnit::kVector, {ACL_INT64, ACL_INT32}, ""};
  if ((st = checkDtype(api, "targets", targets->desc.dtype, idx)) != kSuccess) return st;
  const auto& ls = logProbs->desc.shape;
  if (ls.size() != 2 && ls.size() != 3) {
    return fail(api, kErrParamInvalid,
                fmt::format("logProbs must be [T, N, C] or [T, C], but is {}", shapeString(ls)));
  }
  auto inst = std::make_unique<CtcLossInstance>();
  inst->t = ls[0];
  inst->n = ls.size() == 3 ? ls[1] : 1;
  inst->c = ls.back();
  inst->inputLengths = inputLengths->values;
  inst->targetLengths = targetLengths->values;
  if (static_cast<int64_t>(inst->inputLengths.size()) != inst->n ||
      static_cast<int64_t>(inst->targetLengths.size()) != inst->n) {
    return fail(api, kErrParamInvalid,
                fmt::format("inputLengths and targetLengths must have N = {} values, but have {} and {}",
                            inst->n, inst->inputLengths.size(), inst->targetLengths.size()));
  }
  if (blank < 0 || blank >= inst->c) {
    return fail(api, kErrParamInvalid, fmt::format("blank must be in [0, {}), not {}", inst->c, blank));
  }
  const auto& ts = targets->desc.shape;
  inst->padded = ts.size() == 2;
  int64_t maxLen = 0, sum = 0;
  for (size_t b = 0; b < inst->targetLengths.size(); ++b) {
    const int64_t len = inst->targetLengths[b], steps = inst->inputLengths[b];
    if (len < 0 || steps < 0 || steps > inst->t || (inst->padded && len > ts[1])) {
      return fail(api, kErrParamInvalid,
                  fmt::format("batch {}: input length {} must be in [0, {}] and target length {} in [0, {}]",
                              b, steps, inst->t, len, inst->padded ? ts[1] : len));
    }
    maxLen = std::max(maxLen, len);
    sum += len;
  }
  if (inst->padded ? ts[0] != inst->n : !(ts.size() == 1 && ts[0] >= sum)) {
    return fail(api, kErrParamInvalid,
                fmt::format("targets must be [{}, S] or 1-D of at least {} labels, but is {}", inst->n, sum,
                            shapeString(ts)));
  }
  inst->s = inst->padded ? ts[1] : 0;
  inst->width = (2 * maxLen + 8) / 8 * 8;
  const std::vector<int64_t> nllShape =
      ls.size() == 3 ? std::vector<int64_t>{inst->n} : std::vector<int64_t>{};
  if ((st = checkShape(api, "negLogLikelihoodOut", negLogLikelihoodOut->desc.shape, nllShape)) != kSuccess)
    return st;
  if ((st = checkShape(api, "logAlphaOut", logAlphaOut->desc.shape, {inst->n, inst->t, inst->width})) !=
      kSuccess) {
    return st;
  }
  inst->name = kInfo.name;
  inst->blank = blank;
  inst->zeroInfinity = zeroInfinity;
  inst->attrs = fmt::format("blank={}, zeroInfinity={}", blank, zeroInfinity);
  addInput(*inst, "logProbs", logProbs);
  addInput(*inst, "targets", targets);
  addOutput(*inst, "negLogLikelihoodOut", negLogLikelihoodOut);
  addOutput(*inst, "logAlphaOut", logAlphaOut);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(CtcLoss)
