// aclnnAmpUpdateScale (ops-math math/amp_update_scale, issue 28): the loss-scale update of mixed
// precision training, from its doc. With foundInf != 0 the scale is multiplied by backoffFactor
// and the tracker reset; otherwise the tracker counts the step, and when it reaches
// growthInterval the scale is multiplied by growthFactor (kept when the product is not finite)
// and the tracker reset. currentScale, foundInf and updatedScale: one fp32 element each;
// growthTracker and updatedGrowthTracker: one int32 element each. Cost: a few scalar reads and
// writes on one vector core.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <tuple>
#include <vector>

#include "aclnnop/aclnn_amp_update_scale.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

class AmpUpdateScaleInstance : public OpInstanceBase<AmpUpdateScaleInstance> {
 public:
  double growthFactor = 2, backoffFactor = 0.5;
  int64_t growthInterval = 1;

  rt::OpWork work() const override {
    VectorPass p{&inputs, &outputs[0], 1, 0};
    p.extraWriteBytes = outputs[1].elementSize();
    return vectorTiles(p);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    double scale = 0, foundInf = 0;
    int64_t tracker = 0;
    copyView(in[0], hostTensor(ACL_DOUBLE, in[0].shape, &scale));
    copyView(in[1], hostTensor(ACL_INT64, in[1].shape, &tracker));
    copyView(in[2], hostTensor(ACL_DOUBLE, in[2].shape, &foundInf));
    if (foundInf != 0) {
      scale *= backoffFactor;
      tracker = 0;
    } else if (tracker + 1 == growthInterval) {
      const auto grown = static_cast<float>(scale * growthFactor);  // the device computes in fp32
      if (std::isfinite(grown)) scale = grown;
      tracker = 0;
    } else {
      ++tracker;
    }
    copyView(hostTensor(ACL_DOUBLE, out[0].shape, &scale), out[0]);
    copyView(hostTensor(ACL_INT64, out[1].shape, &tracker), out[1]);
  }
};

const OpInfo kAmpUpdateScale{
    "aclnnAmpUpdateScale",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_INT32},
    "updatedScale = scale * (backoff if foundInf, growth every growthInterval steps)"};
const OpRegistrar kRegistrar(kAmpUpdateScale);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnAmpUpdateScaleGetWorkspaceSize(
    const aclTensor* currentScale, const aclTensor* growthTracker, const aclTensor* foundInf,
    double growthFactor, double backoffFactor, int64_t growthInterval, const aclTensor* updatedScale,
    const aclTensor* updatedGrowthTracker, uint64_t* ws, aclOpExecutor** ex) {
  using namespace npusim::aclnn;
  const char* api = "aclnnAmpUpdateScaleGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"currentScale", currentScale},
                                  {"growthTracker", growthTracker},
                                  {"foundInf", foundInf},
                                  {"updatedScale", updatedScale},
                                  {"updatedGrowthTracker", updatedGrowthTracker}});
  if (st != kSuccess) return st;
  const auto oneElement = [&](const char* name, const aclTensor* t, aclDataType want) {
    int32_t r = checkTensor(api, name, t->desc);
    if (r == kSuccess && (t->desc.dtype != want || t->desc.numel() != 1)) {
      r = fail(api, kErrParamInvalid,
               fmt::format("{} ({} {}) must be one {} element", name, shapeString(t->desc.shape),
                           dtypeName(t->desc.dtype), dtypeName(want)));
    }
    return r;
  };
  for (auto [name, t, want] : {std::tuple{"currentScale", currentScale, ACL_FLOAT},
                               {"growthTracker", growthTracker, ACL_INT32},
                               {"foundInf", foundInf, ACL_FLOAT},
                               {"updatedScale", updatedScale, ACL_FLOAT},
                               {"updatedGrowthTracker", updatedGrowthTracker, ACL_INT32}}) {
    if ((st = oneElement(name, t, want)) != kSuccess) return st;
  }
  if (growthInterval <= 0) {
    return fail(api, kErrParamInvalid, fmt::format("growthInterval {} is not positive", growthInterval));
  }
  auto inst = std::make_unique<AmpUpdateScaleInstance>();
  inst->name = "aclnnAmpUpdateScale";
  inst->growthFactor = growthFactor;
  inst->backoffFactor = backoffFactor;
  inst->growthInterval = growthInterval;
  inst->attrs = fmt::format("growthFactor={}, backoffFactor={}, growthInterval={}", growthFactor,
                            backoffFactor, growthInterval);
  addInput(*inst, "currentScale", currentScale);
  addInput(*inst, "growthTracker", growthTracker);
  addInput(*inst, "foundInf", foundInf);
  addOutput(*inst, "updatedScale", updatedScale);
  addOutput(*inst, "updatedGrowthTracker", updatedGrowthTracker);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(AmpUpdateScale)
