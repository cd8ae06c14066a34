// aclnnRopeWithSinCosCache (ops-transformer posembedding/rope_with_sin_cos_cache, issue 28):
// rotary position embedding of query and key with cos and sin looked up per token in a cache
// (row p: rotaryDim/2 cosines, then rotaryDim/2 sines). Positions [T] take one cache row per
// token; positions [3, T] with mropeSection (mrope) take the cosines and sines of section k
// from the row of positions[k]. Each head of headSize rotates its first rotaryDim values,
// halves against each other (GPT-NeoX, isNeoxStyle) or even against odd (GPT-J), and keeps the
// rest. A whole-tensor kernel (dense_kernel_op.h): computed in fp32, rounded once to the type.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {
namespace {

const OpInfo kRope{"aclnnRopeWithSinCosCache",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                   "query, key rotated by cos/sin rows of cosSinCache picked by positions"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kRope)};

// Rotates the first rd values of each head of width hs in x [T, cols] in place.
void rotate(std::vector<float>& x, int64_t T, int64_t cols, int64_t hs, int64_t rd, bool neox,
            const std::vector<float>& cosT, const std::vector<float>& sinT) {
  const int64_t half = rd / 2;
  std::vector<float> r(static_cast<size_t>(rd));
  for (int64_t t = 0; t < T; ++t) {
    const float* c = cosT.data() + t * half;
    const float* s = sinT.data() + t * half;
    for (int64_t h = 0; h < cols / hs; ++h) {
      float* v = x.data() + t * cols + h * hs;
      for (int64_t i = 0; i < half; ++i) {
        const float x1 = neox ? v[i] : v[2 * i], x2 = neox ? v[half + i] : v[2 * i + 1];
        r[static_cast<size_t>(neox ? i : 2 * i)] = x1 * c[i] - x2 * s[i];
        r[static_cast<size_t>(neox ? half + i : 2 * i + 1)] = x2 * c[i] + x1 * s[i];
      }
      std::copy(r.begin(), r.end(), v);
    }
  }
}

int32_t buildRope(const char* api, const aclTensor* positions, const aclTensor* q, const aclTensor* k,
                  const aclTensor* cache, const aclIntArray* mrope, int64_t headSize, bool neox,
                  const aclTensor* qOut, const aclTensor* kOut, uint64_t* ws, aclOpExecutor** ex) {
  rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "positions", positions, {ACL_INT32, ACL_INT64})) != kSuccess) return st;
  if ((st = checkArg(api, "queryIn", q, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, 2)) != kSuccess) return st;
  const aclDataType dt = q->desc.dtype;
  if ((st = checkArg(api, "keyIn", k, {dt}, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "cosSinCache", cache, {dt}, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "queryOut", qOut, {dt})) != kSuccess) return st;
  if ((st = checkArg(api, "keyOut", kOut, {dt})) != kSuccess) return st;
  if ((st = checkShape(api, "queryOut", qOut->desc.shape, q->desc.shape)) != kSuccess) return st;
  if ((st = checkShape(api, "keyOut", kOut->desc.shape, k->desc.shape)) != kSuccess) return st;
  const int64_t T = q->desc.shape[0], qCols = q->desc.shape[1], kCols = k->desc.shape[1];
  const int64_t maxPos = cache->desc.shape[0], rd = cache->desc.shape[1];
  if ((st = require(api, k->desc.shape[0] == T, "keyIn and queryIn must have the same number of tokens")) !=
      kSuccess)
    return st;
  const int64_t step = dt == ACL_FLOAT ? 16 : 32;  // the README's constraints
  if ((st = require(api, headSize >= 16 && headSize <= 128 && headSize % step == 0,
                    fmt::format("headSize {} must be in [16, 128] and a multiple of {}", headSize, step))) !=
      kSuccess)
    return st;
  if ((st = require(
           api, rd >= 16 && rd <= headSize && rd % step == 0,
           fmt::format("rotaryDim (cosSinCache's last dimension) {} must be in [16, headSize {}] and a "
                       "multiple of {}",
                       rd, headSize, step))) != kSuccess)
    return st;
  if ((st = require(api, qCols % headSize == 0 && kCols % headSize == 0,
                    "queryIn and keyIn rows must hold whole heads of headSize")) != kSuccess)
    return st;
  const auto& ps = positions->desc.shape;
  std::vector<int64_t> sections;
  if (mrope != nullptr && !mrope->values.empty()) {
    sections = mrope->values;
    int64_t sum = 0;
    for (int64_t v : sections) sum += v;
    if ((st = require(
             api, sections.size() == 3 && sum == rd / 2 && ps.size() == 2 && ps[0] == 3 && ps[1] == T,
             "mrope needs mropeSection of 3 values summing to rotaryDim/2 and positions [3, tokens]")) !=
        kSuccess)
      return st;
  } else if ((st = require(api, ps.size() == 1 && ps[0] == T, "positions must be [tokens]")) != kSuccess) {
    return st;
  }
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnRopeWithSinCosCache";
  addInput(*inst, "positions", positions);
  addInput(*inst, "queryIn", q);
  addInput(*inst, "keyIn", k);
  addInput(*inst, "cosSinCache", cache);
  addOutput(*inst, "queryOut", qOut);
  addOutput(*inst, "keyOut", kOut);
  inst->vectorPasses = 6;  // two multiplies and an add per output, for the cos and the sin terms
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<int64_t> pos = loadDense<int64_t>(in[0]);
    std::vector<float> qv = loadDense<float>(in[1]), kv = loadDense<float>(in[2]);
    const std::vector<float> c = loadDense<float>(in[3]);
    const int64_t half = rd / 2;
    std::vector<float> cosT(static_cast<size_t>(T * half)), sinT(cosT.size());
    for (int64_t t = 0; t < T; ++t) {
      for (int64_t i = 0; i < half; ++i) {
        int64_t row = 0;  // which positions row gives element i (mrope: its section)
        if (!sections.empty()) row = i < sections[0] ? 0 : i < sections[0] + sections[1] ? 1 : 2;
        int64_t p = pos[static_cast<size_t>(row * T + t)];
        if (p < 0 || p >= maxPos) {
          reportExecutionError(
              "aclnnRopeWithSinCosCache",
              fmt::format("position {} of token {} is outside cosSinCache's {} rows", p, t, maxPos));
          p = p < 0 ? 0 : maxPos - 1;
        }
        cosT[static_cast<size_t>(t * half + i)] = c[static_cast<size_t>(p * rd + i)];
        sinT[static_cast<size_t>(t * half + i)] = c[static_cast<size_t>(p * rd + half + i)];
      }
    }
    rotate(qv, T, qCols, headSize, rd, neox, cosT, sinT);
    rotate(kv, T, kCols, headSize, rd, neox, cosT, sinT);
    storeDense(out[0], qv.data());
    storeDense(out[1], kv.data());
  };
  inst->attrs = fmt::format("headSize={}, rotaryDim={}, isNeoxStyle={}, mrope={}", headSize, rd, neox,
                            !sections.empty());
  return makeExecutor(api, std::move(inst), ws, ex);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnRopeWithSinCosCacheGetWorkspaceSize(
    const aclTensor* positions, const aclTensor* queryIn, const aclTensor* keyIn,
    const aclTensor* cosSinCache, const aclIntArray* mropeSection, int64_t headSize, bool isNeoxStyle,
    aclTensor* queryOut, aclTensor* keyOut, uint64_t* ws, aclOpExecutor** ex) {
  return buildRope("aclnnRopeWithSinCosCacheGetWorkspaceSize", positions, queryIn, keyIn, cosSinCache,
                   mropeSection, headSize, isNeoxStyle, queryOut, keyOut, ws, ex);
}
NPUSIM_ACLNN_PHASE2(RopeWithSinCosCache)
