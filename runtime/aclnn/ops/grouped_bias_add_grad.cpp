// aclnnGroupedBiasAddGrad / aclnnGroupedBiasAddGradV2 (ops-math math/grouped_bias_add_grad, issue
// 28): the bias gradient of a grouped bias add, from its doc. With groupIdxOptional, gradY is
// [N, H] and out[g] is the sum of gradY's rows [end(g-1), end(g)), end being groupIdx itself
// (groupIdxType 0, cumulative ends) or its running sum (type 1, the groups' sizes); rows past the
// last end are not summed, and an end past N stops at N. Without it, gradY is [G, C, H] and out[g]
// sums gradY[g] over C. Types fp32, fp16, bf16 (out of gradY's), groupIdx int32 or int64.
// Summed in fp64 and rounded once. Cost: gradY (and groupIdx) read, out written, one pass.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "aclnnop/aclnn_grouped_bias_add_grad.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

class GroupedBiasAddGradInstance : public OpInstanceBase<GroupedBiasAddGradInstance> {
 public:
  int64_t groupIdxType = 0;

  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], inputs[0].numel(), 0});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const HostTensor& g = in[0];
    const int64_t G = out[0].shape[0], H = out[0].shape[1];
    if (G * H == 0) return;
    const std::vector<double> y = loadWide(g, g.shape);
    std::vector<double> r(static_cast<size_t>(G * H), 0.0);
    std::vector<int64_t> begin(static_cast<size_t>(G)), end(static_cast<size_t>(G));
    if (in.size() > 1) {  // [N, H] rows grouped by groupIdx
      std::vector<int64_t> idx(static_cast<size_t>(G));
      copyView(in[1], hostTensor(ACL_INT64, in[1].shape, idx.data()));
      const int64_t n = g.shape[0];
      int64_t at = 0;
      for (int64_t j = 0; j < G; ++j) {
        const int64_t e = groupIdxType == 0 ? idx[static_cast<size_t>(j)] : at + idx[static_cast<size_t>(j)];
        begin[static_cast<size_t>(j)] = std::clamp<int64_t>(at, 0, n);
        end[static_cast<size_t>(j)] = std::clamp<int64_t>(e, 0, n);
        at = e;
      }
    } else {  // [G, C, H]: group j is rows [j C, (j + 1) C) of the flattened [G C, H]
      const int64_t c = g.shape[1];
      for (int64_t j = 0; j < G; ++j) {
        begin[static_cast<size_t>(j)] = j * c;
        end[static_cast<size_t>(j)] = (j + 1) * c;
      }
    }
    for (int64_t j = 0; j < G; ++j) {
      for (int64_t row = begin[static_cast<size_t>(j)]; row < end[static_cast<size_t>(j)]; ++row)
        for (int64_t h = 0; h < H; ++h)
          r[static_cast<size_t>(j * H + h)] += y[static_cast<size_t>(row * H + h)];
    }
    storeRounded(out[0], r);
  }
};

const OpInfo kGroupedBiasAddGrad{"aclnnGroupedBiasAddGrad",
                                 ExecUnit::kVector,
                                 {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                                 "out[g] = sum of gradY's rows of group g"};
const OpInfo kGroupedBiasAddGradV2{"aclnnGroupedBiasAddGradV2", ExecUnit::kVector, kGroupedBiasAddGrad.dtypes,
                                   "out[g] = sum of gradY's rows of group g (groupIdx ends or sizes)"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kGroupedBiasAddGrad), OpRegistrar(kGroupedBiasAddGradV2)};

int32_t build(const OpInfo& info, const char* api, const aclTensor* gradY, const aclTensor* groupIdx,
              int64_t groupIdxType, const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"gradY", gradY}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "gradY", gradY->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "gradY", gradY->desc.dtype, info)) != kSuccess) return st;
  if (out->desc.dtype != gradY->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("out of type {} must have gradY's type", dtypeName(out->desc.dtype)));
  }
  if (groupIdxType != 0 && groupIdxType != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("groupIdxType {} is not 0 (ends) or 1 (sizes)", groupIdxType));
  }
  const auto& s = gradY->desc.shape;
  std::vector<int64_t> want;
  if (groupIdx != nullptr) {
    if ((st = checkTensor(api, "groupIdxOptional", groupIdx->desc)) != kSuccess) return st;
    const aclDataType it = groupIdx->desc.dtype;
    if ((it != ACL_INT32 && it != ACL_INT64) || groupIdx->desc.shape.size() != 1 || s.size() != 2) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("with groupIdxOptional ({} {}) gradY {} must be 2-D and groupIdx 1-D int32/int64",
                      shapeString(groupIdx->desc.shape), dtypeName(it), shapeString(s)));
    }
    want = {groupIdx->desc.shape[0], s[1]};
  } else {
    if (s.size() != 3) {
      return fail(api, kErrParamInvalid,
                  fmt::format("without groupIdxOptional gradY {} must be 3-D", shapeString(s)));
    }
    want = {s[0], s[2]};
  }
  if ((st = checkShape(api, "out", out->desc.shape, want)) != kSuccess) return st;
  auto inst = std::make_unique<GroupedBiasAddGradInstance>();
  inst->name = info.name;
  inst->groupIdxType = groupIdxType;
  inst->attrs = fmt::format("groupIdxType={}", groupIdxType);
  addInput(*inst, "gradY", gradY);
  if (groupIdx != nullptr) addInput(*inst, "groupIdxOptional", groupIdx);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnGroupedBiasAddGradGetWorkspaceSize(const aclTensor* gradY,
                                                               const aclTensor* groupIdxOptional,
                                                               aclTensor* out, uint64_t* ws,
                                                               aclOpExecutor** ex) {
  return npusim::aclnn::build(npusim::aclnn::kGroupedBiasAddGrad, "aclnnGroupedBiasAddGradGetWorkspaceSize",
                              gradY, groupIdxOptional, 0, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(GroupedBiasAddGrad)

extern "C" aclnnStatus aclnnGroupedBiasAddGradV2GetWorkspaceSize(const aclTensor* gradY,
                                                                 const aclTensor* groupIdxOptional,
                                                                 int64_t groupIdxType, aclTensor* out,
                                                                 uint64_t* ws, aclOpExecutor** ex) {
  return npusim::aclnn::build(npusim::aclnn::kGroupedBiasAddGradV2,
                              "aclnnGroupedBiasAddGradV2GetWorkspaceSize", gradY, groupIdxOptional,
                              groupIdxType, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(GroupedBiasAddGradV2)
