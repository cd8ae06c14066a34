// aclnnTopKTopPSample (ops-nn index/top_k_top_p_sample): per row of logits [B, V], in the doc's
// order: top-k (1 <= topK[b] <= min(V, 1024), otherwise skipped), top-p (topP[b] < 1,
// otherwise skipped), then exponential sampling against the caller's q (skipped when q is
// null), and the chosen index goes to logitsSelectIdx[b].
//  - Candidates are ordered by descending logit, ties by ascending index (the order the
//    kernels' stable merges keep); top-k keeps the first topK[b] of them.
//  - Top-p: probabilities are the safe softmax of the candidates; a candidate is dropped when
//    the probability mass of the candidates before it exceeds topP[b] (the doc's
//    (probsSum - sorted) > topP), so the most likely one always stays.
//  - Sampling: probs = softmax of what is left, index = argmax(probs / (q[b][index] + eps)),
//    the first of equal maxima; without q, the most likely candidate.
//  - isNeedLogits: logitsTopKPSelect[b] = the logits kept (as fp32), -inf elsewhere.
// The random numbers are the caller's q (the operator draws none): same inputs, same result.
// topKGuess only steers the kernels' search for the top-p set, not the result. Computed in
// fp64. Cost: logits and q read, the outputs written, sort and softmaxes as 6 vector passes.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "aclnnop/aclnn_top_k_top_p_sample.h"
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

// The doc: logits and topP FLOAT16, BFLOAT16; topK INT32; q FLOAT32; logitsSelectIdx INT64;
// logitsTopKPSelect FLOAT32.
const OpInfo kInfo{"aclnnTopKTopPSample",
                   ExecUnit::kVector,
                   {ACL_FLOAT16, ACL_BF16},
                   "index of argmax(softmax(top-p(top-k(logits))) / (q + eps)) per row"};
const OpRegistrar kRegistrar(kInfo);

constexpr int64_t kTopKMax = 1024;  // the doc's largest topK that is applied

// Inputs: logits, topK, topP, [q]; outputs: logitsSelectIdx, logitsTopKPSelect.
class TopKTopPSampleInstance : public OpInstanceBase<TopKTopPSampleInstance> {
 public:
  bool hasQ = false, needLogits = false;
  double eps = 1e-8;

  rt::OpWork work() const override {
    VectorPass pass{&inputs, &outputs[0], inputs[0].numel(), 6};
    if (needLogits)
      pass.extraWriteBytes = static_cast<uint64_t>(outputs[1].numel()) * outputs[1].elementSize();
    return vectorTiles(pass);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<double> logits = loadDense<double>(in[0]);
    const std::vector<int64_t> topK = loadDense<int64_t>(in[1]);
    const std::vector<double> topP = loadDense<double>(in[2]);
    const std::vector<double> q = hasQ ? loadDense<double>(in[3]) : std::vector<double>();
    const int64_t rows = in[0].shape[0], v = in[0].shape[1];
    const double ninf = -std::numeric_limits<double>::infinity();
    std::vector<int64_t> chosen(static_cast<size_t>(rows));
    std::vector<float> kept(needLogits ? logits.size() : 0, -std::numeric_limits<float>::infinity());
    std::vector<int64_t> order(static_cast<size_t>(v));
    for (int64_t b = 0; b < rows; ++b) {
      const double* row = logits.data() + b * v;
      std::iota(order.begin(), order.end(), int64_t{0});
      auto before = [row](int64_t i, int64_t j) { return row[i] > row[j] || (row[i] == row[j] && i < j); };
      const int64_t k = topK[static_cast<size_t>(b)];
      int64_t n = v;  // candidates: order[0 .. n)
      if (k >= 1 && k <= std::min(v, kTopKMax)) {
        std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
        n = k;
      } else {
        std::sort(order.begin(), order.end(), before);
      }
      const double p = topP[static_cast<size_t>(b)];
      std::vector<double> prob(static_cast<size_t>(n));
      auto softmax = [&](int64_t count) {
        const double top = row[order[0]];
        double sum = 0;
        for (int64_t i = 0; i < count; ++i)
          sum += (prob[static_cast<size_t>(i)] = std::exp(row[order[i]] - top));
        for (int64_t i = 0; i < count; ++i) prob[static_cast<size_t>(i)] /= sum;
      };
      softmax(n);
      if (p < 1) {
        double before_mass = 0;
        int64_t keep = 0;
        while (keep < n && !(before_mass > p)) before_mass += prob[static_cast<size_t>(keep++)];
        n = keep;
        softmax(n);
      }
      int64_t best = 0;
      if (hasQ) {
        double bestScore = ninf;
        for (int64_t i = 0; i < n; ++i) {
          const double score =
              prob[static_cast<size_t>(i)] / (q[static_cast<size_t>(b * v + order[i])] + eps);
          if (score > bestScore) {
            bestScore = score;
            best = i;
          }
        }
      }
      chosen[static_cast<size_t>(b)] = order[static_cast<size_t>(best)];
      if (needLogits) {
        for (int64_t i = 0; i < n; ++i)
          kept[static_cast<size_t>(b * v + order[i])] = static_cast<float>(row[order[i]]);
      }
    }
    storeDense(out[0], chosen.data());
    if (needLogits) storeDense(out[1], kept.data());
  }
};

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnTopKTopPSampleGetWorkspaceSize(
    const aclTensor* logits, const aclTensor* topK, const aclTensor* topP, const aclTensor* q, double eps,
    bool isNeedLogits, int64_t topKGuess, const aclTensor* logitsSelectIdx,
    const aclTensor* logitsTopKPSelect, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnTopKTopPSampleGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"logits", logits},
                                  {"topK", topK},
                                  {"topP", topP},
                                  {"logitsSelectIdx", logitsSelectIdx},
                                  {"logitsTopKPSelect", logitsTopKPSelect}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"logits", logits},
                         {"topK", topK},
                         {"topP", topP},
                         {"logitsSelectIdx", logitsSelectIdx},
                         {"logitsTopKPSelect", logitsTopKPSelect}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  if ((st = checkDtype(api, "logits", logits->desc.dtype, kInfo)) != kSuccess) return st;
  const TensorDesc& l = logits->desc;
  if (l.rank() != 2 || l.numel() == 0 || l.shape[1] > (int64_t{1} << 20))
    return fail(api, kErrParamInvalid,
                fmt::format("logits {} must be 2-D [batch, vocabulary], not empty, vocabulary <= 2^20",
                            shapeString(l.shape)));
  if (topP->desc.dtype != l.dtype)
    return fail(api, kErrParamInvalid,
                fmt::format("topP type {} must equal logits type {}", dtypeName(topP->desc.dtype),
                            dtypeName(l.dtype)));
  const std::vector<int64_t> rows{l.shape[0]};
  for (auto [name, t, dt] :
       {std::tuple{"topK", topK, ACL_INT32}, {"logitsSelectIdx", logitsSelectIdx, ACL_INT64}}) {
    if (t->desc.dtype != dt)
      return fail(api, kErrParamInvalid,
                  fmt::format("{} type must be {}, not {}", name, dtypeName(dt), dtypeName(t->desc.dtype)));
  }
  if (logitsTopKPSelect->desc.dtype != ACL_FLOAT)
    return fail(
        api, kErrParamInvalid,
        fmt::format("logitsTopKPSelect type must be fp32, not {}", dtypeName(logitsTopKPSelect->desc.dtype)));
  for (auto [name, t] : {std::pair{"topK", topK}, {"topP", topP}, {"logitsSelectIdx", logitsSelectIdx}}) {
    if ((st = checkShape(api, name, t->desc.shape, rows)) != kSuccess) return st;
  }
  if ((st = checkShape(api, "logitsTopKPSelect", logitsTopKPSelect->desc.shape, l.shape)) != kSuccess)
    return st;
  if (q != nullptr) {
    if ((st = checkTensor(api, "q", q->desc)) != kSuccess) return st;
    if (q->desc.dtype != ACL_FLOAT)
      return fail(api, kErrParamInvalid,
                  fmt::format("q type must be fp32, not {}", dtypeName(q->desc.dtype)));
    if ((st = checkShape(api, "q", q->desc.shape, l.shape)) != kSuccess) return st;
  }
  if (topKGuess <= 0)
    return fail(api, kErrParamInvalid, fmt::format("topKGuess {} must be positive", topKGuess));
  auto inst = std::make_unique<TopKTopPSampleInstance>();
  inst->name = kInfo.name;
  inst->hasQ = q != nullptr;
  inst->needLogits = isNeedLogits;
  inst->eps = eps;
  addInput(*inst, "logits", logits);
  addInput(*inst, "topK", topK);
  addInput(*inst, "topP", topP);
  if (q != nullptr) addInput(*inst, "q", q);
  addOutput(*inst, "logitsSelectIdx", logitsSelectIdx);
  addOutput(*inst, "logitsTopKPSelect", logitsTopKPSelect);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(TopKTopPSample)
