// aclnnKlDiv (ops-math math/kl_div_v2, issue 28) on the pair reduction engine. Pointwise loss
// from its doc: target * (ln(target) - self), NaN where target <= 0, or with logTarget
// e^target * (target - self); reduction 0 none, 1 mean, 2 sum, 3 batchmean (the sum over self's
// first dimension); another code is 161002. Types fp32, fp16, bf16.
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "aclnnop/aclnn_kl_div.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/pair_reduce_op.h"

namespace npusim::aclnn {
namespace {

double klDiv(double self, double target) {
  return target <= 0 ? std::numeric_limits<double>::quiet_NaN() : target * (std::log(target) - self);
}
double klDivLogTarget(double self, double target) { return std::exp(target) * (target - self); }

const OpInfo kKlDiv{"aclnnKlDiv",
                    ExecUnit::kVector,
                    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                    "out = reduction of target * (ln(target) - self)"};
const OpRegistrar kRegistrar(kKlDiv);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnKlDivGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                  int64_t reduction, bool logTarget, aclTensor* out,
                                                  uint64_t* ws, aclOpExecutor** ex) {
  using namespace npusim::aclnn;
  const char* api = "aclnnKlDivGetWorkspaceSize";
  if (reduction < 0 || reduction > 3) {
    npusim::rt::chargeOpPrepare(api);
    return fail(api, kErrParamInvalid,
                fmt::format("reduction {} is not 0 (none), 1 (mean), 2 (sum) or 3 (batchmean)", reduction));
  }
  // Exp, subtract, multiply (and the log of target without logTarget).
  return buildPairReduce({api, "aclnnKlDiv", &kKlDiv, logTarget ? klDivLogTarget : klDiv, logTarget ? 3 : 4,
                          "self", self, "target", target, out, static_cast<PairReduction>(reduction), false,
                          false, fmt::format("reduction={}, logTarget={}", reduction, logTarget)},
                         ws, ex);
}
NPUSIM_ACLNN_PHASE2(KlDiv)
