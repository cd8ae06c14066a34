// aclnnFFN, aclnnFFNV2, aclnnFFNV3 (ops-transformer ffn/ffn README): y = act(x · W1 + b1) · W2 + b2,
// x [..., K1] (2-8 dimensions, M rows), weight1 [K1, N1] and weight2 [K2, N2] without experts, or
// [E, K1, N1] and [E, K2, N2] with expert tokens (the rows of x split over the E experts in
// order: V1 counts, V2/V3 counts or, with tokensIndexFlag, cumulative end rows; V3 passes them
// as an int64 device tensor). N1 = K2 and N2 = K1 (the README's constraints). Activations
// fastgelu (x·sigmoid(1.702x)), gelu (tanh form, AscendC Gelu), relu and silu; fp16 and bf16
// x with weights and y of x's type, bias of x's type or fp32 (fp32 for bf16).
//
// Numerics: fp32 products and accumulation, bias and activation in fp32, the hidden activations
// rounded to x's type (the second matmul's cube input), y rounded once.
// Not supported (161002, named): the quantised and antiquantised forms (int8 x, int4/int8
// weights, scale/offset/deqScale/antiquant arguments) and the GLU activations (geglu, swiglu,
// reglu, whose halves the README does not define).
// Cost: two grouped matmuls (grouped_matmul_work.h); the hidden activations are charged at y's
// address (the operator's workspace is not modelled), the activation as one vector pass over
// them in the first matmul's epilogue, the biases read once.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_ffn.h"
#include "aclnnop/aclnn_ffn_v2.h"
#include "aclnnop/aclnn_ffn_v3.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/gemm.h"
#include "runtime/aclnn/ops/grouped_matmul_work.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpRegistrar kV1(
    {"aclnnFFN", ExecUnit::kCube, {ACL_FLOAT16, ACL_BF16}, "y = act(x · W1 + b1) · W2 + b2"});
const OpRegistrar kV2(
    {"aclnnFFNV2", ExecUnit::kCube, {ACL_FLOAT16, ACL_BF16}, "y = act(x · W1 + b1) · W2 + b2"});
const OpRegistrar kV3(
    {"aclnnFFNV3", ExecUnit::kCube, {ACL_FLOAT16, ACL_BF16}, "y = act(x · W1 + b1) · W2 + b2"});

enum class Act { kFastGelu, kRelu, kSilu, kGelu };

float activate(Act a, float v) {
  switch (a) {
    case Act::kFastGelu:
      return v / (1.0f + std::exp(-1.702f * v));
    case Act::kRelu:
      return v > 0.0f ? v : 0.0f;
    case Act::kSilu:
      return v / (1.0f + std::exp(-v));
    case Act::kGelu:
      return 0.5f * v * (1.0f + std::tanh(0.7978845608028654f * (v + 0.044715f * v * v * v)));
  }
  return v;
}

// How the expert tokens arrive: none, host counts/ends known at phase 1, or a device tensor.
enum class Tokens { kNone, kHost, kDevice };

class FfnInstance : public OpInstanceBase<FfnInstance> {
 public:
  int64_t M = 0, K1 = 0, N1 = 0, N2 = 0, E = 1;
  Act act = Act::kRelu;
  Tokens tokens = Tokens::kNone;
  bool cumulative = false;                      // device tokens are end rows (tokensIndexFlag)
  std::vector<int64_t> hostEnds;                // Tokens::kHost: each expert's end row
  int bias1 = -1, bias2 = -1, tokenInput = -1;  // input indices, -1 if absent

  rt::OpWork work() const override {
    const TensorDesc &x = inputs[0], &y = outputs[0];
    GroupedMatmulCost first;
    first.M = M, first.K = K1, first.N = N1, first.E = E;
    first.x = &x, first.weight = &inputs[1], first.y = &y;
    rt::OpWork all = groupedMatmulWork(first);
    for (auto& t : all.tiles) t.vectorBytes += t.writeBytes;  // the activation
    // The second matmul reads the hidden activations (x's type) where the first wrote them.
    TensorDesc hidden = y;
    hidden.dtype = x.dtype;
    GroupedMatmulCost second = first;
    second.K = N1, second.N = N2;
    second.x = &hidden, second.weight = &inputs[2];
    const rt::OpWork w2 = groupedMatmulWork(second);
    all.tiles.insert(all.tiles.end(), w2.tiles.begin(), w2.tiles.end());
    uint64_t side = 0;
    for (size_t i = 3; i < inputs.size(); ++i)
      side += static_cast<uint64_t>(inputs[i].numel()) * inputs[i].elementSize();
    for (size_t i = 0; i < all.tiles.size(); ++i)
      all.tiles[i].readBytes += shareOf(side, i, all.tiles.size());
    return all;
  }

  // Each expert's end row, clamped to [start, M].
  std::vector<int64_t> ends(const std::vector<HostTensor>& in) const {
    if (tokens == Tokens::kNone) return {M};
    if (tokens == Tokens::kHost) return hostEnds;
    const std::vector<int64_t> v = loadDense<int64_t>(in[static_cast<size_t>(tokenInput)]);
    std::vector<int64_t> out;
    int64_t end = 0;
    for (int64_t t : v) {
      end = std::clamp(cumulative ? t : end + t, end, M);
      out.push_back(end);
    }
    return out;
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (M == 0) return;
    const std::vector<float> x = loadDense<float>(in[0]), w1 = loadDense<float>(in[1]),
                             w2 = loadDense<float>(in[2]);
    const std::vector<float> b1 =
        bias1 >= 0 ? loadDense<float>(in[static_cast<size_t>(bias1)]) : std::vector<float>();
    const std::vector<float> b2 =
        bias2 >= 0 ? loadDense<float>(in[static_cast<size_t>(bias2)]) : std::vector<float>();
    std::vector<float> y = loadDense<float>(out[0]);  // rows in no expert's range keep their values
    const std::vector<int64_t> groupEnds = ends(in);
    std::vector<float> h, part;
    int64_t start = 0;
    for (size_t e = 0; e < groupEnds.size(); ++e) {
      const int64_t rows = groupEnds[e] - start;
      if (rows <= 0) continue;
      const auto ei = static_cast<int64_t>(e);
      h.resize(static_cast<size_t>(rows * N1));
      gemmF32(rows, N1, K1, x.data() + start * K1, K1, w1.data() + ei * K1 * N1, N1, h.data(), N1);
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t n = 0; n < N1; ++n) {
          float& v = h[static_cast<size_t>(r * N1 + n)];
          v = activate(act, v + (b1.empty() ? 0.0f : b1[static_cast<size_t>(ei * N1 + n)]));
        }
      }
      quantizeRow(in[0].dtype, h.data(), rows * N1);
      part.resize(static_cast<size_t>(rows * N2));
      gemmF32(rows, N2, N1, h.data(), N1, w2.data() + ei * N1 * N2, N2, part.data(), N2);
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t n = 0; n < N2; ++n) {
          y[static_cast<size_t>((start + r) * N2 + n)] =
              part[static_cast<size_t>(r * N2 + n)] +
              (b2.empty() ? 0.0f : b2[static_cast<size_t>(ei * N2 + n)]);
        }
      }
      start = groupEnds[e];
    }
    storeDense(out[0], y.data());
  }
};

struct FfnArgs {
  const aclTensor *x, *weight1, *weight2;
  const aclIntArray* hostTokens;  // V1/V2
  const aclTensor* deviceTokens;  // V3
  const aclTensor *bias1, *bias2, *scale, *offset, *deqScale1, *deqScale2, *aqScale1, *aqScale2, *aqOffset1,
      *aqOffset2;
  const char* activation;
  int64_t innerPrecise;
  bool tokensIndexFlag;
  const aclTensor* y;
};

int32_t parseActivation(const char* api, const char* name, Act* act) {
  std::string s(name);
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (s == "fastgelu")
    *act = Act::kFastGelu;
  else if (s == "relu")
    *act = Act::kRelu;
  else if (s == "silu")
    *act = Act::kSilu;
  else if (s == "gelu")
    *act = Act::kGelu;
  else if (s == "geglu" || s == "swiglu" || s == "reglu")
    return fail(api, kErrParamInvalid,
                fmt::format("activation {} is not supported by the simulator's FFN", s));
  else
    return fail(
        api, kErrParamInvalid,
        fmt::format("activation '{}' must be one of fastgelu, relu, silu, gelu, geglu, swiglu, reglu", s));
  return kSuccess;
}

// Expert end rows from a host array of counts or (cumulative) end rows; they must cover the M rows.
int32_t hostEnds(const char* api, const std::vector<int64_t>& v, bool cumulative, int64_t M,
                 std::vector<int64_t>* ends) {
  int64_t end = 0;
  for (int64_t t : v) {
    const int64_t next = cumulative ? t : end + t;
    if (t < 0 || next < end) {
      return fail(api, kErrParamInvalid,
                  fmt::format("expertTokens {} must be {}", fmt::join(v, ","),
                              cumulative ? "non-decreasing end rows" : "non-negative counts"));
    }
    end = next;
    ends->push_back(end);
  }
  return require(
      api, end == M,
      fmt::format("expertTokens cover {} rows but x has {} (the product of its leading dimensions)", end, M));
}

int32_t buildFfn(const char* api, const char* name, const FfnArgs& a, uint64_t* workspaceSize,
                 aclOpExecutor** executor) {
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(
      api,
      {{"x", a.x}, {"weight1", a.weight1}, {"weight2", a.weight2}, {"activation", a.activation}, {"y", a.y}});
  if (st != kSuccess) return st;
  Act act = Act::kRelu;
  if ((st = parseActivation(api, a.activation, &act)) != kSuccess) return st;
  for (const aclTensor* q :
       {a.scale, a.offset, a.deqScale1, a.deqScale2, a.aqScale1, a.aqScale2, a.aqOffset1, a.aqOffset2}) {
    if (q != nullptr) {
      return fail(
          api, kErrParamInvalid,
          "the quantised and antiquantised FFN (scale, offset, deqScale, antiquant arguments) are not "
          "supported by the simulator");
    }
  }
  if (a.x->desc.dtype == ACL_INT8)
    return fail(api, kErrParamInvalid, "int8 x (quantised FFN) is not supported by the simulator");
  if ((st = checkArg(api, "x", a.x, {ACL_FLOAT16, ACL_BF16})) != kSuccess) return st;
  const aclDataType dt = a.x->desc.dtype;
  const auto& xs = a.x->desc.shape;
  if ((st = require(api, xs.size() >= 2 && xs.size() <= 8,
                    fmt::format("x must have 2 to 8 dimensions, but is {}", shapeString(xs)))) != kSuccess)
    return st;
  if ((st = require(api, a.innerPrecise == 0 || a.innerPrecise == 1,
                    fmt::format("innerPrecise {} must be 0 (high precision) or 1 (high performance)",
                                a.innerPrecise))) != kSuccess)
    return st;
  if ((st = require(api, dt != ACL_BF16 || a.innerPrecise == 0, "bf16 x takes innerPrecise 0 only")) !=
      kSuccess)
    return st;
  auto inst = std::make_unique<FfnInstance>();
  FfnInstance& f = *inst;
  f.act = act;
  f.M = dimProduct(xs, 0, xs.size() - 1);
  f.K1 = xs.back();
  const bool experts = (a.hostTokens != nullptr && !a.hostTokens->values.empty()) ||
                       (a.deviceTokens != nullptr && a.deviceTokens->desc.numel() > 0);
  const int wRank = experts ? 3 : 2;
  if ((st = checkArg(api, "weight1", a.weight1, {dt}, wRank)) != kSuccess) return st;
  if ((st = checkArg(api, "weight2", a.weight2, {dt}, wRank)) != kSuccess) return st;
  const auto &w1 = a.weight1->desc.shape, &w2 = a.weight2->desc.shape;
  f.E = experts ? w1[0] : 1;
  f.N1 = w1.back();
  f.N2 = w2.back();
  if ((st = require(
           api,
           w1[w1.size() - 2] == f.K1 && w2[w2.size() - 2] == f.N1 && f.N2 == f.K1 &&
               (!experts || (w2[0] == f.E && f.E > 0 && f.E <= 256)),
           fmt::format("weight1 {} and weight2 {} must be [E,] K1 x N1 and [E,] N1 x K1 for x {} (E <= 256)",
                       shapeString(w1), shapeString(w2), shapeString(xs)))) != kSuccess)
    return st;
  if ((st = checkArg(api, "y", a.y, {dt})) != kSuccess) return st;
  if ((st = checkShape(api, "y", a.y->desc.shape, xs)) != kSuccess) return st;
  addInput(f, "x", a.x);
  addInput(f, "weight1", a.weight1);
  addInput(f, "weight2", a.weight2);
  if (a.hostTokens != nullptr && experts) {
    if ((st = require(api, static_cast<int64_t>(a.hostTokens->values.size()) == f.E,
                      fmt::format("expertTokens has {} experts, weights {}", a.hostTokens->values.size(),
                                  f.E))) != kSuccess)
      return st;
    if ((st = hostEnds(api, a.hostTokens->values, a.tokensIndexFlag, f.M, &f.hostEnds)) != kSuccess)
      return st;
    f.tokens = Tokens::kHost;
  } else if (a.deviceTokens != nullptr && experts) {
    if ((st = checkArg(api, "expertTokens", a.deviceTokens, {ACL_INT64}, 1)) != kSuccess) return st;
    if ((st = checkShape(api, "expertTokens", a.deviceTokens->desc.shape, {f.E})) != kSuccess) return st;
    f.tokenInput = static_cast<int>(f.inputs.size());
    addInput(f, "expertTokens", a.deviceTokens);
    f.tokens = Tokens::kDevice;
    f.cumulative = a.tokensIndexFlag;
  }
  for (const auto& [bname, b, n, slot] :
       {std::tuple<const char*, const aclTensor*, int64_t, int*>{"bias1", a.bias1, f.N1, &f.bias1},
        {"bias2", a.bias2, f.N2, &f.bias2}}) {
    if (b == nullptr) continue;
    if ((st = dt == ACL_BF16 ? checkArg(api, bname, b, {ACL_FLOAT})
                             : checkArg(api, bname, b, {ACL_FLOAT16, ACL_FLOAT})) != kSuccess)
      return st;
    const std::vector<int64_t> want = experts ? std::vector<int64_t>{f.E, n} : std::vector<int64_t>{n};
    if ((st = checkShape(api, bname, b->desc.shape, want)) != kSuccess) return st;
    *slot = static_cast<int>(f.inputs.size());
    addInput(f, bname, b);
  }
  addOutput(f, "y", a.y);
  f.name = name;
  f.attrs = fmt::format("activation={} experts={} innerPrecise={}", a.activation, experts ? f.E : 0,
                        a.innerPrecise);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnFFNGetWorkspaceSize(
    const aclTensor* x, const aclTensor* weight1, const aclTensor* weight2, const aclIntArray* expertTokens,
    const aclTensor* bias1, const aclTensor* bias2, const aclTensor* scale, const aclTensor* offset,
    const aclTensor* deqScale1, const aclTensor* deqScale2, const aclTensor* antiquantScale1,
    const aclTensor* antiquantScale2, const aclTensor* antiquantOffset1, const aclTensor* antiquantOffset2,
    const char* activation, int64_t innerPrecise, const aclTensor* y, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return npusim::aclnn::buildFfn("aclnnFFNGetWorkspaceSize", "aclnnFFN",
                                 {x, weight1, weight2, expertTokens, nullptr, bias1, bias2, scale, offset,
                                  deqScale1, deqScale2, antiquantScale1, antiquantScale2, antiquantOffset1,
                                  antiquantOffset2, activation, innerPrecise, false, y},
                                 workspaceSize, executor);
}

extern "C" aclnnStatus aclnnFFNV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* weight1, const aclTensor* weight2, const aclIntArray* expertTokens,
    const aclTensor* bias1, const aclTensor* bias2, const aclTensor* scale, const aclTensor* offset,
    const aclTensor* deqScale1, const aclTensor* deqScale2, const aclTensor* antiquantScale1,
    const aclTensor* antiquantScale2, const aclTensor* antiquantOffset1, const aclTensor* antiquantOffset2,
    const char* activation, int64_t innerPrecise, bool tokensIndexFlag, const aclTensor* y,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::buildFfn("aclnnFFNV2GetWorkspaceSize", "aclnnFFNV2",
                                 {x, weight1, weight2, expertTokens, nullptr, bias1, bias2, scale, offset,
                                  deqScale1, deqScale2, antiquantScale1, antiquantScale2, antiquantOffset1,
                                  antiquantOffset2, activation, innerPrecise, tokensIndexFlag, y},
                                 workspaceSize, executor);
}

extern "C" aclnnStatus aclnnFFNV3GetWorkspaceSize(
    const aclTensor* x, const aclTensor* weight1, const aclTensor* weight2,
    const aclTensor* expertTokensOptional, const aclTensor* bias1Optional, const aclTensor* bias2Optional,
    const aclTensor* scaleOptional, const aclTensor* offsetOptional, const aclTensor* deqScale1Optional,
    const aclTensor* deqScale2Optional, const aclTensor* antiquantScale1Optional,
    const aclTensor* antiquantScale2Optional, const aclTensor* antiquantOffset1Optional,
    const aclTensor* antiquantOffset2Optional, const char* activation, int64_t innerPrecise,
    bool tokensIndexFlag, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::buildFfn(
      "aclnnFFNV3GetWorkspaceSize", "aclnnFFNV3",
      {x, weight1, weight2, nullptr, expertTokensOptional, bias1Optional, bias2Optional, scaleOptional,
       offsetOptional, deqScale1Optional, deqScale2Optional, antiquantScale1Optional, antiquantScale2Optional,
       antiquantOffset1Optional, antiquantOffset2Optional, activation, innerPrecise, tokensIndexFlag, y},
      workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(FFN)
NPUSIM_ACLNN_PHASE2(FFNV2)
NPUSIM_ACLNN_PHASE2(FFNV3)
