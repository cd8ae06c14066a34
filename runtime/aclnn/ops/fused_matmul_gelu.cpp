// aclnnFusedMatmulGelu (ops-nn experimental/matmul/fused_matmul_gelu/docs/aclnnFusedMatmulGelu.md):
// y = GELU(x @ weight^T + bias) with x [..., K], weight [N, K], optional bias [N]; fp16, bf16,
// all four of one type; approximate must be 1 (the tanh form, the only one documented). The
// matmul engine runs the product with weight read transposed in place, bias and GELU in its
// epilogue (fp32, one rounding to y's type).
#include <fmt/format.h>

#include <utility>

#include "aclnnop/aclnn_fused_matmul_gelu.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/base/tensor.h"
#include "runtime/aclnn/ops/matmul.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{
    "aclnnFusedMatmulGelu", ExecUnit::kCube, {ACL_FLOAT16, ACL_BF16}, "y = gelu_tanh(x @ weight^T + bias)"};
const OpRegistrar kRegistrar(kInfo);

int32_t build(const aclTensor* x, const aclTensor* weight, const aclTensor* bias, int64_t approximate,
              const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnFusedMatmulGeluGetWorkspaceSize";
  int32_t st = checkNotNull(api, {{"x", x}, {"weight", weight}, {"y", y}});
  if (st != kSuccess) return st;
  if (approximate != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("approximate must be 1 (tanh approximation), but is {}", approximate));
  }
  if (x->desc.rank() < 1 || weight->desc.rank() != 2) {
    return fail(api, kErrParamInvalid,
                fmt::format("x must have at least 1 dimension and weight must be [N, K], but are {} and {}",
                            shapeString(x->desc.shape), shapeString(weight->desc.shape)));
  }
  const aclDataType dt = x->desc.dtype;
  for (const auto& [name, t] :
       {std::pair<const char*, const aclTensor*>{"weight", weight}, {"bias", bias}, {"y", y}}) {
    if (t != nullptr && t->desc.dtype != dt) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} has type {} but x has {}: all tensors must share one type", name,
                              dtypeName(t->desc.dtype), dtypeName(dt)));
    }
  }
  const int64_t n = weight->desc.shape[0];
  if (bias != nullptr && bias->desc.shape != std::vector<int64_t>{n}) {
    return fail(api, kErrParamInvalid,
                fmt::format("bias must be [{}] (weight's N), but is {}", n, shapeString(bias->desc.shape)));
  }
  const aclTensor weightT = transposedView(*weight);  // [K, N]
  const AddTerm add{bias, 1.0, 1.0, false};
  return buildMatmul({api, "aclnnFusedMatmulGelu", &kInfo, 0}, x, &weightT, y, kKeepDtype, workspaceSize,
                     executor, bias != nullptr ? &add : nullptr, MatmulEpilogue::kGeluTanh);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnFusedMatmulGeluGetWorkspaceSize(const aclTensor* x, const aclTensor* weight,
                                                            const aclTensor* bias, int64_t approximate,
                                                            aclTensor* y, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  return npusim::aclnn::build(x, weight, bias, approximate, y, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(FusedMatmulGelu)
