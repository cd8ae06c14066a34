// aclnnNsaCompressGrad (ops-transformer attention/nsa_compress_grad/docs/aclnnNsaCompressGrad.md):
// the gradients of aclnnNsaCompress (output[o] = sum_j weight[j] * input[start_o + j], per head)
// for the windows nsa_compress.h lists:
//   inputGrad[t, n, :] = sum over windows o and offsets j with start_o + j = t of weight[j, n] *
//   outputGrad[o, n, :] weightGrad[j, n]   = sum_o sum_d outputGrad[o, n, d] * input[start_o + j, n, d]
// fp16/bf16 (every tensor of input's type), sums in fp32, one rounding; the forward's limits
// and compressBlockSize > compressStride (161002). Cost: a vector pass over the windows' elements reading
// outputGrad, input and weight and writing both gradients.
#include <fmt/format.h>

#include <memory>
#include <vector>

#include "aclnnop/aclnn_nsa_compress_grad.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/nsa_compress.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnNsaCompressGrad",
                   ExecUnit::kVector,
                   {ACL_FLOAT16, ACL_BF16},
                   "gradients of out[o,n,:] = sum_j weight[j,n] * input[window(o)+j,n,:]"};
const OpRegistrar kRegistrar(kInfo);

class NsaCompressGradInstance : public OpInstanceBase<NsaCompressGradInstance> {
 public:
  std::vector<int64_t> windowStarts;
  int64_t block = 0;

  rt::OpWork work() const override {
    const int64_t N = inputs[1].shape[1], D = inputs[1].shape[2];
    const auto elements = static_cast<int64_t>(windowStarts.size()) * block * N * D;
    const std::vector<TensorDesc> in{inputs[0], inputs[1]};
    return vectorTiles(VectorPass{&in, &outputs[0], elements, 1,
                                  static_cast<uint64_t>(outputs[1].numel()) * outputs[1].elementSize(),
                                  static_cast<uint64_t>(inputs[2].numel()) * inputs[2].elementSize()});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const int64_t N = in[1].shape[1], D = in[1].shape[2];
    const std::vector<float> g = loadDense<float>(in[0]);
    const std::vector<float> x = loadDense<float>(in[1]);
    const std::vector<float> w = loadDense<float>(in[2]);
    std::vector<float> dx(x.size(), 0.0f), dw(w.size(), 0.0f);
    for (size_t o = 0; o < windowStarts.size(); ++o) {
      for (int64_t j = 0; j < block; ++j) {
        const int64_t t = windowStarts[o] + j;
        for (int64_t n = 0; n < N; ++n) {
          const float* go = g.data() + (static_cast<int64_t>(o) * N + n) * D;
          const float* xt = x.data() + (t * N + n) * D;
          float* dxt = dx.data() + (t * N + n) * D;
          const float wj = w[static_cast<size_t>(j * N + n)];
          float acc = 0;
          for (int64_t d = 0; d < D; ++d) {
            dxt[d] += wj * go[d];
            acc += go[d] * xt[d];
          }
          dw[static_cast<size_t>(j * N + n)] += acc;
        }
      }
    }
    storeDense(out[0], dx.data());
    storeDense(out[1], dw.data());
  }
};

int32_t build(const aclTensor* outputGrad, const aclTensor* input, const aclTensor* weight,
              const aclIntArray* seqLens, int64_t block, int64_t stride, int64_t seqLenType,
              const char* layout, const aclTensor* inputGrad, const aclTensor* weightGrad,
              uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnNsaCompressGradGetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"outputGrad", outputGrad},
                                  {"input", input},
                                  {"weight", weight},
                                  {"actSeqLenOptionalOptional", seqLens},
                                  {"layoutOptionalOptional", layout},
                                  {"inputGradOut", inputGrad},
                                  {"weightGradOut", weightGrad}});
  if (st != kSuccess) return st;
  if (stride >= block) {  // the gradient's doc asks for strictly overlapping windows
    return fail(api, kErrParamInvalid,
                fmt::format("compressBlockSize {} must be greater than compressStride {}", block, stride));
  }
  auto inst = std::make_unique<NsaCompressGradInstance>();
  inst->block = block;
  if ((st = nsaWindows(api, input, weight, seqLens, layout, block, stride, seqLenType,
                       &inst->windowStarts)) != kSuccess)
    return st;
  for (const auto& [name, t] : {std::pair<const char*, const aclTensor*>{"outputGrad", outputGrad},
                                {"inputGradOut", inputGrad},
                                {"weightGradOut", weightGrad}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if (t->desc.dtype != input->desc.dtype) {
      return fail(api, kErrParamInvalid, fmt::format("{} must have input's type", name));
    }
  }
  const auto& is = input->desc.shape;
  if ((st = checkShape(api, "outputGrad", outputGrad->desc.shape,
                       {static_cast<int64_t>(inst->windowStarts.size()), is[1], is[2]})) != kSuccess ||
      (st = checkShape(api, "inputGradOut", inputGrad->desc.shape, is)) != kSuccess ||
      (st = checkShape(api, "weightGradOut", weightGrad->desc.shape, weight->desc.shape)) != kSuccess)
    return st;
  inst->name = "aclnnNsaCompressGrad";
  addInput(*inst, "outputGrad", outputGrad);
  addInput(*inst, "input", input);
  addInput(*inst, "weight", weight);
  addOutput(*inst, "inputGradOut", inputGrad);
  addOutput(*inst, "weightGradOut", weightGrad);
  inst->attrs = fmt::format("compressBlockSize={}, compressStride={}", block, stride);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnNsaCompressGradGetWorkspaceSize(
    const aclTensor* outputGrad, const aclTensor* input, const aclTensor* weight,
    const aclIntArray* actSeqLenOptionalOptional, int64_t compressBlockSize, int64_t compressStride,
    int64_t actSeqLenType, char* layoutOptionalOptional, const aclTensor* inputGradOut,
    const aclTensor* weightGradOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build(outputGrad, input, weight, actSeqLenOptionalOptional, compressBlockSize,
                              compressStride, actSeqLenType, layoutOptionalOptional, inputGradOut,
                              weightGradOut, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(NsaCompressGrad)
