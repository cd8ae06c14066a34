// aclnnRemainderScalarTensor (ops-math math/floor_mod, issue 28): out = self - floor(self / other)
// * other for a host scalar self, the result taking other's sign, on the pointwise engine (the
// other forms are on the binary engine in binary_arith.cpp). The scalar is rounded to other's
// type first, as the device converts it to a tensor. Integers are exact below 2^53; a zero
// integer divisor gives 0, as for the tensor forms (the device raises an AI-core exception,
// which the simulator does not model). Cost: other read, out written, 3 vector passes.
#include <fmt/format.h>

#include <cmath>

#include "aclnnop/aclnn_remainder.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/ternary_op.h"

namespace npusim::aclnn {
namespace {

double remainderOf(const double* x, size_t, const PointwiseParams& p) {
  const double a = p[0], b = x[0];
  const double r = std::fmod(a, b);  // NaN for b = 0: stored as 0 in an integer out
  return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}

const OpInfo kRemainderScalarTensor{
    "aclnnRemainderScalarTensor",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64},
    "out = self - floor(self / other) * other, self a host scalar"};
const OpRegistrar kRegistrar(kRemainderScalarTensor);
const TernaryDef kRemainderDef{&kRemainderScalarTensor, remainderOf, 3};

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnRemainderScalarTensorGetWorkspaceSize(const aclScalar* self,
                                                                  const aclTensor* other, aclTensor* out,
                                                                  uint64_t* ws, aclOpExecutor** ex) {
  using namespace npusim::aclnn;
  const char* api = "aclnnRemainderScalarTensorGetWorkspaceSize";
  double s = 0;
  if (self == nullptr) npusim::rt::chargeOpPrepare(api);
  const int32_t st = scalarParam(api, "self", self, &s);
  if (st != kSuccess) return st;
  if (other != nullptr && isIntegral(other->desc.dtype, false)) s = std::trunc(s);
  return buildTernary(kRemainderDef,
                      {api,
                       "aclnnRemainderScalarTensor",
                       {{"other", other}},
                       "out",
                       out,
                       false,
                       {s},
                       "self=" + self->value.str()},
                      ws, ex);
}
NPUSIM_ACLNN_PHASE2(RemainderScalarTensor)
