// aclnnMultinomial and aclnnMultinomialTensor (ops-math random/stateless_sample_multinomial,
// issue 28): numsamples indices drawn per row of non-negative weights, with or without
// replacement, from the random engine's Philox4x32-10 stream (random_op.h): draw j of row r
// takes counter offset + r * numsamples + j and picks the first index whose running weight sum
// exceeds u times the row's (remaining) total; without replacement a drawn index's weight
// becomes 0. Not bit-identical to the hardware's choice of counters.
#include <fmt/format.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "aclnnop/aclnn_multinomial.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/random_op.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kWeightTypes = {ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE};
const OpInfo kMultinomial{"aclnnMultinomial", ExecUnit::kVector, kWeightTypes,
                          "out[r, j] = an index drawn with probability self[r, i] / sum(self[r])"};
const OpInfo kMultinomialTensor{"aclnnMultinomialTensor", ExecUnit::kVector, kWeightTypes,
                                "aclnnMultinomial with seed and offset from tensors"};
const OpRegistrar kRegs[] = {OpRegistrar(kMultinomial), OpRegistrar(kMultinomialTensor)};

class MultinomialInstance : public OpInstanceBase<MultinomialInstance> {
 public:
  int64_t samples = 0;
  bool replacement = true;
  uint64_t seed = 0, offset = 0;
  int seedInput = -1, offsetInput = -1;

  rt::OpWork work() const override {
    // the weights read once, a running sum and a search per draw (about C passes over a row)
    std::vector<TensorDesc> reads = {inputs[0]};
    const int64_t c = inputs[0].shape.back();
    return vectorTiles(
        VectorPass{&reads, &outputs[0], inputs[0].numel(), static_cast<int>(std::min<int64_t>(c, 64))});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const auto [key, start] = streamStart(seed, offset, in, seedInput, offsetInput);
    const std::vector<double> w = loadDense<double>(in[0]);
    const int64_t c = in[0].shape.back(), rows = c == 0 ? 0 : static_cast<int64_t>(w.size()) / c;
    std::vector<int64_t> res(static_cast<size_t>(rows * samples));
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<double> row(w.begin() + r * c, w.begin() + (r + 1) * c);
      for (int64_t j = 0; j < samples; ++j) {
        const auto words = philox(key, start + static_cast<uint64_t>(r * samples + j));
        double total = 0;
        for (double x : row) total += x;
        const double target = uniformFromWord(words[0]) * total;
        int64_t pick = c - 1;
        double run = 0;
        for (int64_t i = 0; i < c; ++i) {
          run += row[static_cast<size_t>(i)];
          if (row[static_cast<size_t>(i)] > 0 && run > target) {
            pick = i;
            break;
          }
        }
        res[static_cast<size_t>(r * samples + j)] = pick;
        if (!replacement) row[static_cast<size_t>(pick)] = 0;
      }
    }
    storeDense<int64_t>(out[0], res.data());
  }
};

int32_t build(const OpInfo& info, const char* api, const aclTensor* self, int64_t numsamples,
              bool replacement, uint64_t seed, uint64_t offset, const aclTensor* seedTensor,
              const aclTensor* offsetTensor, const aclTensor* out, uint64_t* workspaceSize,
              aclOpExecutor** executor) {
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "self", self->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "self", self->desc.dtype, info)) != kSuccess) return st;
  const std::vector<int64_t>& s = self->desc.shape;
  if (s.empty() || s.size() > 2 || s.back() == 0) {
    return fail(api, kErrParamInvalid,
                fmt::format("self must be (C) or (N, C) with C > 0, not {}", shapeString(s)));
  }
  if (numsamples <= 0 || (!replacement && numsamples > s.back())) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("numsamples {} must be positive{}", numsamples,
                    replacement ? "" : fmt::format(" and at most C = {} without replacement", s.back())));
  }
  std::vector<int64_t> want = s;
  want.back() = numsamples;
  if (out->desc.dtype != ACL_INT64) {
    return fail(api, kErrParamInvalid, fmt::format("out must be int64, not {}", dtypeName(out->desc.dtype)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, want)) != kSuccess) return st;
  auto inst = std::make_unique<MultinomialInstance>();
  inst->name = info.name;
  inst->samples = numsamples;
  inst->replacement = replacement;
  inst->seed = seed;
  inst->offset = offset;
  addInput(*inst, "self", self);
  for (auto [name, t, slot] : {std::make_tuple("seedTensor", seedTensor, &inst->seedInput),
                               std::make_tuple("offsetTensor", offsetTensor, &inst->offsetInput)}) {
    if (t == nullptr) continue;
    if ((st = checkSeedTensor(api, name, t)) != kSuccess) return st;
    *slot = static_cast<int>(inst->inputs.size());
    addInput(*inst, name, t);
  }
  inst->attrs = fmt::format("numsamples={}, replacement={}", numsamples, replacement);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnMultinomialGetWorkspaceSize(const aclTensor* self, int64_t numsamples,
                                                        bool replacement, int64_t seed, int64_t offset,
                                                        aclTensor* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return npusim::aclnn::build(npusim::aclnn::kMultinomial, "aclnnMultinomialGetWorkspaceSize", self,
                              numsamples, replacement, static_cast<uint64_t>(seed),
                              static_cast<uint64_t>(offset), nullptr, nullptr, out, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Multinomial)

extern "C" aclnnStatus aclnnMultinomialTensorGetWorkspaceSize(const aclTensor* self, int64_t numsamples,
                                                              bool replacement, const aclTensor* seedTensor,
                                                              const aclTensor* offsetTensor, int64_t offset,
                                                              aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnMultinomialTensorGetWorkspaceSize";
  if (seedTensor == nullptr || offsetTensor == nullptr) {
    return fail(api, kErrParamNullptr,
                fmt::format("{} must not be nullptr", seedTensor == nullptr ? "seedTensor" : "offsetTensor"));
  }
  return build(kMultinomialTensor, api, self, numsamples, replacement, 0, static_cast<uint64_t>(offset),
               seedTensor, offsetTensor, out, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(MultinomialTensor)
