// Softmax gradients (ops-nn activation/softmax_grad, log_softmax_grad and the experimental
// log_softmax_grad, issue 28) and the experimental SoftmaxV2 on the softmax engine. Along `dim`:
//   SoftmaxBackward:    out = y * (g - sum(g * y))     (y the forward output)
//   LogSoftmaxBackward: out = g - sum(g) * exp(y)      (y the forward log-softmax output)
// computed in fp64 over dense copies, rounded once. Cost: both inputs read, out written, three
// vector passes (product, row sum, combine).
#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "aclnnop/aclnn_logsoftmax_backward.h"
#include "aclnnop/aclnn_softmax_backward.h"
#include "aclnnop/aclnn_softmax_v2.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/softmax_op.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const OpInfo kSoftmaxBackward{"aclnnSoftmaxBackward", ExecUnit::kVector, kFloats,
                              "out = output * (gradOutput - sum(gradOutput * output, dim))"};
const OpInfo kLogSoftmaxBackward{"aclnnLogSoftmaxBackward", ExecUnit::kVector, kFloats,
                                 "out = gradOutput - sum(gradOutput, dim) * exp(output)"};
const OpInfo kSoftmaxV2{"aclnnSoftmaxV2", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16}, "y = softmax(x, dim)"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kSoftmaxBackward), OpRegistrar(kLogSoftmaxBackward),
                                   OpRegistrar(kSoftmaxV2)};

class SoftmaxGradInstance : public OpInstanceBase<SoftmaxGradInstance> {
 public:
  bool log = false;
  int64_t dim = 0;

  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), 2});
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (out[0].numel() == 0) return;
    const std::vector<double> g = loadDense<double>(in[0]), y = loadDense<double>(in[1]);
    const size_t d = static_cast<size_t>(dim);
    const int64_t outer = dimProduct(in[0].shape, 0, d), n = in[0].shape.empty() ? 1 : in[0].shape[d],
                  inner = dimProduct(in[0].shape, d + 1, in[0].shape.size());
    std::vector<double> r(g.size());
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        const auto at = [&](int64_t k) { return static_cast<size_t>((o * n + k) * inner + i); };
        double s = 0;
        for (int64_t k = 0; k < n; ++k) s += log ? g[at(k)] : g[at(k)] * y[at(k)];
        for (int64_t k = 0; k < n; ++k)
          r[at(k)] = log ? g[at(k)] - s * std::exp(y[at(k)]) : y[at(k)] * (g[at(k)] - s);
      }
    }
    storeDense(out[0], r.data());
  }
};

int32_t buildSoftmaxGrad(const OpInfo& info, bool log, const aclTensor* grad, const aclTensor* output,
                         int64_t dim, const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  const std::string apiName = info.name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"gradOutput", grad}, {"output", output}, {"out", out}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"gradOutput", grad}, {"output", output}, {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, info)) != kSuccess) return st;
  }
  if ((st = checkShape(api, "output", output->desc.shape, grad->desc.shape)) != kSuccess) return st;
  if ((st = checkShape(api, "out", out->desc.shape, grad->desc.shape)) != kSuccess) return st;
  const size_t rank = grad->desc.rank();
  const int64_t d = rank == 0 ? (dim == 0 || dim == -1 ? 0 : -1) : wrapDim(dim, rank);
  if (d < 0)
    return fail(api, kErrParamInvalid, fmt::format("dim {} is out of range for {} dimensions", dim, rank));
  auto inst = std::make_unique<SoftmaxGradInstance>();
  inst->name = info.name;
  inst->log = log;
  inst->dim = rank == 0 ? 0 : d;
  inst->attrs = fmt::format("dim={}", dim);
  addInput(*inst, "gradOutput", grad);
  addInput(*inst, "output", output);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                            const aclTensor* output, int64_t dim,
                                                            aclTensor* out, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  return buildSoftmaxGrad(kSoftmaxBackward, false, gradOutput, output, dim, out, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(SoftmaxBackward)
extern "C" aclnnStatus aclnnLogSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                               const aclTensor* output, int64_t dim,
                                                               aclTensor* out, uint64_t* workspaceSize,
                                                               aclOpExecutor** executor) {
  return buildSoftmaxGrad(kLogSoftmaxBackward, true, gradOutput, output, dim, out, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(LogSoftmaxBackward)
extern "C" aclnnStatus aclnnSoftmaxV2GetWorkspaceSize(const aclTensor* x, int64_t dim, const aclTensor* y,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildSoftmax("aclnnSoftmaxV2GetWorkspaceSize", "aclnnSoftmaxV2", kSoftmaxV2, false, x, dim, y,
                      workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(SoftmaxV2)
