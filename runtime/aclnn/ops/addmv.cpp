// aclnnAddmv (ops-nn matmul/addmv/docs/aclnnAddmv.md): out = beta * self + alpha * (mat @ vec)
// with a 2-D mat, 1-D vec and 1-D self broadcast to the product; fp32, fp16, bf16 (the doc's
// integer, double and bool inputs are not modelled: 161002); cubeMathType as aclnnMatmul.
#include <fmt/format.h>

#include "aclnnop/aclnn_addmv.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/base/tensor.h"
#include "runtime/aclnn/ops/matmul.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnAddmv",
                   ExecUnit::kCube,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                   "out = beta * self + alpha * (mat @ vec)"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnAddmvGetWorkspaceSize(const aclTensor* self, const aclTensor* mat,
                                                  const aclTensor* vec, const aclScalar* alpha,
                                                  const aclScalar* beta, aclTensor* out, int8_t cubeMathType,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnAddmvGetWorkspaceSize";
  const int32_t st = checkNotNull(
      api, {{"self", self}, {"mat", mat}, {"vec", vec}, {"alpha", alpha}, {"beta", beta}, {"out", out}});
  if (st != kSuccess) return st;
  if (self->desc.rank() != 1 || mat->desc.rank() != 2 || vec->desc.rank() != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("self and vec must be 1-dimensional and mat 2-dimensional, but are {}, {} and {}",
                            shapeString(self->desc.shape), shapeString(vec->desc.shape),
                            shapeString(mat->desc.shape)));
  }
  const AddTerm add{self, beta->value.toDouble(), alpha->value.toDouble(), false};
  return buildMatmul({api, "aclnnAddmv", &kInfo, 0}, mat, vec, out, cubeMathType, workspaceSize, executor,
                     &add);
}

NPUSIM_ACLNN_PHASE2(Addmv)
