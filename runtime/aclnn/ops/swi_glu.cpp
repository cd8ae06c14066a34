// aclnnSwiGlu (ops-nn activation/swi_glu/docs/aclnnSwiGlu.md): x is split along `dim` into
// halves A (first) and B; out = silu(A) * B = A / (1 + exp(-A)) * B. fp32, fp16, bf16
// (computed in fp32, rounded once).
#include <fmt/format.h>

#include <cmath>

#include "aclnnop/aclnn_swi_glu.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnSwiGlu", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, "out = silu(A) * B"};
const OpRegistrar kRegistrar(kInfo);

class SwiGluInstance : public OpInstanceBase<SwiGluInstance> {
 public:
  int64_t dim = 0;

  rt::OpWork work() const override {
    // exp, add, divide, multiply: four passes over the output-sized halves.
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), 3});
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<float> x = loadDense<float>(in[0]);
    const size_t d = static_cast<size_t>(dim);
    const int64_t outer = dimProduct(in[0].shape, 0, d), half = in[0].shape[d] / 2,
                  inner = dimProduct(in[0].shape, d + 1, in[0].shape.size());
    std::vector<float> y(static_cast<size_t>(outer * half * inner));
    for (int64_t o = 0; o < outer; ++o) {
      const float* a = x.data() + o * 2 * half * inner;
      const float* b = a + half * inner;
      float* r = y.data() + o * half * inner;
      for (int64_t i = 0; i < half * inner; ++i) r[i] = a[i] / (1.0f + std::exp(-a[i])) * b[i];
    }
    storeDense(out[0], y.data());
  }
};

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnSwiGluGetWorkspaceSize(const aclTensor* x, int64_t dim, const aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnSwiGluGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x", x}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "x", x->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "x", x->desc.dtype, kInfo)) != kSuccess) return st;
  if (out->desc.dtype != x->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("out type {} must equal x type {}", dtypeName(out->desc.dtype), dtypeName(x->desc.dtype)));
  }
  const int64_t d = wrapDim(dim, x->desc.rank());
  if (x->desc.rank() == 0 || d < 0) {
    return fail(api, kErrParamInvalid, fmt::format("dim {} is out of range for x of {} dimensions", dim, x->desc.rank()));
  }
  std::vector<int64_t> shape = x->desc.shape;
  if (shape[static_cast<size_t>(d)] % 2 != 0) {
    return fail(api, kErrParamInvalid,
                fmt::format("x shape {} has an odd length along dim {}", shapeString(shape), dim));
  }
  shape[static_cast<size_t>(d)] /= 2;
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  auto inst = std::make_unique<SwiGluInstance>();
  inst->name = "aclnnSwiGlu";
  inst->dim = d;
  addInput(*inst, "x", x);
  addOutput(*inst, "out", out);
  inst->attrs = fmt::format("dim={}", dim);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(SwiGlu)
