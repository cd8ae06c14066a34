// aclnnLinalgCross (ops-math math/cross, experimental/math/cross; issue 28): the cross product of
// self and other (broadcast) along dim, which must have length 3: out = (y1 z2 - y2 z1,
// z1 x2 - z2 x1, x1 y2 - x2 y1). One type for self, other and out (its doc's list). Computed in
// fp64 and rounded once (fp32 for the 16-bit types); integers wrap when stored. Cost: both
// operands read, out written, four vector passes (two products, a difference, for 3 components).
#include <fmt/format.h>

#include <vector>

#include "aclnnop/aclnn_linalg_cross.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

class CrossInstance : public OpInstanceBase<CrossInstance> {
 public:
  int64_t dim = 0;

  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), 3});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const HostTensor& o = out[0];
    const int64_t n = o.numel();
    if (n == 0) return;
    const std::vector<double> a = loadWide(in[0], o.shape), b = loadWide(in[1], o.shape);
    std::vector<double> r(a.size());
    int64_t inner = 1;
    for (size_t d = static_cast<size_t>(dim) + 1; d < o.shape.size(); ++d) inner *= o.shape[d];
    const int64_t outer = n / (3 * inner);
    for (int64_t p = 0; p < outer; ++p) {
      for (int64_t q = 0; q < inner; ++q) {
        const auto at = [&](int64_t c) { return static_cast<size_t>((p * 3 + c) * inner + q); };
        for (int64_t c = 0; c < 3; ++c) {
          const size_t i = at(c), j = at((c + 1) % 3), k = at((c + 2) % 3);
          r[i] = a[j] * b[k] - a[k] * b[j];
        }
      }
    }
    storeRounded(o, r);
  }
};

const OpInfo kLinalgCross{
    "aclnnLinalgCross",
    ExecUnit::kVector,
    {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_DOUBLE},
    "out = self x other along dim (length 3)"};
const OpRegistrar kRegistrar(kLinalgCross);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnLinalgCrossGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                                        int64_t dim, aclTensor* out, uint64_t* ws,
                                                        aclOpExecutor** ex) {
  using namespace npusim::aclnn;
  const char* api = "aclnnLinalgCrossGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"other", other}, {"out", out}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"self", self}, {"other", other}, {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kLinalgCross)) != kSuccess) return st;
    if (t->desc.dtype != self->desc.dtype) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} of type {} must have self's type {}", name, dtypeName(t->desc.dtype),
                              dtypeName(self->desc.dtype)));
    }
  }
  std::vector<int64_t> shape;
  if (!broadcastShapes(self->desc.shape, other->desc.shape, &shape)) {
    return fail(api, kErrParamInvalid,
                fmt::format("self shape {} and other shape {} are not broadcastable",
                            shapeString(self->desc.shape), shapeString(other->desc.shape)));
  }
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (rank == 0 || dim < -rank || dim >= rank) {
    return fail(api, kErrParamInvalid, fmt::format("dim {} is out of range for rank {}", dim, rank));
  }
  const int64_t d = dim < 0 ? dim + rank : dim;
  if (shape[static_cast<size_t>(d)] != 3) {
    return fail(api, kErrParamInvalid,
                fmt::format("the broadcast shape {} has length {} along dim {}, not 3", shapeString(shape),
                            shape[static_cast<size_t>(d)], dim));
  }
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  auto inst = std::make_unique<CrossInstance>();
  inst->name = "aclnnLinalgCross";
  inst->dim = d;
  inst->attrs = fmt::format("dim={}", dim);
  addInput(*inst, "self", self);
  addInput(*inst, "other", other);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(LinalgCross)
