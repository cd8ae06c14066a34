// aclnnRelu / aclnnInplaceRelu (ops-nn activation/relu/op_api/aclnn_relu.cpp): out has self's
// type and shape; fp32, fp16, bf16, int8, uint8, int32, int64.
#include "runtime/aclnn/ops/relu.h"

#include <fmt/format.h>

#include "aclnnop/aclnn_relu.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/broadcast_map.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

namespace {

const OpInfo kInfo{"aclnnRelu",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_UINT8, ACL_INT32, ACL_INT64},
                   "out = max(self, 0)"};
const OpRegistrar kRegistrar(kInfo);

template <typename T>
void reluRows(const HostTensor& self, const HostTensor& out) {
  forEachBroadcastRow<T>(out, self, [](T* buf, int64_t m) {
    // x > 0 keeps x; NaN (x != x) is kept too; everything else (incl. -0) becomes +0.
    for (int64_t i = 0; i < m; ++i) buf[i] = (buf[i] > T(0) || buf[i] != buf[i]) ? buf[i] : T(0);
  });
}

class ReluInstance : public OpInstanceBase<ReluInstance> {
 public:
  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), 0});
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    reluKernel(in[0], out[0]);
  }
};

int32_t build(const char* api, const char* opName, const aclTensor* self, const aclTensor* out, bool inplace,
              uint64_t* workspaceSize, aclOpExecutor** executor) {
  rt::chargeOpPrepare(api);
  const char* selfName = inplace ? "selfRef" : "self";
  int32_t st = checkNotNull(api, {{selfName, self}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, selfName, self->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, selfName, self->desc.dtype, kInfo)) != kSuccess) return st;
  if (out->desc.dtype != self->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("out type {} must equal self type {}", dtypeName(out->desc.dtype),
                            dtypeName(self->desc.dtype)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, self->desc.shape)) != kSuccess) return st;
  auto inst = std::make_unique<ReluInstance>();
  inst->name = opName;
  inst->inputs = {self->desc};
  inst->inputNames = {selfName};
  inst->outputs = {out->desc};
  inst->outputNames = {inplace ? "selfRef" : "out"};
  inst->outputAlias = {inplace ? 0 : -1};
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace

void reluKernel(const HostTensor& self, const HostTensor& out) {
  if (out.numel() == 0) return;
  switch (calcFor(self.dtype)) {
    case Calc::kF32:
      reluRows<float>(self, out);
      break;
    case Calc::kF64:
      reluRows<double>(self, out);
      break;
    case Calc::kI64:
      reluRows<int64_t>(self, out);
      break;
  }
}

}  // namespace npusim::aclnn

extern "C" {

aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return npusim::aclnn::build("aclnnReluGetWorkspaceSize", "aclnnRelu", self, out, false, workspaceSize,
                              executor);
}

aclnnStatus aclnnInplaceReluGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return npusim::aclnn::build("aclnnInplaceReluGetWorkspaceSize", "aclnnInplaceRelu", selfRef, selfRef, true,
                              workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(Relu)
NPUSIM_ACLNN_PHASE2(InplaceRelu)
