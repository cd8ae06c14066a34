#include "runtime/aclnn/ops/random_op.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

namespace {

// Philox4x32's round multipliers and key increments (the paper's constants).
constexpr uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u, kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
constexpr int kRounds = 10;
constexpr double kTwoPi = 6.283185307179586476925;

// Vector instructions per element: ten Philox rounds of two multiplies and xors, the conversion
// to a float, and for the normal the logarithm, square root and cosine of Box-Muller.
constexpr int kUniformPasses = 12, kNormalPasses = 20;

class RandomInstance : public OpInstanceBase<RandomInstance> {
 public:
  RandomKind kind = RandomKind::kUniform;
  double params[2] = {0, 1};
  uint64_t seed = 0, offset = 0;
  int meanInput = -1, stdInput = -1, seedInput = -1, offsetInput = -1;

  rt::OpWork work() const override {
    const int passes = kind == RandomKind::kNormal        ? kNormalPasses
                       : kind == RandomKind::kExponential ? kUniformPasses + 2  // the logarithm and the scale
                                                          : kUniformPasses;
    std::vector<TensorDesc> reads;
    for (int k : {meanInput, stdInput}) {
      if (k >= 0) reads.push_back(inputs[static_cast<size_t>(k)]);
    }
    // a bit mask draws one value per element, eight to a byte written
    const int64_t elems = kind == RandomKind::kBitMask ? static_cast<int64_t>(params[1]) : outputs[0].numel();
    return vectorTiles(VectorPass{&reads, &outputs[0], elems, passes - 1});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const auto [key, start] = streamStart(seed, offset, in, seedInput, offsetInput);
    std::vector<double> mean, sd;
    if (meanInput >= 0) mean = loadDense<double>(in[static_cast<size_t>(meanInput)]);
    if (stdInput >= 0) sd = loadDense<double>(in[static_cast<size_t>(stdInput)]);
    auto at = [](const std::vector<double>& v, double fallback, size_t i) {
      return v.empty() ? fallback : v.size() == 1 ? v[0] : v[i];
    };
    const int64_t n = out[0].numel();
    std::vector<double> res(static_cast<size_t>(n));
    const bool floating = isFloating(out[0].dtype);
    if (kind == RandomKind::kPermutation) {
      for (int64_t e = 0; e < n; ++e) res[static_cast<size_t>(e)] = static_cast<double>(e);
      for (int64_t e = 0; e + 1 < n; ++e) {
        const std::array<uint32_t, 4> w = philox(key, start + static_cast<uint64_t>(e));
        const uint64_t r = ((static_cast<uint64_t>(w[0]) << 32) | w[1]) % static_cast<uint64_t>(n - e);
        std::swap(res[static_cast<size_t>(e)], res[static_cast<size_t>(e) + r]);
      }
      return storeDense<double>(out[0], res.data());
    }
    if (kind == RandomKind::kBitMask) {
      std::fill(res.begin(), res.end(), 0.0);
      for (int64_t e = 0; e < static_cast<int64_t>(params[1]); ++e) {
        if (uniformFromWord(philox(key, start + static_cast<uint64_t>(e))[0]) >= params[0]) {
          res[static_cast<size_t>(e / 8)] += static_cast<double>(1 << (e % 8));
        }
      }
      return storeDense<double>(out[0], res.data());
    }
    for (int64_t e = 0; e < n; ++e) {
      const size_t i = static_cast<size_t>(e);
      const std::array<uint32_t, 4> w = philox(key, start + static_cast<uint64_t>(e));
      switch (kind) {
        case RandomKind::kUniform:
          res[i] = params[0] + (params[1] - params[0]) * uniformFromWord(w[0]);
          break;
        case RandomKind::kNormal:
          res[i] = at(mean, params[0], i) + at(sd, params[1], i) * normalFromWords(w[0], w[1]);
          break;
        case RandomKind::kBernoulli:
          res[i] = uniformFromWord(w[0]) < params[0] ? 1 : 0;
          break;
        case RandomKind::kExponential:  // 1 - u is in (0, 1]: the logarithm stays finite
          res[i] = -std::log(1.0 - uniformFromWord(w[0])) / params[0];
          break;
        case RandomKind::kPermutation:  // handled above
        case RandomKind::kBitMask:
          break;
        case RandomKind::kInteger: {
          const uint64_t range = static_cast<uint64_t>(params[1] - params[0]);
          const uint64_t r = ((static_cast<uint64_t>(w[0]) << 32) | w[1]) % range;
          res[i] = params[0] + static_cast<double>(r);
          break;
        }
      }
    }
    if (floating && out[0].dtype != ACL_DOUBLE) quantizeRow(ACL_FLOAT, res.data(), n);
    storeDense<double>(out[0], res.data());
  }
};

// A mean/std tensor: out's type, out's shape or one element.
int32_t checkParamTensor(const char* api, const char* name, const aclTensor* t, const TensorDesc& out) {
  if (int32_t st = checkTensor(api, name, t->desc); st != kSuccess) return st;
  if (!isFloating(t->desc.dtype)) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} must be of a floating type, not {}", name, t->desc.brief()));
  }
  if (t->desc.shape != out.shape && t->desc.numel() != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} has shape {}; out's shape {} or one element is needed", name,
                            shapeString(t->desc.shape), shapeString(out.shape)));
  }
  return kSuccess;
}

}  // namespace

std::array<uint32_t, 4> philox(uint64_t key, uint64_t counterLo, uint64_t counterHi) {
  std::array<uint32_t, 4> c = {static_cast<uint32_t>(counterLo), static_cast<uint32_t>(counterLo >> 32),
                               static_cast<uint32_t>(counterHi), static_cast<uint32_t>(counterHi >> 32)};
  uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
  for (int r = 0; r < kRounds; ++r) {
    const uint64_t p0 = static_cast<uint64_t>(kM0) * c[0], p1 = static_cast<uint64_t>(kM1) * c[2];
    c = {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k0, static_cast<uint32_t>(p1),
         static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k1, static_cast<uint32_t>(p0)};
    k0 += kW0;
    k1 += kW1;
  }
  return c;
}

int32_t checkSeedTensor(const char* api, const char* name, const aclTensor* t) {
  if (int32_t st = checkTensor(api, name, t->desc); st != kSuccess) return st;
  if (t->desc.dtype != ACL_INT64 || t->desc.numel() != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} must be one int64 element, not {}", name, t->desc.brief()));
  }
  return kSuccess;
}

std::pair<uint64_t, uint64_t> streamStart(uint64_t seed, uint64_t offset, const std::vector<HostTensor>& in,
                                          int seedInput, int offsetInput) {
  if (seedInput >= 0) seed = static_cast<uint64_t>(loadDense<int64_t>(in[static_cast<size_t>(seedInput)])[0]);
  if (offsetInput >= 0)
    offset += static_cast<uint64_t>(loadDense<int64_t>(in[static_cast<size_t>(offsetInput)])[0]);
  return {seed, offset};
}

int64_t bitMaskBytes(int64_t n) { return (n + 127) / 128 * 16; }

double uniformFromWord(uint32_t w) { return static_cast<double>(w >> 8) * (1.0 / 16777216.0); }

double normalFromWords(uint32_t a, uint32_t b) {
  const double u1 = (static_cast<double>(a) + 1.0) / 4294967296.0;  // (0, 1]: the log stays finite
  const double u2 = static_cast<double>(b) / 4294967296.0;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
}

int32_t buildRandom(const OpInfo& info, const char* api, const char* opName, const RandomArgs& a,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  rt::chargeOpPrepare(api);
  const char* outName = a.inplace ? "selfRef" : "out";
  if (a.out == nullptr) return fail(api, kErrParamNullptr, fmt::format("{} must not be nullptr", outName));
  const TensorDesc& out = a.out->desc;
  int32_t st = checkTensor(api, outName, out);
  if (st != kSuccess) return st;
  // a bit mask is bytes whatever the probability's type (the operator's registered types)
  if (a.kind == RandomKind::kBitMask) {
    if (out.dtype != ACL_UINT8) {
      return fail(api, kErrParamInvalid,
                  fmt::format("out must be uint8 mask bytes, not {}", dtypeName(out.dtype)));
    }
  } else if ((st = checkDtype(api, outName, out.dtype, info)) != kSuccess) {
    return st;
  }
  if (a.kind == RandomKind::kPermutation && out.numel() != static_cast<int64_t>(a.params[0])) {
    return fail(api, kErrParamInvalid,
                fmt::format("out has {} elements where n = {} are needed", out.numel(), a.params[0]));
  }
  if ((a.kind == RandomKind::kBernoulli || a.kind == RandomKind::kBitMask) &&
      !(a.params[0] >= 0 && a.params[0] <= 1)) {
    return fail(api, kErrParamInvalid, fmt::format("the probability must be in [0, 1], not {}", a.params[0]));
  }
  if (a.kind == RandomKind::kBitMask && out.numel() != bitMaskBytes(static_cast<int64_t>(a.params[1]))) {
    return fail(api, kErrParamInvalid,
                fmt::format("out has {} bytes where the mask of {} elements takes {}", out.numel(),
                            a.params[1], bitMaskBytes(static_cast<int64_t>(a.params[1]))));
  }
  if (a.shapeOf != nullptr && a.shapeOf->desc.shape != out.shape) {
    return fail(api, kErrParamInvalid,
                fmt::format("out has shape {} where self has {}", shapeString(out.shape),
                            shapeString(a.shapeOf->desc.shape)));
  }
  if ((a.kind == RandomKind::kUniform || a.kind == RandomKind::kInteger) && !(a.params[0] < a.params[1])) {
    return fail(api, kErrParamInvalid,
                fmt::format("from ({}) must be less than to ({})", a.params[0], a.params[1]));
  }
  if (a.kind == RandomKind::kExponential && !(a.params[0] > 0)) {
    return fail(api, kErrParamInvalid, fmt::format("lambda must be positive, not {}", a.params[0]));
  }
  if (a.kind == RandomKind::kNormal && a.stdTensor == nullptr && !(a.params[1] >= 0)) {
    return fail(api, kErrParamInvalid, fmt::format("std must not be negative, not {}", a.params[1]));
  }
  auto inst = std::make_unique<RandomInstance>();
  inst->name = opName;
  inst->kind = a.kind;
  inst->params[0] = a.params[0];
  inst->params[1] = a.params[1];
  inst->seed = a.seed;
  inst->offset = a.offset;
  auto add = [&](const char* name, const aclTensor* t, int* slot, bool seedLike) {
    if (t == nullptr) return kSuccess;
    const int32_t s = seedLike ? checkSeedTensor(api, name, t) : checkParamTensor(api, name, t, out);
    if (s != kSuccess) return s;
    *slot = static_cast<int>(inst->inputs.size());
    addInput(*inst, name, t);
    return kSuccess;
  };
  if ((st = add("mean", a.meanTensor, &inst->meanInput, false)) != kSuccess) return st;
  if ((st = add("std", a.stdTensor, &inst->stdInput, false)) != kSuccess) return st;
  if ((st = add("seedTensor", a.seedTensor, &inst->seedInput, true)) != kSuccess) return st;
  if ((st = add("offsetTensor", a.offsetTensor, &inst->offsetInput, true)) != kSuccess) return st;
  inst->attrs = a.seedTensor != nullptr ? fmt::format("offset={}", a.offset)
                                        : fmt::format("seed={}, offset={}", a.seed, a.offset);
  addOutput(*inst, outName, a.out);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace npusim::aclnn
