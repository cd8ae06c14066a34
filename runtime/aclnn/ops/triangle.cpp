// Triangular parts of a batch of matrices (ops-math conversion/tril and conversion/triu,
// docs aclnnTril&aclnnInplaceTril.md, aclnnTriu&aclnnInplaceTriu.md): over the last two
// dimensions, row i and column j, Tril keeps self where j <= i + diagonal and Triu where
// j >= i + diagonal; every other element is 0. Out has self's shape and type; the in-place forms
// write selfRef. Cost: one read of self, one write of out, one select pass.
#include <fmt/format.h>

#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

// The doc's list without the complex types, which the simulator does not compute.
const std::vector<aclDataType> kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE, ACL_INT8,
                                         ACL_UINT8, ACL_INT16,   ACL_UINT16, ACL_INT32,  ACL_UINT32,
                                         ACL_INT64, ACL_UINT64,  ACL_BOOL};
const char* const kLowerPart = "out = self where col <= row + diagonal, else 0";
const char* const kUpperPart = "out = self where col >= row + diagonal, else 0";
const OpInfo kTril{"aclnnTril", ExecUnit::kVector, kTypes, kLowerPart};
const OpInfo kTriu{"aclnnTriu", ExecUnit::kVector, kTypes, kUpperPart};
const OpInfo kInplaceTril{"aclnnInplaceTril", ExecUnit::kVector, kTypes, kLowerPart};
const OpInfo kInplaceTriu{"aclnnInplaceTriu", ExecUnit::kVector, kTypes, kUpperPart};
const OpRegistrar kRegistrars[] = {OpRegistrar(kTril), OpRegistrar(kTriu), OpRegistrar(kInplaceTril),
                                   OpRegistrar(kInplaceTriu)};

class TriangleInstance : public OpInstanceBase<TriangleInstance> {
 public:
  bool lower = true;  // Tril; else Triu
  int64_t diagonal = 0;

  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), 1});
  }

  // Values go through int64 for integers and bool (exact), fp64 for floats (exact).
  template <typename T>
  void mask(const HostTensor& in, const HostTensor& out) const {
    std::vector<T> v = loadDense<T>(in);
    const size_t r = in.shape.size();
    const int64_t rows = in.shape[r - 2], cols = in.shape[r - 1];
    for (size_t k = 0; k < v.size(); ++k) {
      const int64_t j = static_cast<int64_t>(k) % cols, i = static_cast<int64_t>(k) / cols % rows;
      const bool keep = lower ? j - i <= diagonal : j - i >= diagonal;
      if (!keep) v[k] = T(0);
    }
    storeDense(out, v.data());
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (out[0].numel() == 0) return;
    if (isIntegral(in[0].dtype, true))
      mask<int64_t>(in[0], out[0]);
    else
      mask<double>(in[0], out[0]);
  }
};

int32_t buildTriangle(const OpInfo& info, bool lower, const aclTensor* self, int64_t diagonal,
                      const aclTensor* out, bool inplace, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const std::string api = info.name + "GetWorkspaceSize";
  const char* selfName = inplace ? "selfRef" : "self";
  rt::chargeOpPrepare(api.c_str());
  int32_t st = checkNotNull(api.c_str(), {{selfName, self}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api.c_str(), selfName, self->desc)) != kSuccess) return st;
  if ((st = checkTensor(api.c_str(), "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api.c_str(), selfName, self->desc.dtype, info)) != kSuccess) return st;
  const size_t r = self->desc.rank();
  if (r < 2 || r > 8) {
    return fail(api.c_str(), kErrParamInvalid,
                fmt::format("{} must have 2 to 8 dimensions, not {}", selfName, r));
  }
  if (out->desc.dtype != self->desc.dtype) {
    return fail(api.c_str(), kErrParamInvalid,
                fmt::format("out type {} must equal self type {}", dtypeName(out->desc.dtype),
                            dtypeName(self->desc.dtype)));
  }
  if ((st = checkShape(api.c_str(), "out", out->desc.shape, self->desc.shape)) != kSuccess) return st;
  auto inst = std::make_unique<TriangleInstance>();
  inst->name = info.name;
  inst->lower = lower;
  inst->diagonal = diagonal;
  addInput(*inst, selfName, self);
  addOutput(*inst, inplace ? "selfRef" : "out", out, inplace ? 0 : -1);
  inst->attrs = fmt::format("diagonal={}", diagonal);
  return makeExecutor(api.c_str(), std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::buildTriangle;

extern "C" aclnnStatus aclnnTrilGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildTriangle(npusim::aclnn::kTril, true, self, diagonal, out, false, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Tril)

extern "C" aclnnStatus aclnnInplaceTrilGetWorkspaceSize(const aclTensor* selfRef, int64_t diagonal,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildTriangle(npusim::aclnn::kInplaceTril, true, selfRef, diagonal, selfRef, true, workspaceSize,
                       executor);
}
NPUSIM_ACLNN_PHASE2(InplaceTril)

extern "C" aclnnStatus aclnnTriuGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildTriangle(npusim::aclnn::kTriu, false, self, diagonal, out, false, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Triu)

extern "C" aclnnStatus aclnnInplaceTriuGetWorkspaceSize(aclTensor* selfRef, int64_t diagonal,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildTriangle(npusim::aclnn::kInplaceTriu, false, selfRef, diagonal, selfRef, true, workspaceSize,
                       executor);
}
NPUSIM_ACLNN_PHASE2(InplaceTriu)
