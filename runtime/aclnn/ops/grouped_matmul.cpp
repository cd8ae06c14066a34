// aclnnGroupedMatmulV4 / V5 (ops-transformer gmm/grouped_matmul README): y_i = x_i · weight_i
// (+ bias_i) for the groups i of rows of one x [M, K] (groupType 0: split along M), weight
// [E, K, N], out [M, N]; groupList holds each group's end row (groupListType 0, cumulative) or
// its row count (1). Quantised (x and weight int8): y_i = (x_i · weight_i + bias_i) * scale_i
// * perTokenScale, the int8 products accumulated exactly. Not supported (161002, named): other
// group types, several tensors per list, fused activations, antiquant (int4/int8 weight with
// fp16 x), activation quantisation outputs. Rows past the last group's end are left untouched.
// Cost: groupedMatmulWork (grouped_matmul_work.h), the groups split evenly.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_grouped_matmul_v4.h"
#include "aclnnop/aclnn_grouped_matmul_v5.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/gemm.h"
#include "runtime/aclnn/ops/grouped_matmul_work.h"
#include "runtime/aclnn/ops/matmul_geometry.h"
#include "runtime/aclnn/ops/matmul_tiling.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpRegistrar kV4({"aclnnGroupedMatmulV4",
                       ExecUnit::kCube,
                       {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT8},
                       "y[rows of group i] = x[rows] · weight[i] + bias[i]"});
const OpRegistrar kV5({"aclnnGroupedMatmulV5",
                       ExecUnit::kCube,
                       {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT8},
                       "y[rows of group i] = x[rows] · weight[i] + bias[i]"});

struct GmmShape {
  int64_t M = 0, K = 0, N = 0, E = 0;
  bool quant = false, hasBias = false, hasScale = false, hasPerToken = false, cumulative = true;
};

class GroupedMatmulInstance : public OpInstanceBase<GroupedMatmulInstance> {
 public:
  GmmShape s;

  rt::OpWork work() const override {
    GroupedMatmulCost c;
    c.M = s.M, c.K = s.K, c.N = s.N, c.E = s.E;
    c.x = &inputs[0], c.weight = &inputs[1], c.y = &outputs[0];
    rt::OpWork w = groupedMatmulWork(c);
    // Bias, scales and group list are read once, shared over the blocks (applied in the fixpipe).
    uint64_t side = 0;
    for (size_t i = 2; i < inputs.size(); ++i)
      side += static_cast<uint64_t>(inputs[i].numel()) * inputs[i].elementSize();
    for (size_t i = 0; i < w.tiles.size(); ++i) w.tiles[i].readBytes += shareOf(side, i, w.tiles.size());
    return w;
  }

  // in: x, weight, groupList [, bias] [, scale] [, perTokenScale]; out: y.
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<float> x = loadDense<float>(in[0]), w = loadDense<float>(in[1]);
    const std::vector<int64_t> groups = loadDense<int64_t>(in[2]);
    size_t next = 3;
    const std::vector<double> bias = s.hasBias ? loadDense<double>(in[next++]) : std::vector<double>();
    const std::vector<double> scale = s.hasScale ? loadDense<double>(in[next++]) : std::vector<double>();
    const std::vector<double> perToken =
        s.hasPerToken ? loadDense<double>(in[next++]) : std::vector<double>();
    std::vector<float> y = loadDense<float>(out[0]);  // rows outside every group keep their values
    std::vector<double> acc;
    std::vector<float> part;
    int64_t start = 0;
    for (int64_t e = 0; e < s.E && start < s.M; ++e) {
      const int64_t g = static_cast<int64_t>(groups.size()) > e ? groups[e] : 0;
      const int64_t end = std::clamp(s.cumulative ? g : start + g, start, s.M), rows = end - start;
      if (rows == 0) continue;
      acc.assign(static_cast<size_t>(rows * s.N), 0.0);
      part.resize(acc.size());
      const int64_t step = s.quant ? kExactInt8K : s.K;
      for (int64_t k0 = 0; k0 < s.K; k0 += step) {
        const int64_t kk = std::min(step, s.K - k0);
        gemmF32(rows, s.N, kk, x.data() + start * s.K + k0, s.K, w.data() + (e * s.K + k0) * s.N, s.N,
                part.data(), s.N);
        for (size_t i = 0; i < acc.size(); ++i) acc[i] += part[i];
      }
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t n = 0; n < s.N; ++n) {
          double v = acc[r * s.N + n] + (s.hasBias ? bias[e * s.N + n] : 0.0);
          if (s.hasScale) v *= scale[e * s.N + n];
          if (s.hasPerToken) v *= perToken[start + r];
          y[(start + r) * s.N + n] = static_cast<float>(v);
        }
      }
      start = end;
    }
    storeDense(out[0], y.data());
  }
};

const aclTensor* single(const aclTensorList* l) {
  return l != nullptr && l->items.size() == 1 ? l->items[0] : nullptr;
}

bool present(const aclTensorList* l) { return l != nullptr && !l->items.empty(); }

struct GmmArgs {
  const aclTensorList *x, *weight, *bias, *scale, *offset, *aqScale, *aqOffset, *perToken;
  const aclTensor* groupList;
  const aclTensorList *actIn, *actQScale, *actQOffset;
  int64_t splitItem, groupType, groupListType, actType;
  aclTensorList *out, *actOut, *dynQuantOut;
};

int32_t buildGmm(const char* api, const char* name, const GmmArgs& a, uint64_t* workspaceSize,
                 aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x", a.x}, {"weight", a.weight}, {"out", a.out}});
  if (st != kSuccess) return st;
  auto unsupported = [api](const std::string& what) {
    return fail(api, kErrParamInvalid, what + " is not supported by the simulator's GroupedMatmul");
  };
  if (a.groupType != 0) return unsupported(fmt::format("groupType {} (only 0, split along M)", a.groupType));
  if (a.splitItem != 2 && a.splitItem != 3)
    return unsupported(fmt::format("splitItem {} (only 2 or 3)", a.splitItem));
  if (a.actType != 0) return unsupported(fmt::format("actType {}", a.actType));
  if (present(a.offset) || present(a.aqScale) || present(a.aqOffset) || present(a.actIn) ||
      present(a.actQScale) || present(a.actQOffset) || present(a.actOut) || present(a.dynQuantOut)) {
    return unsupported("offset, antiquant or activation-quantisation arguments");
  }
  const aclTensor *x = single(a.x), *w = single(a.weight), *y = single(a.out);
  if (x == nullptr || w == nullptr || y == nullptr)
    return unsupported("x, weight or out with other than one tensor");
  if ((st = checkArg(api, "x", x, {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT8}, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "weight", w, {x->desc.dtype}, 3)) != kSuccess) return st;
  GmmShape s;
  s.M = x->desc.shape[0];
  s.K = x->desc.shape[1];
  s.E = w->desc.shape[0];
  s.N = w->desc.shape[2];
  s.quant = x->desc.dtype == ACL_INT8;
  s.cumulative = a.groupListType == 0;
  if ((st = require(api, w->desc.shape[1] == s.K && s.E > 0,
                    fmt::format("weight {} must be [E, {}, N]", shapeString(w->desc.shape), s.K))) !=
      kSuccess) {
    return st;
  }
  if ((st = require(api, a.groupListType == 0 || a.groupListType == 1,
                    fmt::format("groupListType {} must be 0 (cumulative) or 1 (counts)", a.groupListType))) !=
      kSuccess) {
    return st;
  }
  if ((st = checkArg(api, "groupList", a.groupList, {ACL_INT64}, 1)) != kSuccess) return st;
  if ((st = checkShape(api, "groupList", a.groupList->desc.shape, {s.E})) != kSuccess) return st;
  const std::initializer_list<aclDataType> outTypes = {ACL_FLOAT16, ACL_BF16};
  if ((st = s.quant ? checkArg(api, "out", y, outTypes, 2) : checkArg(api, "out", y, {x->desc.dtype}, 2)) !=
      kSuccess) {
    return st;
  }
  if ((st = checkShape(api, "out", y->desc.shape, {s.M, s.N})) != kSuccess) return st;
  auto inst = std::make_unique<GroupedMatmulInstance>();
  inst->name = name;
  addInput(*inst, "x", x);
  addInput(*inst, "weight", w);
  addInput(*inst, "groupList", a.groupList);
  if (present(a.bias)) {
    const aclTensor* b = single(a.bias);
    if (b == nullptr) return unsupported("a bias list of several tensors");
    if ((st = checkArg(api, "bias", b,
                       s.quant ? std::initializer_list<aclDataType>{ACL_INT32}
                               : std::initializer_list<aclDataType>{x->desc.dtype, ACL_FLOAT})) != kSuccess) {
      return st;
    }
    if ((st = checkShape(api, "bias", b->desc.shape, {s.E, s.N})) != kSuccess) return st;
    addInput(*inst, "bias", b);
    s.hasBias = true;
  }
  if (s.quant) {
    const aclTensor* sc = single(a.scale);
    if ((st = checkArg(api, "scale", sc, {ACL_FLOAT, ACL_BF16})) != kSuccess) return st;
    if ((st = checkShape(api, "scale", sc->desc.shape, {s.E, s.N})) != kSuccess) return st;
    addInput(*inst, "scale", sc);
    s.hasScale = true;
    if (present(a.perToken)) {
      const aclTensor* pt = single(a.perToken);
      if ((st = checkArg(api, "perTokenScale", pt, {ACL_FLOAT}, 1)) != kSuccess) return st;
      if ((st = checkShape(api, "perTokenScale", pt->desc.shape, {s.M})) != kSuccess) return st;
      addInput(*inst, "perTokenScale", pt);
      s.hasPerToken = true;
    }
  } else if (present(a.scale) || present(a.perToken)) {
    return unsupported("scale or perTokenScale with floating x");
  }
  addOutput(*inst, "out", y);
  inst->s = s;
  inst->attrs = fmt::format("groups={} groupListType={}", s.E, a.groupListType);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnGroupedMatmulV4GetWorkspaceSize(
    const aclTensorList* x, const aclTensorList* weight, const aclTensorList* biasOptional,
    const aclTensorList* scaleOptional, const aclTensorList* offsetOptional,
    const aclTensorList* antiquantScaleOptional, const aclTensorList* antiquantOffsetOptional,
    const aclTensorList* perTokenScaleOptional, const aclTensor* groupListOptional,
    const aclTensorList* activationInputOptional, const aclTensorList* activationQuantScaleOptional,
    const aclTensorList* activationQuantOffsetOptional, int64_t splitItem, int64_t groupType,
    int64_t groupListType, int64_t actType, aclTensorList* out, aclTensorList* activationFeatureOutOptional,
    aclTensorList* dynQuantScaleOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  return buildGmm("aclnnGroupedMatmulV4GetWorkspaceSize", "aclnnGroupedMatmulV4",
                  {x, weight, biasOptional, scaleOptional, offsetOptional, antiquantScaleOptional,
                   antiquantOffsetOptional, perTokenScaleOptional, groupListOptional, activationInputOptional,
                   activationQuantScaleOptional, activationQuantOffsetOptional, splitItem, groupType,
                   groupListType, actType, out, activationFeatureOutOptional, dynQuantScaleOutOptional},
                  workspaceSize, executor);
}

extern "C" aclnnStatus aclnnGroupedMatmulV5GetWorkspaceSize(
    const aclTensorList* x, const aclTensorList* weight, const aclTensorList* biasOptional,
    const aclTensorList* scaleOptional, const aclTensorList* offsetOptional,
    const aclTensorList* antiquantScaleOptional, const aclTensorList* antiquantOffsetOptional,
    const aclTensorList* perTokenScaleOptional, const aclTensor* groupListOptional,
    const aclTensorList* activationInputOptional, const aclTensorList* activationQuantScaleOptional,
    const aclTensorList* activationQuantOffsetOptional, int64_t splitItem, int64_t groupType,
    int64_t groupListType, int64_t actType, aclIntArray* tuningConfigOptional, aclTensorList* out,
    aclTensorList* activationFeatureOutOptional, aclTensorList* dynQuantScaleOutOptional,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  // tuningConfig is a performance hint (the expected rows per group); it does not change results.
  return buildGmm("aclnnGroupedMatmulV5GetWorkspaceSize", "aclnnGroupedMatmulV5",
                  {x, weight, biasOptional, scaleOptional, offsetOptional, antiquantScaleOptional,
                   antiquantOffsetOptional, perTokenScaleOptional, groupListOptional, activationInputOptional,
                   activationQuantScaleOptional, activationQuantOffsetOptional, splitItem, groupType,
                   groupListType, actType, out, activationFeatureOutOptional, dynQuantScaleOutOptional},
                  workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(GroupedMatmulV4)
NPUSIM_ACLNN_PHASE2(GroupedMatmulV5)
