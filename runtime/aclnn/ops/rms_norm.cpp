// aclnnRmsNorm (ops-nn norm/rms_norm/docs/aclnnRmsNorm.md): over the trailing dimensions that
// gamma covers, rstd = 1 / sqrt(mean(x^2) + epsilon) and y = x * rstd * gamma. x, gamma, y:
// fp32, fp16, bf16 (computed in fp32, y rounded once); rstd: fp32, x's shape with the
// normalised dimensions set to 1.
#include <fmt/format.h>

#include <cmath>

#include "aclnnop/aclnn_rms_norm.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnRmsNorm",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                   "y = x / sqrt(mean(x^2) + eps) * gamma"};
const OpRegistrar kRegistrar(kInfo);

class RmsNormInstance : public OpInstanceBase<RmsNormInstance> {
 public:
  double epsilon = 1e-6;

  rt::OpWork work() const override {
    // Square-and-sum, scale, multiply by gamma: three passes; rstd is a small extra write.
    VectorPass p{&inputs, &outputs[0], outputs[0].numel(), 2};
    p.extraWriteBytes = static_cast<uint64_t>(outputs[1].numel()) * outputs[1].elementSize();
    return vectorTiles(p);
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    std::vector<float> x = loadDense<float>(in[0]);
    const std::vector<float> g = loadDense<float>(in[1]);
    const int64_t n = static_cast<int64_t>(g.size()), rows = n == 0 ? 0 : static_cast<int64_t>(x.size()) / n;
    std::vector<float> rstd(static_cast<size_t>(rows));
    for (int64_t r = 0; r < rows; ++r) {
      float* p = x.data() + r * n;
      double ss = 0;
      for (int64_t i = 0; i < n; ++i) ss += static_cast<double>(p[i]) * p[i];
      const float rs = static_cast<float>(1.0 / std::sqrt(ss / static_cast<double>(n) + epsilon));
      rstd[static_cast<size_t>(r)] = rs;
      for (int64_t i = 0; i < n; ++i) p[i] = p[i] * rs * g[static_cast<size_t>(i)];
    }
    storeDense(out[0], x.data());
    storeDense(out[1], rstd.data());
  }
};

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma, double epsilon,
                                                    const aclTensor* yOut, const aclTensor* rstdOut,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnRmsNormGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x", x}, {"gamma", gamma}, {"yOut", yOut}, {"rstdOut", rstdOut}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"x", x}, {"gamma", gamma}, {"yOut", yOut}, {"rstdOut", rstdOut}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  for (auto [name, t] : {std::pair{"x", x}, {"gamma", gamma}, {"yOut", yOut}}) {
    if ((st = checkDtype(api, name, t->desc.dtype, kInfo)) != kSuccess) return st;
  }
  if (gamma->desc.dtype != x->desc.dtype || yOut->desc.dtype != x->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("x, gamma and yOut must have one type, but are {}, {} and {}", dtypeName(x->desc.dtype),
                            dtypeName(gamma->desc.dtype), dtypeName(yOut->desc.dtype)));
  }
  if (rstdOut->desc.dtype != ACL_FLOAT) {
    return fail(api, kErrParamInvalid,
                fmt::format("rstdOut type must be fp32, but is {}", dtypeName(rstdOut->desc.dtype)));
  }
  const auto& xs = x->desc.shape;
  const auto& gs = gamma->desc.shape;
  bool tail = x->desc.numel() > 0 && !gs.empty() && gs.size() <= xs.size();
  for (size_t i = 0; tail && i < gs.size(); ++i) tail = gs[i] == xs[xs.size() - gs.size() + i];
  if (!tail) {
    return fail(api, kErrParamInvalid,
                fmt::format("gamma shape {} must equal the trailing dimensions of x shape {} (x not empty)",
                            shapeString(gs), shapeString(xs)));
  }
  if ((st = checkShape(api, "yOut", yOut->desc.shape, xs)) != kSuccess) return st;
  std::vector<int64_t> rs = xs;
  for (size_t i = xs.size() - gs.size(); i < xs.size(); ++i) rs[i] = 1;
  if ((st = checkShape(api, "rstdOut", rstdOut->desc.shape, rs)) != kSuccess) return st;
  auto inst = std::make_unique<RmsNormInstance>();
  inst->name = "aclnnRmsNorm";
  inst->epsilon = epsilon;
  addInput(*inst, "x", x);
  addInput(*inst, "gamma", gamma);
  addOutput(*inst, "yOut", yOut);
  addOutput(*inst, "rstdOut", rstdOut);
  inst->attrs = fmt::format("epsilon={}", epsilon);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(RmsNorm)
