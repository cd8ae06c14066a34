// aclnnCat (ops-math conversion/concat_d/docs/aclnnCat.md): out = the tensors joined along
// `dim`; all have out's rank and agree outside `dim`; their types promote to out's type.
#include <fmt/format.h>

#include "aclnnop/aclnn_cat.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnCat",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "out = cat(tensors, dim)"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnCatGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"tensors", tensors}, {"out", out}});
  if (st != kSuccess) return st;
  if (tensors->items.empty()) return fail(api, kErrParamInvalid, "tensors is empty");
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "out", out->desc.dtype, kInfo)) != kSuccess) return st;
  const size_t r = out->desc.rank();
  const int64_t d = wrapDim(dim, r);
  if (r == 0 || d < 0) {
    return fail(api, kErrParamInvalid, fmt::format("dim {} is out of range for {} dimensions", dim, r));
  }
  auto inst = std::make_unique<CopyInstance>();
  inst->name = "aclnnCat";
  aclDataType promoted = ACL_DT_UNDEFINED;
  int64_t at = 0;
  for (size_t i = 0; i < tensors->items.size(); ++i) {
    const aclTensor* t = tensors->items[i];
    const std::string name = fmt::format("tensors[{}]", i);
    if ((st = checkNotNull(api, {{name.c_str(), t}})) != kSuccess) return st;
    if ((st = checkTensor(api, name.c_str(), t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name.c_str(), t->desc.dtype, kInfo)) != kSuccess) return st;
    promoted = promoted == ACL_DT_UNDEFINED ? t->desc.dtype : promoteTypes(promoted, t->desc.dtype);
    // A 1-D empty tensor is skipped, as in torch.cat.
    if (t->desc.rank() == 1 && t->desc.numel() == 0) continue;
    std::vector<int64_t> expect = out->desc.shape;
    bool ok = t->desc.rank() == r;
    for (size_t k = 0; ok && k < r; ++k) ok = static_cast<int64_t>(k) == d || t->desc.shape[k] == expect[k];
    if (!ok) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} shape {} does not match out shape {} outside dim {}", name,
                              shapeString(t->desc.shape), shapeString(out->desc.shape), d));
    }
    const int64_t len = t->desc.shape[static_cast<size_t>(d)];
    if (at + len > out->desc.shape[static_cast<size_t>(d)]) break;
    inst->inputs.push_back(t->desc);
    inst->inputNames.push_back(name);
    inst->outputs.push_back(sliceView(out->desc, d, at, len));
    inst->outputNames.push_back("out");
    inst->outputAlias.push_back(-1);
    at += len;
  }
  if (at != out->desc.shape[static_cast<size_t>(d)]) {
    return fail(api, kErrParamInvalid,
                fmt::format("out has {} along dim {} but the tensors sum to a different length",
                            out->desc.shape[static_cast<size_t>(d)], d));
  }
  if (promoted == ACL_DT_UNDEFINED || !canCast(promoted, out->desc.dtype)) {
    return fail(api, kErrParamInvalid,
                fmt::format("the tensors' promoted type {} cannot be cast to out's type {}", dtypeName(promoted),
                            dtypeName(out->desc.dtype)));
  }
  inst->attrs = fmt::format("dim={}", dim);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(Cat)
