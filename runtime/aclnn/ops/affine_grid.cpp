// aclnnAffineGrid (ops-math math/affine_grid, issue 28): the sampling grid of an affine transform,
// as torch.nn.functional.affine_grid. 2-D: theta [N, 2, 3], size (N, C, H, W), out [N, H, W, 2];
// 3-D: theta [N, 3, 4], size (N, C, D, H, W), out [N, D, H, W, 3]. Each output point is theta times
// (x, y[, z], 1), the base coordinates spanning [-1, 1]: k·2/(L − 1) − 1 with alignCorners (0 for
// L = 1), (2k + 1)/L − 1 without. Types fp32, fp16, bf16 (out of theta's). Computed in fp64,
// rounded once. Cost: theta read, out written, one multiply-add pass per coordinate.
#include <fmt/format.h>

#include <vector>

#include "aclnnop/aclnn_affine_grid.h"
#include "runtime/aclnn/base/arrays.h"
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

double base(int64_t k, int64_t len, bool alignCorners) {
  if (alignCorners) return len == 1 ? 0.0 : static_cast<double>(k) * 2 / static_cast<double>(len - 1) - 1;
  return (2.0 * static_cast<double>(k) + 1) / static_cast<double>(len) - 1;
}

class AffineGridInstance : public OpInstanceBase<AffineGridInstance> {
 public:
  bool alignCorners = false;
  std::vector<int64_t> spatial;  // (H, W) or (D, H, W)

  rt::OpWork work() const override {
    return vectorTiles(
        VectorPass{&inputs, &outputs[0], outputs[0].numel(), static_cast<int>(spatial.size())});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const int64_t dims = static_cast<int64_t>(spatial.size()), cols = dims + 1;
    const int64_t n = in[0].shape[0];
    int64_t points = 1;
    for (int64_t s : spatial) points *= s;
    if (n * points == 0) return;
    const std::vector<double> theta = loadWide(in[0], in[0].shape);
    std::vector<double> r(static_cast<size_t>(n * points * dims));
    std::vector<double> coord(static_cast<size_t>(cols), 1.0);
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t p = 0; p < points; ++p) {
        // coord = (x, y[, z], 1): x runs along the last spatial dim (W), then y (H), then z (D).
        int64_t rest = p;
        for (int64_t d = dims; d-- > 0;) {
          const int64_t len = spatial[static_cast<size_t>(d)];
          coord[static_cast<size_t>(dims - 1 - d)] = base(rest % len, len, alignCorners);
          rest /= len;
        }
        for (int64_t row = 0; row < dims; ++row) {
          double s = 0;
          for (int64_t c = 0; c < cols; ++c)
            s += theta[static_cast<size_t>((b * dims + row) * cols + c)] * coord[static_cast<size_t>(c)];
          r[static_cast<size_t>((b * points + p) * dims + row)] = s;
        }
      }
    }
    storeRounded(out[0], r);
  }
};

const OpInfo kAffineGrid{"aclnnAffineGrid",
                         ExecUnit::kVector,
                         {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                         "out[n, ..., :] = theta[n] · (x, y[, z], 1)"};
const OpRegistrar kRegistrar(kAffineGrid);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnAffineGridGetWorkspaceSize(const aclTensor* theta, const aclIntArray* size,
                                                       bool alignCorners, aclTensor* out, uint64_t* ws,
                                                       aclOpExecutor** ex) {
  using namespace npusim::aclnn;
  const char* api = "aclnnAffineGridGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"theta", theta}, {"size", size}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "theta", theta->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "theta", theta->desc.dtype, kAffineGrid)) != kSuccess) return st;
  if (out->desc.dtype != theta->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("out of type {} must have theta's type", dtypeName(out->desc.dtype)));
  }
  const std::vector<int64_t>& s = size->values;
  if (s.size() != 4 && s.size() != 5) {
    return fail(api, kErrParamInvalid,
                fmt::format("size holds {} values, not 4 (N, C, H, W) or 5", s.size()));
  }
  const int64_t dims = static_cast<int64_t>(s.size()) - 2;
  const std::vector<int64_t> wantTheta = {s[0], dims, dims + 1};
  if ((st = checkShape(api, "theta", theta->desc.shape, wantTheta)) != kSuccess) return st;
  std::vector<int64_t> wantOut = {s[0]};
  wantOut.insert(wantOut.end(), s.begin() + 2, s.end());
  wantOut.push_back(dims);
  if ((st = checkShape(api, "out", out->desc.shape, wantOut)) != kSuccess) return st;
  auto inst = std::make_unique<AffineGridInstance>();
  inst->name = "aclnnAffineGrid";
  inst->alignCorners = alignCorners;
  inst->spatial.assign(s.begin() + 2, s.end());
  inst->attrs = fmt::format("size=({}), alignCorners={}", fmt::join(s, ", "), alignCorners);
  addInput(*inst, "theta", theta);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(AffineGrid)
