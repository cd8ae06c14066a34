#include "runtime/aclnn/ops/unary_op.h"

#include <fmt/format.h>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/broadcast_map.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

namespace {

template <typename T, typename F>
void rows(const HostTensor& self, const HostTensor& out, const F& f, aclDataType calc) {
  forEachBroadcastRow<T>(out, self, [&](T* buf, int64_t m) {
    f(buf, m);
    quantizeRow(calc, buf, m);  // the device computes in the input's float type
  });
}

class UnaryInstance : public OpInstanceBase<UnaryInstance> {
 public:
  const UnaryDef* def = nullptr;
  UnaryParams params{};

  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), def->passes - 1});
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    unaryKernel(*def, in[0], out[0], params);
  }
};

}  // namespace

void unaryKernel(const UnaryDef& d, const HostTensor& self, const HostTensor& out,
                 const UnaryParams& params) {
  if (out.numel() == 0) return;
  if (d.withParams != nullptr) {
    const auto f = [&](double* v, int64_t n) {
      for (int64_t i = 0; i < n; ++i) v[i] = d.withParams(v[i], params);
    };
    // integers keep their value through fp64; floats round as the device's fp32
    return rows<double>(self, out, f,
                        self.dtype == ACL_DOUBLE || isIntegral(self.dtype, true) ? ACL_DOUBLE : ACL_FLOAT);
  }
  if (self.dtype == ACL_BOOL && d.boolFn != nullptr) return rows<int64_t>(self, out, d.boolFn, out.dtype);
  const bool integral = isIntegral(self.dtype, true);
  if (integral && d.i64 != nullptr) return rows<int64_t>(self, out, d.i64, out.dtype);
  if (self.dtype == ACL_DOUBLE && d.f64 != nullptr) return rows<double>(self, out, d.f64, ACL_DOUBLE);
  // fp16/bf16 inputs are computed in fp32 and rounded once when stored.
  rows<float>(self, out, d.f32, ACL_FLOAT);
}

int32_t buildUnary(const UnaryDef& d, const char* api, const char* opName, const aclTensor* self,
                   const aclTensor* out, bool inplace, uint64_t* workspaceSize, aclOpExecutor** executor,
                   const UnaryParams& params, const std::string& attrs) {
  rt::chargeOpPrepare(api);
  const char* selfName = inplace ? "selfRef" : "self";
  int32_t st = checkNotNull(api, {{selfName, self}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, selfName, self->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, selfName, self->desc.dtype, *d.info)) != kSuccess) return st;
  const aclDataType sd = self->desc.dtype, od = out->desc.dtype;
  if (d.outTypes != nullptr) {
    if (std::find(d.outTypes->begin(), d.outTypes->end(), od) == d.outTypes->end()) {
      return fail(api, kErrParamInvalid, fmt::format("out of type {} is not supported", dtypeName(od)));
    }
  } else if ((st = checkDtype(api, "out", od, *d.info)) != kSuccess) {
    return st;
  }
  const bool floatOnly = d.i64 == nullptr && d.withParams == nullptr && isIntegral(sd, true);
  if (d.outTypes == nullptr && (!canCast(sd, od) || (floatOnly && !isFloating(od)))) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} type {} cannot be written to out of type {}", selfName, dtypeName(sd),
                            dtypeName(od)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, self->desc.shape)) != kSuccess) return st;
  auto inst = std::make_unique<UnaryInstance>();
  inst->name = opName;
  inst->def = &d;
  inst->params = params;
  inst->attrs = attrs;
  addInput(*inst, selfName, self);
  addOutput(*inst, inplace ? "selfRef" : "out", out, inplace ? 0 : -1);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace npusim::aclnn
