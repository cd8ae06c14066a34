#include "runtime/aclnn/ops/softmax_op.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

namespace {

class SoftmaxInstance : public OpInstanceBase<SoftmaxInstance> {
 public:
  int64_t dim = 0;
  bool log = false;

  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), 2});
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    std::vector<float> v = loadDense<float>(in[0]);
    const size_t d = static_cast<size_t>(dim);
    softmaxRows(v.data(), dimProduct(in[0].shape, 0, d), in[0].shape.empty() ? 1 : in[0].shape[d],
                dimProduct(in[0].shape, d + 1, in[0].shape.size()), log);
    storeDense(out[0], v.data());
  }
};

}  // namespace

void softmaxRows(float* v, int64_t rows, int64_t n, int64_t inner, bool log) {
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < inner; ++j) {
      float* p = v + r * n * inner + j;
      float mx = -std::numeric_limits<float>::infinity();
      for (int64_t i = 0; i < n; ++i) mx = std::max(mx, p[i * inner]);
      if (std::isinf(mx) && mx < 0) mx = 0;  // a row of -inf gives NaN, as on the device
      float sum = 0;
      for (int64_t i = 0; i < n; ++i) {
        const float e = std::exp(p[i * inner] - mx);
        sum += e;
        if (!log) p[i * inner] = e;
      }
      if (log) {
        const float ls = std::log(sum);
        for (int64_t i = 0; i < n; ++i) p[i * inner] = p[i * inner] - mx - ls;
      } else {
        const float inv = 1.0f / sum;
        for (int64_t i = 0; i < n; ++i) p[i * inner] *= inv;
      }
    }
  }
}

int32_t buildSoftmax(const char* api, const char* opName, const OpInfo& info, bool log, const aclTensor* self,
                     int64_t dim, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "self", self->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "self", self->desc.dtype, info)) != kSuccess) return st;
  if ((st = checkDtype(api, "out", out->desc.dtype, info)) != kSuccess) return st;
  const int64_t d = wrapDim(dim, self->desc.rank());
  if (d < 0) {
    return fail(api, kErrParamInvalid,
                fmt::format("dim {} is out of range for self of {} dimensions", dim, self->desc.rank()));
  }
  if ((st = checkShape(api, "out", out->desc.shape, self->desc.shape)) != kSuccess) return st;
  auto inst = std::make_unique<SoftmaxInstance>();
  inst->name = opName;
  inst->dim = self->desc.rank() == 0 ? 0 : d;
  inst->log = log;
  addInput(*inst, "self", self);
  addOutput(*inst, "out", out);
  inst->attrs = fmt::format("dim={}", dim);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace npusim::aclnn
