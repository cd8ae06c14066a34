// aclnnExpSegsumBackward (ops-math math/exp_segsum_grad, issue 28): the gradient of aclnnExpSegsum,
// following the nine steps of its doc on each [L, L] matrix of the last two dims: m = gradOutput ·
// gradSelf kept below the diagonal (j < i), flipped along rows, cumulated along rows, flipped back,
// kept below the diagonal again and summed along the last dim. Written out, that is
//   gradInput[i] = sum over j < i of sum over r >= i of m[r][j]   (m[r][j] = 0 unless j < r).
// gradOutput and gradSelf 4-D or 5-D, of one shape [..., L, L] and type (fp32, fp16, bf16);
// gradInput drops the last dim. Computed in fp64 and rounded once. Cost: both inputs read,
// gradInput written, 6 vector passes (multiply, two masks, two flips folded in, cumsum, sum).
#include <fmt/format.h>

#include <vector>

#include "aclnnop/aclnn_exp_segsum_backward.h"
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

class ExpSegsumBackwardInstance : public OpInstanceBase<ExpSegsumBackwardInstance> {
 public:
  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], inputs[0].numel(), 5});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const int64_t n = in[0].numel();
    if (n == 0) return;
    const int64_t L = in[0].shape.back(), mats = n / (L * L);
    const std::vector<double> go = loadWide(in[0], in[0].shape), gs = loadWide(in[1], in[1].shape);
    std::vector<double> r(static_cast<size_t>(mats * L), 0.0);
    std::vector<double> below(static_cast<size_t>(L));  // column sums of m over rows r >= i
    for (int64_t b = 0; b < mats; ++b) {
      const auto m = [&](int64_t row, int64_t col) {
        const size_t k = static_cast<size_t>((b * L + row) * L + col);
        return col < row ? go[k] * gs[k] : 0.0;
      };
      std::fill(below.begin(), below.end(), 0.0);
      for (int64_t i = L; i-- > 0;) {  // rows from the last: below[j] = sum_{r >= i} m[r][j]
        double s = 0;
        for (int64_t j = 0; j < L; ++j) {
          below[static_cast<size_t>(j)] += m(i, j);
          if (j < i) s += below[static_cast<size_t>(j)];
        }
        r[static_cast<size_t>(b * L + i)] = s;
      }
    }
    storeRounded(out[0], r);
  }
};

const OpInfo kExpSegsumBackward{"aclnnExpSegsumBackward",
                                ExecUnit::kVector,
                                {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                                "gradInput[i] = sum_{j < i} sum_{r >= i} (gradOutput · gradSelf)[r][j]"};
const OpRegistrar kRegistrar(kExpSegsumBackward);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnExpSegsumBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                              const aclTensor* gradSelf, aclTensor* gradInput,
                                                              uint64_t* ws, aclOpExecutor** ex) {
  using namespace npusim::aclnn;
  const char* api = "aclnnExpSegsumBackwardGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st =
      checkNotNull(api, {{"gradOutput", gradOutput}, {"gradSelf", gradSelf}, {"gradInput", gradInput}});
  if (st != kSuccess) return st;
  for (auto [name, t] :
       {std::pair{"gradOutput", gradOutput}, {"gradSelf", gradSelf}, {"gradInput", gradInput}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kExpSegsumBackward)) != kSuccess) return st;
    if (t->desc.dtype != gradOutput->desc.dtype) {
      return fail(api, kErrParamInvalid, fmt::format("{} must have gradOutput's type", name));
    }
  }
  const auto& s = gradOutput->desc.shape;
  if ((s.size() != 4 && s.size() != 5) || s[s.size() - 1] != s[s.size() - 2]) {
    return fail(api, kErrParamInvalid,
                fmt::format("gradOutput {} must be 4-D or 5-D with square last dims", shapeString(s)));
  }
  if ((st = checkShape(api, "gradSelf", gradSelf->desc.shape, s)) != kSuccess) return st;
  if ((st = checkShape(api, "gradInput", gradInput->desc.shape,
                       std::vector<int64_t>(s.begin(), s.end() - 1))) != kSuccess)
    return st;
  auto inst = std::make_unique<ExpSegsumBackwardInstance>();
  inst->name = "aclnnExpSegsumBackward";
  addInput(*inst, "gradOutput", gradOutput);
  addInput(*inst, "gradSelf", gradSelf);
  addOutput(*inst, "gradInput", gradInput);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(ExpSegsumBackward)
