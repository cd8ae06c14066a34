// aclnnExpandIntoJaggedPermute (ops-nn index/expand_into_jagged_permute): expands a permutation
// of tables into one of their elements: segment i of the output, [outputOffset[i],
// outputOffset[i+1]), holds inputOffset[permute[i]], inputOffset[permute[i]] + 1, ... The
// offsets are data, read when the operator runs; positions a segment would put outside the
// output are skipped. Cost: the three inputs read, the output written, one vector pass.
#include <fmt/format.h>

#include "aclnnop/aclnn_expand_into_jagged_permute.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

// aclnnExpandIntoJaggedPermute.md: permute INT32; offsets and output INT32, INT64.
const OpInfo kInfo{"aclnnExpandIntoJaggedPermute",
                   ExecUnit::kVector,
                   {ACL_INT32, ACL_INT64},
                   "out[outputOffset[i] + t] = inputOffset[permute[i]] + t"};
const OpRegistrar kRegistrar(kInfo);

class JaggedPermuteInstance : public OpInstanceBase<JaggedPermuteInstance> {
 public:
  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), 0});
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<int64_t> perm = loadDense<int64_t>(in[0]), inOff = loadDense<int64_t>(in[1]),
                               outOff = loadDense<int64_t>(in[2]);
    std::vector<int64_t> y(static_cast<size_t>(out[0].numel()), 0);
    const auto total = static_cast<int64_t>(y.size());
    for (size_t i = 0; i < perm.size() && i + 1 < outOff.size(); ++i) {
      const int64_t p = perm[i];
      if (p < 0 || static_cast<size_t>(p) >= inOff.size()) continue;
      for (int64_t j = outOff[i]; j < outOff[i + 1]; ++j) {
        if (j >= 0 && j < total) y[static_cast<size_t>(j)] = inOff[static_cast<size_t>(p)] + (j - outOff[i]);
      }
    }
    storeDense(out[0], y.data());
  }
};

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnExpandIntoJaggedPermuteGetWorkspaceSize(
    const aclTensor* permute, const aclTensor* inputOffset, const aclTensor* outputOffset, int64_t outputSize,
    const aclTensor* outputPermuteOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnExpandIntoJaggedPermuteGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"permute", permute},
                                  {"inputOffset", inputOffset},
                                  {"outputOffset", outputOffset},
                                  {"outputPermuteOut", outputPermuteOut}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"permute", permute},
                         {"inputOffset", inputOffset},
                         {"outputOffset", outputOffset},
                         {"outputPermuteOut", outputPermuteOut}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kInfo)) != kSuccess) return st;
    if (t->desc.rank() != 1) return fail(api, kErrParamInvalid, fmt::format("{} must be 1-D", name));
  }
  if (permute->desc.dtype != ACL_INT32)
    return fail(api, kErrParamInvalid,
                fmt::format("permute type must be int32, not {}", dtypeName(permute->desc.dtype)));
  const int64_t n = permute->desc.numel();
  if (inputOffset->desc.numel() != n + 1 || outputOffset->desc.numel() != n + 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("inputOffset and outputOffset need {} values (permute's {} + 1)", n + 1, n));
  }
  if (outputPermuteOut->desc.numel() != outputSize) {
    return fail(api, kErrParamInvalid,
                fmt::format("outputPermuteOut has {} elements, outputSize is {}",
                            outputPermuteOut->desc.numel(), outputSize));
  }
  auto inst = std::make_unique<JaggedPermuteInstance>();
  inst->name = "aclnnExpandIntoJaggedPermute";
  addInput(*inst, "permute", permute);
  addInput(*inst, "inputOffset", inputOffset);
  addInput(*inst, "outputOffset", outputOffset);
  addOutput(*inst, "outputPermuteOut", outputPermuteOut);
  inst->attrs = fmt::format("outputSize={}", outputSize);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ExpandIntoJaggedPermute)
