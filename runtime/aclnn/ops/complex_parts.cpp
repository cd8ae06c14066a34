// The two ops-math operators between real and complex tensors (issue 28): Polar (math/polar and
// the experimental folder: out = abs·(cos angle + i sin angle), broadcasting) and the
// experimental RealV2 (the real part of a complex tensor, a real tensor passed through), over
// complex tensors viewed as real pairs (dense_op.h: complexParts). Cost: one pass over what is
// read and written, three vector passes for Polar (cos, sin, products).
#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "aclnnop/aclnn_polar.h"
#include "aclnnop/aclnn_real_v2.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpInfo kPolar{"aclnnPolar",
                    ExecUnit::kVector,
                    {ACL_FLOAT, ACL_COMPLEX64},
                    "out = input * (cos(angle) + i sin(angle)), input and angle fp32, out complex64"};
const OpInfo kRealV2{"aclnnRealV2",
                     ExecUnit::kVector,
                     {ACL_FLOAT, ACL_FLOAT16, ACL_COMPLEX64, ACL_COMPLEX32},
                     "out = the real part of self (self itself when real)"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kPolar), OpRegistrar(kRealV2)};

// Row-major index into an operand of `shape` broadcast to `out` for the out element `flat`.
int64_t broadcastAt(const std::vector<int64_t>& out, int64_t flat, const std::vector<int64_t>& shape) {
  int64_t idx = 0, mul = 1;
  const size_t lead = out.size() - shape.size();
  for (size_t d = out.size(); d-- > 0;) {
    const int64_t i = flat % out[d];
    flat /= out[d];
    if (d >= lead) {
      const int64_t s = shape[d - lead];
      idx += (s == 1 ? 0 : i) * mul;
      mul *= s;
    }
  }
  return idx;
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnPolarGetWorkspaceSize(const aclTensor* input, const aclTensor* angle,
                                                  aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  const char* api = "aclnnPolarGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"input", input}, {"angle", angle}, {"out", out}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"input", input}, {"angle", angle}, {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  if (input->desc.dtype != ACL_FLOAT || angle->desc.dtype != ACL_FLOAT || out->desc.dtype != ACL_COMPLEX64) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("input and angle must be fp32 and out complex64, not {}, {}, {}",
                    dtypeName(input->desc.dtype), dtypeName(angle->desc.dtype), dtypeName(out->desc.dtype)));
  }
  std::vector<int64_t> shape;
  if (!broadcastShapes(input->desc.shape, angle->desc.shape, &shape)) {
    return fail(api, kErrParamInvalid,
                fmt::format("input shape {} and angle shape {} are not broadcastable",
                            shapeString(input->desc.shape), shapeString(angle->desc.shape)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  auto inst = newDense(
      kPolar,
      [shape](const std::vector<HostTensor>& in, const std::vector<HostTensor>& o) {
        const std::vector<double> r = loadDense<double>(in[0]), a = loadDense<double>(in[1]);
        const HostTensor parts = complexParts(o[0]);
        std::vector<double> z(static_cast<size_t>(parts.numel()));
        for (int64_t i = 0; i < o[0].numel(); ++i) {
          const double ri = r[static_cast<size_t>(broadcastAt(shape, i, in[0].shape))];
          const double ai = a[static_cast<size_t>(broadcastAt(shape, i, in[1].shape))];
          z[static_cast<size_t>(2 * i)] = ri * std::cos(ai);
          z[static_cast<size_t>(2 * i + 1)] = ri * std::sin(ai);
        }
        storeDense(parts, z.data());
      },
      2);
  addInput(*inst, "input", input);
  addInput(*inst, "angle", angle);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Polar)

// out: self's shape; fp32 for complex64 or fp32 self, fp16 for complex32 or fp16 self.
extern "C" aclnnStatus aclnnRealV2GetWorkspaceSize(const aclTensor* self, const aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnRealV2GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "self", self->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "self", self->desc.dtype, kRealV2)) != kSuccess) return st;
  const aclDataType sd = self->desc.dtype;
  const aclDataType want = sd == ACL_COMPLEX64 ? ACL_FLOAT : sd == ACL_COMPLEX32 ? ACL_FLOAT16 : sd;
  if (out->desc.dtype != want) {
    return fail(api, kErrParamInvalid,
                fmt::format("out of self type {} must be {}, not {}", dtypeName(sd), dtypeName(want),
                            dtypeName(out->desc.dtype)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, self->desc.shape)) != kSuccess) return st;
  auto inst = newDense(
      kRealV2,
      [](const std::vector<HostTensor>& in, const std::vector<HostTensor>& o) {
        const bool complex = isComplex(in[0].dtype);
        const std::vector<double> v = loadDense<double>(complex ? complexParts(in[0]) : in[0]);
        std::vector<double> re(static_cast<size_t>(o[0].numel()));
        for (size_t i = 0; i < re.size(); ++i) re[i] = v[complex ? 2 * i : i];
        storeDense(o[0], re.data());
      },
      0);
  addInput(*inst, "self", self);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(RealV2)
