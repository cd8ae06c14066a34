// aclnnNsaCompress (ops-transformer attention/nsa_compress/docs/aclnnNsaCompress.md): for each
// sequence of a TND input (ends given cumulatively by actSeqLenOptional) and each window
// i = 0 .. floor((len - l) / d) of l = compressBlockSize tokens every d = compressStride tokens,
//   output[o, n, :] = sum_j weight[j, n] * input[start + i * d + j, n, :],
// the windows of all sequences stacked in order (sequences shorter than l give none). fp16/bf16,
// products and sums in fp32, one rounding. The doc's limits are checked: N <= 128, D a multiple
// of 16 up to 256, l a multiple of 16 up to 128, d a multiple of 16 not above l, layout TND,
// actSeqLenType 0. Cost: a vector pass reading the windows and weight, writing the output.
#include "runtime/aclnn/ops/nsa_compress.h"

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_nsa_compress.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnNsaCompress",
                   ExecUnit::kVector,
                   {ACL_FLOAT16, ACL_BF16},
                   "out[o,n,:] = sum_j weight[j,n] * input[window(o)+j,n,:]"};
const OpRegistrar kRegistrar(kInfo);

class NsaCompressInstance : public OpInstanceBase<NsaCompressInstance> {
 public:
  std::vector<int64_t> windowStarts;  // first input token of each output row
  int64_t block = 0;

  rt::OpWork work() const override {
    // Each window's block of tokens is read (overlapping windows re-read theirs) and weighted.
    const int64_t N = inputs[0].shape[1], D = inputs[0].shape[2];
    const auto elements = static_cast<int64_t>(windowStarts.size()) * block * N * D;
    const std::vector<TensorDesc> in{inputs[0]};
    rt::OpWork w =
        vectorTiles(VectorPass{&in, &outputs[0], elements, 1, 0,
                               static_cast<uint64_t>(inputs[1].numel()) * inputs[1].elementSize()});
    return w;
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const int64_t N = in[0].shape[1], D = in[0].shape[2];
    const std::vector<float> x = loadDense<float>(in[0]);
    const std::vector<float> w = loadDense<float>(in[1]);
    std::vector<float> y(windowStarts.size() * static_cast<size_t>(N * D), 0.0f);
    for (size_t o = 0; o < windowStarts.size(); ++o) {
      for (int64_t j = 0; j < block; ++j) {
        const float* row = x.data() + (windowStarts[o] + j) * N * D;
        for (int64_t n = 0; n < N; ++n) {
          const float wj = w[static_cast<size_t>(j * N + n)];
          float* dst = y.data() + (static_cast<int64_t>(o) * N + n) * D;
          for (int64_t d = 0; d < D; ++d) dst[d] += wj * row[n * D + d];
        }
      }
    }
    storeDense(out[0], y.data());
  }
};

}  // namespace

int32_t nsaWindows(const char* api, const aclTensor* input, const aclTensor* weight,
                   const aclIntArray* seqLens, const char* layout, int64_t block, int64_t stride,
                   int64_t seqLenType, std::vector<int64_t>* starts) {
  for (const auto& [name, t] :
       {std::pair<const char*, const aclTensor*>{"input", input}, {"weight", weight}}) {
    int32_t st = checkTensor(api, name, t->desc);
    if (st != kSuccess || (st = checkDtype(api, name, t->desc.dtype, kInfo)) != kSuccess) return st;
  }
  if (weight->desc.dtype != input->desc.dtype)
    return fail(api, kErrParamInvalid, "input and weight must have one type");
  if (std::string(layout) != "TND" || seqLenType != 0) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("only layout TND with cumulative lengths (actSeqLenType 0) is supported, got {} and {}",
                    layout, seqLenType));
  }
  const auto& is = input->desc.shape;
  const auto& ws = weight->desc.shape;
  if (is.size() != 3 || ws.size() != 2 || ws[0] != block || ws[1] != is[1] || is[1] > 128 ||
      is[2] % 16 != 0 || is[2] > 256 || block % 16 != 0 || block <= 0 || block > 128 || stride % 16 != 0 ||
      stride <= 0 || stride > block) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("shapes or sizes outside the documented limits: input {} ([T, N <= 128, D % 16 == 0, "
                    "D <= 256]), weight {} ([compressBlockSize, N]), compressBlockSize {} (multiple of 16, "
                    "<= 128), compressStride {} (multiple of 16, <= compressBlockSize)",
                    shapeString(is), shapeString(ws), block, stride));
  }
  starts->clear();
  int64_t begin = 0;
  for (int64_t end : seqLens->values) {
    if (end < begin)
      return fail(api, kErrParamInvalid, "actSeqLenOptional must be non-decreasing (cumulative)");
    for (int64_t s = begin; s + block <= end; s += stride) starts->push_back(s);
    begin = end;
  }
  if (seqLens->values.empty() || begin != is[0]) {
    return fail(api, kErrParamInvalid,
                fmt::format("the last of actSeqLenOptional must equal input's T {}", is[0]));
  }
  return kSuccess;
}

namespace {

int32_t build(const aclTensor* input, const aclTensor* weight, const aclIntArray* seqLens, const char* layout,
              int64_t block, int64_t stride, int64_t seqLenType, const aclTensor* output,
              uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnNsaCompressGetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"input", input},
                                  {"weight", weight},
                                  {"actSeqLenOptional", seqLens},
                                  {"layoutOptional", layout},
                                  {"output", output}});
  if (st != kSuccess) return st;
  auto inst = std::make_unique<NsaCompressInstance>();
  inst->block = block;
  if ((st = nsaWindows(api, input, weight, seqLens, layout, block, stride, seqLenType,
                       &inst->windowStarts)) != kSuccess)
    return st;
  if ((st = checkTensor(api, "output", output->desc)) != kSuccess) return st;
  if (output->desc.dtype != input->desc.dtype)
    return fail(api, kErrParamInvalid, "output must have input's type");
  const auto& is = input->desc.shape;
  if ((st = checkShape(api, "output", output->desc.shape,
                       {static_cast<int64_t>(inst->windowStarts.size()), is[1], is[2]})) != kSuccess)
    return st;
  inst->name = "aclnnNsaCompress";
  addInput(*inst, "input", input);
  addInput(*inst, "weight", weight);
  addOutput(*inst, "output", output);
  inst->attrs = fmt::format("compressBlockSize={}, compressStride={}", block, stride);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnNsaCompressGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                                        const aclIntArray* actSeqLenOptional,
                                                        char* layoutOptional, int64_t compressBlockSize,
                                                        int64_t compressStride, int64_t actSeqLenType,
                                                        aclTensor* output, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return npusim::aclnn::build(input, weight, actSeqLenOptional, layoutOptional, compressBlockSize,
                              compressStride, actSeqLenType, output, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(NsaCompress)
