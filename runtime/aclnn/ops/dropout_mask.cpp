// aclnnDropoutDoMask and aclnnDropoutBackward (ops-math random/drop_out_do_mask, issue 28): apply
// a dropout keep mask of bits (as aclnnDropoutGenMask writes it, random_op.h: element i's bit is
// bit i % 8 of byte i / 8, least significant first) to a tensor: kept elements are scaled, the
// others are 0. DoMask scales by 1 / (1 - prob) (prob 1 zeroes everything), Backward by `scale`.
#include <fmt/format.h>

#include <vector>

#include "aclnnop/aclnn_dropout_backward.h"
#include "aclnnop/aclnn_dropout_do_mask.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/random_op.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const OpInfo kDoMask{"aclnnDropoutDoMask", ExecUnit::kVector, kFloats,
                     "out = mask bit ? self / (1 - prob) : 0"};
const OpInfo kBackward{"aclnnDropoutBackward", ExecUnit::kVector, kFloats,
                       "out = mask bit ? scale * gradOutput : 0"};
const OpRegistrar kRegs[] = {OpRegistrar(kDoMask), OpRegistrar(kBackward)};

class MaskInstance : public OpInstanceBase<MaskInstance> {
 public:
  double factor = 1;  // the scale of kept elements

  rt::OpWork work() const override {
    // x and the mask read, out written; unpacking the bits, a select and a multiply
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), 2});
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    std::vector<double> x = loadDense<double>(in[0]);
    const std::vector<int64_t> bits = loadDense<int64_t>(in[1]);
    for (size_t i = 0; i < x.size(); ++i) {
      const bool keep = ((bits[i / 8] >> (i % 8)) & 1) != 0;
      x[i] = keep ? x[i] * factor : 0.0;
    }
    quantizeRow(ACL_FLOAT, x.data(), static_cast<int64_t>(x.size()));
    storeDense<double>(out[0], x.data());
  }
};

int32_t buildMask(const OpInfo& info, const char* api, const char* xName, const aclTensor* x,
                  const aclTensor* mask, double factor, const aclTensor* out, uint64_t* workspaceSize,
                  aclOpExecutor** executor) {
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{xName, x}, {"mask", mask}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, xName, x->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "mask", mask->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, xName, x->desc.dtype, info)) != kSuccess) return st;
  if (out->desc.dtype != x->desc.dtype) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("out is {} where {} is {}", dtypeName(out->desc.dtype), xName, dtypeName(x->desc.dtype)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, x->desc.shape)) != kSuccess) return st;
  const int64_t want = bitMaskBytes(x->desc.numel());
  if (mask->desc.dtype != ACL_UINT8 || mask->desc.numel() != want) {
    return fail(api, kErrParamInvalid,
                fmt::format("mask must be {} uint8 bytes (one bit per element, rounded up to 128), not {}",
                            want, mask->desc.brief()));
  }
  auto inst = std::make_unique<MaskInstance>();
  inst->name = info.name;
  inst->factor = factor;
  inst->attrs = fmt::format("factor={}", factor);
  addInput(*inst, xName, x);
  addInput(*inst, "mask", mask);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnDropoutDoMaskGetWorkspaceSize(const aclTensor* self, const aclTensor* mask,
                                                          double prob, aclTensor* out,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnDropoutDoMaskGetWorkspaceSize";
  if (!(prob >= 0 && prob <= 1))
    return fail(api, kErrParamInvalid, fmt::format("prob must be in [0, 1], not {}", prob));
  return buildMask(kDoMask, api, "self", self, mask, prob == 1 ? 0.0 : 1 / (1 - prob), out, workspaceSize,
                   executor);
}
NPUSIM_ACLNN_PHASE2(DropoutDoMask)

extern "C" aclnnStatus aclnnDropoutBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                            const aclTensor* mask, double scale,
                                                            aclTensor* out, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  return npusim::aclnn::buildMask(npusim::aclnn::kBackward, "aclnnDropoutBackwardGetWorkspaceSize",
                                  "gradOutput", gradOutput, mask, scale, out, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(DropoutBackward)
