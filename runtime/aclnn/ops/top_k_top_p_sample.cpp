// aclnnTopKTopPSample and aclnnTopKTopPSampleV2 (ops-nn index/top_k_top_p_sample, _v2): per
// row of logits [B, V], in the docs' order:
//  - candidates: the row by descending logit, ties by ascending index (the order the kernels'
//    stable merges keep), when any filter below is on; else the row as it is.
//  - top-k: 1 <= topK[b] <= min(ksMax rounded up to 8, 1024, V) keeps the first topK[b]; other
//    values skip it (V1: ksMax 1024).
//  - probabilities: the safe softmax of the kept candidates (inputIsLogits, always for V1), or
//    the values themselves.
//  - top-p: topP[b] < 1 drops a candidate when the probability mass of those before it exceeds
//    topP[b] (V1 doc: (probsSum - sorted) > topP; its kernel's first inclusive sum > topP), so
//    the most likely stays; >= 1 skips; <= 0 keeps only the most likely (V2 doc) or skips (V1
//    kernel: top-p only for 0 < topP < 1).
//  - min-p (V2): 0 < minPs[b] < 1 drops probabilities below minPs[b] times the largest; >= 1
//    keeps the largest only; <= 0 or no minPs skips.
//  - sampling: index = the original index of argmax(probs[i] / (|q[b][i]| + eps)) over the kept
//    ones, with q aligned to the kept, compacted probabilities (the V2 doc's Q-sample rule), the
//    first of equal maxima; without q, of argmax(probs).
//  - isNeedLogits: logitsTopKPSelect = the input logits kept (fp32), defLogit elsewhere.
//  - isNeedSampleResult (V2, q null, logitsSelectIdx not written): logitsIdx[b][i] = index of
//    the i-th candidate, logitsSortMasked[b][i] = its probability if kept, 0 if min-p dropped
//    it, defLogit if top-k or top-p did.
// defLogit = -inf (inputIsLogits) or 0. The random numbers are the caller's q: the operator
// draws none, so the same inputs give the same result; topKGuess only steers the kernels'
// search for the top-p set. Computed in fp64. Cost: inputs read, outputs written, 6 passes.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "aclnnop/aclnn_top_k_top_p_sample.h"
#include "aclnnop/aclnn_top_k_top_p_sample_v2.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

// The docs: logits, topP (and V2's minPs) FLOAT16, BFLOAT16 (V2 also FLOAT32); topK INT32; q
// FLOAT32; logitsSelectIdx and logitsIdx INT64; logitsTopKPSelect and logitsSortMasked FLOAT32.
const OpInfo kInfoV1{"aclnnTopKTopPSample",
                     ExecUnit::kVector,
                     {ACL_FLOAT16, ACL_BF16},
                     "index of argmax(softmax(top-p(top-k(logits))) / (q + eps)) per row"};
const OpInfo kInfoV2{"aclnnTopKTopPSampleV2",
                     ExecUnit::kVector,
                     {ACL_FLOAT16, ACL_BF16, ACL_FLOAT},
                     "index of argmax(min-p(top-p(top-k(logits))) / (q + eps)) per row"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kInfoV1), OpRegistrar(kInfoV2)};

constexpr int64_t kTopKMax = 1024;  // the docs' largest topK that is applied

struct SampleOptions {
  double eps = 1e-8;
  int64_t topKLimit = kTopKMax;  // min(ksMax rounded up to 8, 1024)
  bool inputIsLogits = true, needLogits = false, needSampleResult = false, v2 = false;
};

// Inputs: logits, topK, topP, then q and minPs when given (slots below); outputs:
// logitsSelectIdx, logitsTopKPSelect, logitsIdx, logitsSortMasked when given.
class TopKTopPSampleInstance : public OpInstanceBase<TopKTopPSampleInstance> {
 public:
  SampleOptions opt;
  int qSlot = -1, minPSlot = -1;
  int outSlot[4] = {-1, -1, -1, -1};

  rt::OpWork work() const override {
    VectorPass pass{&inputs, &outputs[0], inputs[0].numel(), 6};
    for (size_t o = 1; o < outputs.size(); ++o)
      pass.extraWriteBytes += static_cast<uint64_t>(outputs[o].numel()) * outputs[o].elementSize();
    return vectorTiles(pass);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<double> logits = loadDense<double>(in[0]);
    const std::vector<int64_t> topK = loadDense<int64_t>(in[1]);
    const std::vector<double> topP = loadDense<double>(in[2]);
    const std::vector<double> q =
        qSlot >= 0 ? loadDense<double>(in[static_cast<size_t>(qSlot)]) : std::vector<double>();
    const std::vector<double> minP =
        minPSlot >= 0 ? loadDense<double>(in[static_cast<size_t>(minPSlot)]) : std::vector<double>();
    const int64_t rows = in[0].shape[0], v = in[0].shape[1];
    const double inf = std::numeric_limits<double>::infinity(), defLogit = opt.inputIsLogits ? -inf : 0.0;
    const size_t n = logits.size();
    std::vector<int64_t> chosen(static_cast<size_t>(rows)), idxOut(opt.needSampleResult ? n : 0);
    std::vector<double> selectOut(opt.needLogits ? n : 0, defLogit), sortOut(opt.needSampleResult ? n : 0);
    std::vector<int64_t> order(static_cast<size_t>(v));
    std::vector<double> prob(static_cast<size_t>(v));
    enum Drop : char { kKept, kByTopKP, kByMinP };
    std::vector<Drop> drop(static_cast<size_t>(v));
    for (int64_t b = 0; b < rows; ++b) {
      const size_t bs = static_cast<size_t>(b);
      const double* row = logits.data() + b * v;
      std::iota(order.begin(), order.end(), int64_t{0});
      const int64_t k = topK[bs];
      const double p = topP[bs], mp = minP.empty() ? 0.0 : minP[bs];
      const bool doTopK = k >= 1 && k <= std::min(v, opt.topKLimit), doTopP = p < 1 && (opt.v2 || p > 0);
      const bool doMinP = !minP.empty() && mp > 0;
      auto before = [row](int64_t i, int64_t j) { return row[i] > row[j] || (row[i] == row[j] && i < j); };
      int64_t kept = v;  // candidates order[0, kept) survive top-k
      if (doTopK) {
        std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
        std::sort(order.begin() + k, order.end(), before);
        kept = k;
      } else if (doTopP || doMinP) {
        std::sort(order.begin(), order.end(), before);
      }
      std::fill(drop.begin(), drop.end(), kKept);
      for (int64_t i = kept; i < v; ++i) drop[static_cast<size_t>(i)] = kByTopKP;
      // Probabilities of the top-k survivors, in candidate order.
      double top = -inf, sum = 0;
      for (int64_t i = 0; i < kept; ++i) top = std::max(top, row[order[static_cast<size_t>(i)]]);
      for (int64_t i = 0; i < kept; ++i) {
        const double x = row[order[static_cast<size_t>(i)]];
        prob[static_cast<size_t>(i)] = opt.inputIsLogits ? std::exp(x - top) : x;
        sum += prob[static_cast<size_t>(i)];
      }
      if (opt.inputIsLogits)
        for (int64_t i = 0; i < kept; ++i) prob[static_cast<size_t>(i)] /= sum;
      if (doTopP) {
        double mass = 0;
        for (int64_t i = 0; i < kept; ++i) {
          if (i > 0 && (p <= 0 || mass > p)) drop[static_cast<size_t>(i)] = kByTopKP;
          mass += prob[static_cast<size_t>(i)];
        }
      }
      if (doMinP) {
        const double threshold = prob[0] * mp;  // prob[0]: the largest (candidates are sorted)
        for (int64_t i = 1; i < kept; ++i) {
          if (drop[static_cast<size_t>(i)] == kKept && (mp >= 1 || prob[static_cast<size_t>(i)] < threshold))
            drop[static_cast<size_t>(i)] = kByMinP;
        }
      }
      // Sampling over the kept probabilities, compacted in candidate order.
      int64_t best = 0, position = 0;
      double bestScore = -inf;
      for (int64_t i = 0; i < kept; ++i) {
        if (drop[static_cast<size_t>(i)] != kKept) continue;
        const double qv = q.empty() ? 0 : q[static_cast<size_t>(b * v + position)];
        const double score = q.empty() ? prob[static_cast<size_t>(i)]
                                       : prob[static_cast<size_t>(i)] / (std::fabs(qv) + opt.eps);
        if (score > bestScore) {
          bestScore = score;
          best = i;
        }
        ++position;
      }
      chosen[bs] = order[static_cast<size_t>(best)];
      for (int64_t i = 0; i < v; ++i) {
        const size_t at = static_cast<size_t>(b * v + i),
                     orig = static_cast<size_t>(b * v + order[static_cast<size_t>(i)]);
        const Drop d = drop[static_cast<size_t>(i)];
        if (opt.needLogits && d == kKept) selectOut[orig] = logits[orig];
        if (opt.needSampleResult) {
          idxOut[at] = order[static_cast<size_t>(i)];
          sortOut[at] = d == kKept ? prob[static_cast<size_t>(i)] : d == kByMinP ? 0.0 : defLogit;
        }
      }
    }
    if (outSlot[0] >= 0 && !opt.needSampleResult)
      storeDense(out[static_cast<size_t>(outSlot[0])], chosen.data());
    if (outSlot[1] >= 0 && opt.needLogits) storeDense(out[static_cast<size_t>(outSlot[1])], selectOut.data());
    if (opt.needSampleResult) {
      storeDense(out[static_cast<size_t>(outSlot[2])], idxOut.data());
      storeDense(out[static_cast<size_t>(outSlot[3])], sortOut.data());
    }
  }
};

struct SampleArgs {
  const aclTensor *logits, *topK, *topP, *q, *minPs;
  int64_t topKGuess, ksMax;
  const aclTensor* outs[4];  // logitsSelectIdx, logitsTopKPSelect, logitsIdx, logitsSortMasked
};

int32_t build(const OpInfo& info, const SampleArgs& a, const SampleOptions& opt, uint64_t* workspaceSize,
              aclOpExecutor** executor) {
  const std::string apiName = info.name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  const char* outNames[4] = {"logitsSelectIdx", "logitsTopKPSelect", "logitsIdx", "logitsSortMasked"};
  int32_t st = checkNotNull(api, {{"logits", a.logits}, {"topK", a.topK}, {"topP", a.topP}});
  if (st != kSuccess) return st;
  // Outputs the call writes must be given (V1: the two it names).
  const bool needed[4] = {!opt.needSampleResult, opt.needLogits || !opt.v2, opt.needSampleResult,
                          opt.needSampleResult};
  for (int o = 0; o < 4; ++o) {
    if (needed[o] && a.outs[o] == nullptr)
      return fail(api, kErrParamNullptr, fmt::format("{} must not be nullptr", outNames[o]));
  }
  for (auto [name, t] :
       {std::pair{"logits", a.logits}, {"topK", a.topK}, {"topP", a.topP}, {"q", a.q}, {"minPs", a.minPs}}) {
    if (t != nullptr && (st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  for (int o = 0; o < 4; ++o) {
    if (a.outs[o] != nullptr && (st = checkTensor(api, outNames[o], a.outs[o]->desc)) != kSuccess) return st;
  }
  if ((st = checkDtype(api, "logits", a.logits->desc.dtype, info)) != kSuccess) return st;
  const TensorDesc& l = a.logits->desc;
  if (l.rank() != 2 || l.numel() == 0 || l.shape[1] > (int64_t{1} << 20))
    return fail(api, kErrParamInvalid,
                fmt::format("logits {} must be 2-D [batch, vocabulary], not empty, vocabulary <= 2^20",
                            shapeString(l.shape)));
  const std::vector<int64_t> rows{l.shape[0]};
  auto expect = [&](const char* name, const aclTensor* t, aclDataType dt, const std::vector<int64_t>& shape) {
    if (t == nullptr) return kSuccess;
    if (t->desc.dtype != dt)
      return fail(api, kErrParamInvalid,
                  fmt::format("{} type must be {}, not {}", name, dtypeName(dt), dtypeName(t->desc.dtype)));
    return checkShape(api, name, t->desc.shape, shape);
  };
  const aclDataType outTypes[4] = {ACL_INT64, ACL_FLOAT, ACL_INT64, ACL_FLOAT};
  for (auto [name, t, dt, shape] : {std::tuple{"topK", a.topK, ACL_INT32, rows},
                                    {"topP", a.topP, l.dtype, rows},
                                    {"minPs", a.minPs, l.dtype, rows},
                                    {"q", a.q, ACL_FLOAT, l.shape},
                                    {outNames[0], a.outs[0], outTypes[0], rows},
                                    {outNames[1], a.outs[1], outTypes[1], l.shape},
                                    {outNames[2], a.outs[2], outTypes[2], l.shape},
                                    {outNames[3], a.outs[3], outTypes[3], l.shape}}) {
    if ((st = expect(name, t, dt, shape)) != kSuccess) return st;
  }
  if (a.topKGuess <= 0)
    return fail(api, kErrParamInvalid, fmt::format("topKGuess {} must be positive", a.topKGuess));
  if (a.ksMax < 1 || a.ksMax > kTopKMax)
    return fail(api, kErrParamInvalid, fmt::format("ksMax {} must be in [1, 1024]", a.ksMax));
  if (opt.needSampleResult && a.q != nullptr)
    return fail(api, kErrParamInvalid, "isNeedSampleResult takes q = nullptr (no sampling)");
  auto inst = std::make_unique<TopKTopPSampleInstance>();
  inst->name = info.name;
  inst->opt = opt;
  inst->opt.topKLimit = std::min<int64_t>((a.ksMax + 7) / 8 * 8, kTopKMax);
  addInput(*inst, "logits", a.logits);
  addInput(*inst, "topK", a.topK);
  addInput(*inst, "topP", a.topP);
  if (a.q != nullptr) {
    inst->qSlot = static_cast<int>(inst->inputs.size());
    addInput(*inst, "q", a.q);
  }
  if (a.minPs != nullptr) {
    inst->minPSlot = static_cast<int>(inst->inputs.size());
    addInput(*inst, "minPs", a.minPs);
  }
  // The first output carries the cost model's write; the others count as extra writes.
  for (int o = 0; o < 4; ++o) {
    const bool writes = o == 0 ? !opt.needSampleResult : o == 1 ? opt.needLogits : opt.needSampleResult;
    if (!writes) continue;
    inst->outSlot[o] = static_cast<int>(inst->outputs.size());
    addOutput(*inst, outNames[o], a.outs[o]);
  }
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnTopKTopPSampleGetWorkspaceSize(
    const aclTensor* logits, const aclTensor* topK, const aclTensor* topP, const aclTensor* q, double eps,
    bool isNeedLogits, int64_t topKGuess, const aclTensor* logitsSelectIdx,
    const aclTensor* logitsTopKPSelect, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  npusim::rt::chargeOpPrepare("aclnnTopKTopPSampleGetWorkspaceSize");
  SampleOptions o;
  o.eps = eps;
  o.needLogits = isNeedLogits;
  const SampleArgs a{logits,  topK,      topP,     q,
                     nullptr, topKGuess, kTopKMax, {logitsSelectIdx, logitsTopKPSelect}};
  return build(kInfoV1, a, o, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(TopKTopPSample)

extern "C" aclnnStatus aclnnTopKTopPSampleV2GetWorkspaceSize(
    const aclTensor* logits, const aclTensor* topK, const aclTensor* topP, const aclTensor* q,
    const aclTensor* minPs, double eps, bool isNeedLogits, int64_t topKGuess, int64_t ksMax,
    bool inputIsLogits, bool isNeedSampleResult, const aclTensor* logitsSelectIdx,
    const aclTensor* logitsTopKPSelect, const aclTensor* logitsIdx, const aclTensor* logitsSortMasked,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  npusim::rt::chargeOpPrepare("aclnnTopKTopPSampleV2GetWorkspaceSize");
  SampleOptions o;
  o.eps = eps;
  o.needLogits = isNeedLogits;
  o.inputIsLogits = inputIsLogits;
  o.needSampleResult = isNeedSampleResult;
  o.v2 = true;
  const SampleArgs a{
      logits, topK,      topP,  q,
      minPs,  topKGuess, ksMax, {logitsSelectIdx, logitsTopKPSelect, logitsIdx, logitsSortMasked}};
  return build(kInfoV2, a, o, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(TopKTopPSampleV2)
