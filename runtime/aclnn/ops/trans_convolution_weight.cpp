// aclnnCalculateConvolutionWeightSize and aclnnTransConvolutionWeight (ops-math
// conversion/trans_data/docs). The size is a host computation: the element count of the
// weight in the cube's FRACTAL_Z layout. The transform itself is documented for Atlas
// inference products only (not Atlas A2, the simulated part), so it is refused with 161002.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "aclnnop/aclnn_trans_convolution_weight.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"

namespace {

int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

}  // namespace

extern "C" {

aclnnStatus aclnnCalculateConvolutionWeightSize(const aclIntArray* tensorShape, bool transposed,
                                                int64_t groups, aclDataType dataType,
                                                uint64_t* weightTensorSize) {
  namespace a = npusim::aclnn;
  const char* api = "aclnnCalculateConvolutionWeightSize";
  int32_t st = a::checkNotNull(api, {{"tensorShape", tensorShape}, {"weightTensorSize", weightTensorSize}});
  if (st != a::kSuccess) return st;
  const std::vector<int64_t>& s = tensorShape->values;
  if (s.size() != 4 || std::any_of(s.begin(), s.end(), [](int64_t v) { return v < 0; })) {
    return a::fail(
        api, a::kErrParamInvalid,
        fmt::format("tensorShape must be a 4-D NCHW shape with sizes >= 0, but is {}", a::shapeString(s)));
  }
  if (transposed)
    return a::fail(api, a::kErrParamInvalid, "transposed must be false (forward 2-D convolution only)");
  if (groups < 1 || groups > 65535) {
    return a::fail(api, a::kErrParamInvalid, fmt::format("groups must be in [1, 65535], but is {}", groups));
  }
  if (dataType != ACL_FLOAT16) return a::fail(api, a::kErrParamInvalid, "dataType must be ACL_FLOAT16");
  if (s[0] % groups != 0) {
    return a::fail(api, a::kErrParamInvalid,
                   fmt::format("the output channels {} must be a multiple of groups {}", s[0], groups));
  }
  if (s[0] * s[1] * s[2] * s[3] == 0) {
    *weightTensorSize = 0;
    return a::kSuccess;
  }
  // FRACTAL_Z of fp16 weight [Cout, Cin/g, kh, kw]: channels in 16-wide cube blocks. Groups are
  // packed `e` at a time into one block column when their channels are narrower than a block
  // (e = the fewest groups that fill whole blocks on both sides, at most groups), giving
  // ceil(groups / e) x round16(e x Cin/g) x kh x kw x round16(e x Cout/g) elements. The
  // documented example, [2, 4, 8, 8] -> [64, 1, 16, 16], is 16384.
  const int64_t cout = s[0] / groups, cin = s[1], k = s[2] * s[3];
  auto blocks = [](int64_t c) { return std::lcm(c, int64_t{16}) / c; };
  const int64_t e = std::min(std::lcm(blocks(cin), blocks(cout)), groups);
  const int64_t packs = (groups + e - 1) / e;
  *weightTensorSize = static_cast<uint64_t>(packs * roundUp(e * cin, 16) * k * roundUp(e * cout, 16));
  return a::kSuccess;
}

aclnnStatus aclnnTransConvolutionWeightGetWorkspaceSize(const aclTensor* weightIn, bool transposed,
                                                        const int64_t groups, aclTensor* weightOut,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  namespace a = npusim::aclnn;
  const char* api = "aclnnTransConvolutionWeightGetWorkspaceSize";
  int32_t st = a::checkNotNull(api, {{"weightIn", weightIn}, {"weightOut", weightOut}});
  if (st != a::kSuccess) return st;
  (void)transposed, (void)groups, (void)workspaceSize, (void)executor;
  return a::fail(api, a::kErrParamInvalid,
                 "aclnnTransConvolutionWeight is documented for Atlas inference products only; the simulated "
                 "Atlas A2 (910B) does not support it: pass the NCHW weight to aclnnConvolution");
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(TransConvolutionWeight)
