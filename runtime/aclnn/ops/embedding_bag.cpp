// aclnnEmbeddingBag (ops-nn index/embedding_bag): torch.nn.functional.embedding_bag. Bag b
// holds indices[offsets[b] .. offsets[b+1]) (the last bag runs to the end unless
// includeLastOffset, when offsets' last value closes it); output[b] reduces the weight rows of
// its indices by sum (mode 0, each row times perSampleWeights when given), mean (1) or max (2),
// rows equal to paddingIdx left out; an empty bag gives zeros. offset2bag[i] is i's bag,
// bagSize[b] the rows that were reduced, maxIndices the weight row of each maximum (max mode;
// zeros otherwise). scaleGradByFreq and sparse only concern the gradient. Cost: the gathered
// rows, indices and offsets read; the outputs written.
#include <fmt/format.h>

#include <limits>

#include "aclnnop/aclnn_embedding_bag.h"
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

// aclnnEmbeddingBag.md: weight FLOAT, FLOAT16, BFLOAT16; indices and offsets INT32, INT64.
const OpInfo kInfo{"aclnnEmbeddingBag",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                   "output[b] = sum/mean/max of weight[indices in bag b]"};
const OpRegistrar kRegistrar(kInfo);

class EmbeddingBagInstance : public OpInstanceBase<EmbeddingBagInstance> {
 public:
  int64_t mode = 0, paddingIdx = -1, bags = 0;
  bool weighted = false;

  rt::OpWork work() const override {
    TensorDesc rows = inputs[0];  // the gathered rows: one per index
    rows.shape = {inputs[1].numel(), inputs[0].shape[1]};
    rows.strides = contiguousStrides(rows.shape);
    std::vector<TensorDesc> reads{rows};
    reads.insert(reads.end(), inputs.begin() + 1, inputs.end());
    VectorPass p{&reads, &outputs[0], rows.numel(), 0};
    for (size_t o = 1; o < outputs.size(); ++o)
      p.extraWriteBytes += static_cast<uint64_t>(outputs[o].numel()) * outputs[o].elementSize();
    return vectorTiles(p);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<double> w = loadDense<double>(in[0]);
    const std::vector<int64_t> idx = loadDense<int64_t>(in[1]), off = loadDense<int64_t>(in[2]);
    const std::vector<double> psw = weighted ? loadDense<double>(in[3]) : std::vector<double>();
    const int64_t rowsW = in[0].shape[0], d = in[0].shape[1], n = static_cast<int64_t>(idx.size());
    std::vector<double> y(static_cast<size_t>(bags * d), 0.0);
    std::vector<int64_t> offset2bag(static_cast<size_t>(n), 0), bagSize(static_cast<size_t>(bags), 0),
        maxIdx(static_cast<size_t>(out[3].numel()), 0);
    for (int64_t b = 0; b < bags; ++b) {
      const int64_t begin = std::clamp<int64_t>(off[static_cast<size_t>(b)], 0, n);
      const int64_t end = b + 1 < static_cast<int64_t>(off.size())
                              ? std::clamp<int64_t>(off[static_cast<size_t>(b + 1)], begin, n)
                              : n;
      std::vector<double> acc(static_cast<size_t>(d),
                              mode == 2 ? -std::numeric_limits<double>::infinity() : 0.0);
      for (int64_t i = begin; i < end; ++i) {
        offset2bag[static_cast<size_t>(i)] = b;
        const int64_t r = idx[static_cast<size_t>(i)];
        if (r == paddingIdx || r < 0 || r >= rowsW) continue;
        ++bagSize[static_cast<size_t>(b)];
        for (int64_t j = 0; j < d; ++j) {
          const double v = w[static_cast<size_t>(r * d + j)] * (weighted ? psw[static_cast<size_t>(i)] : 1.0);
          double& a = acc[static_cast<size_t>(j)];
          if (mode == 2) {
            if (v > a) {
              a = v;
              if (!maxIdx.empty()) maxIdx[static_cast<size_t>(b * d + j)] = r;
            }
          } else {
            a += v;
          }
        }
      }
      const int64_t count = bagSize[static_cast<size_t>(b)];
      for (int64_t j = 0; j < d; ++j) {
        double a = acc[static_cast<size_t>(j)];
        if (count == 0) a = 0;  // an empty bag
        if (mode == 1 && count > 0) a /= static_cast<double>(count);
        y[static_cast<size_t>(b * d + j)] = a;
      }
    }
    storeDense(out[0], y.data());
    storeDense(out[1], offset2bag.data());
    storeDense(out[2], bagSize.data());
    if (out[3].numel() > 0) storeDense(out[3], maxIdx.data());
  }
};

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnEmbeddingBagGetWorkspaceSize(
    const aclTensor* weight, const aclTensor* indices, const aclTensor* offsets, bool scaleGradByFreq,
    int64_t mode, bool sparse, const aclTensor* perSampleWeights, bool includeLastOffset, int64_t paddingIdx,
    aclTensor* output, aclTensor* offset2bag, aclTensor* bagSize, aclTensor* maxIndices,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnEmbeddingBagGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"weight", weight},
                                  {"indices", indices},
                                  {"offsets", offsets},
                                  {"output", output},
                                  {"offset2bag", offset2bag},
                                  {"bagSize", bagSize},
                                  {"maxIndices", maxIndices}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"weight", weight},
                         {"indices", indices},
                         {"offsets", offsets},
                         {"output", output},
                         {"offset2bag", offset2bag},
                         {"bagSize", bagSize},
                         {"maxIndices", maxIndices}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  if ((st = checkDtype(api, "weight", weight->desc.dtype, kInfo)) != kSuccess) return st;
  if (output->desc.dtype != weight->desc.dtype)
    return fail(api, kErrParamInvalid,
                fmt::format("output type must equal weight type {}", dtypeName(weight->desc.dtype)));
  for (auto [name, t] : {std::pair{"indices", indices}, {"offsets", offsets}}) {
    if (t->desc.dtype != ACL_INT32 && t->desc.dtype != ACL_INT64)
      return fail(api, kErrParamInvalid, fmt::format("{} type must be int32 or int64", name));
    if (t->desc.rank() != 1) return fail(api, kErrParamInvalid, fmt::format("{} must be 1-D", name));
  }
  if (weight->desc.rank() != 2) return fail(api, kErrParamInvalid, "weight must be 2-D");
  if (mode < 0 || mode > 2)
    return fail(api, kErrParamInvalid, fmt::format("mode {} is not sum (0), mean (1) or max (2)", mode));
  if (perSampleWeights != nullptr && mode != 0)
    return fail(api, kErrParamInvalid, "perSampleWeights are only allowed in sum mode");
  const int64_t d = weight->desc.shape[1], n = indices->desc.numel();
  const int64_t bags = offsets->desc.numel() - (includeLastOffset ? 1 : 0);
  if (bags < 0) return fail(api, kErrParamInvalid, "offsets is empty");
  if ((st = checkShape(api, "output", output->desc.shape, {bags, d})) != kSuccess) return st;
  if ((st = checkShape(api, "offset2bag", offset2bag->desc.shape, {n})) != kSuccess) return st;
  if ((st = checkShape(api, "bagSize", bagSize->desc.shape, {bags})) != kSuccess) return st;
  const std::vector<int64_t> maxShape =
      mode == 2 ? std::vector<int64_t>{bags, d} : std::vector<int64_t>{bags};
  if ((st = checkShape(api, "maxIndices", maxIndices->desc.shape, maxShape)) != kSuccess) return st;
  auto inst = std::make_unique<EmbeddingBagInstance>();
  inst->name = "aclnnEmbeddingBag";
  inst->mode = mode;
  inst->paddingIdx = paddingIdx;
  inst->bags = bags;
  addInput(*inst, "weight", weight);
  addInput(*inst, "indices", indices);
  addInput(*inst, "offsets", offsets);
  if (perSampleWeights != nullptr) {
    if ((st = checkTensor(api, "perSampleWeights", perSampleWeights->desc)) != kSuccess) return st;
    if ((st = checkShape(api, "perSampleWeights", perSampleWeights->desc.shape, {n})) != kSuccess) return st;
    inst->weighted = true;
    addInput(*inst, "perSampleWeights", perSampleWeights);
  }
  addOutput(*inst, "output", output);
  addOutput(*inst, "offset2bag", offset2bag);
  addOutput(*inst, "bagSize", bagSize);
  addOutput(*inst, "maxIndices", maxIndices);
  inst->attrs = fmt::format("mode={} paddingIdx={} includeLastOffset={} scaleGradByFreq={} sparse={}", mode,
                            paddingIdx, includeLastOffset, scaleGradByFreq, sparse);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(EmbeddingBag)
