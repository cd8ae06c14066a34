// aclnnScatterList (ops-nn index/scatter_list): writes slice b of updates into the b-th tensor
// of varRef along one axis. updates is [B, var dims...] with its axis dimension possibly
// shorter than var's; indice[b] is the start of the slice along that axis ([B]) or the pair
// (start, length) ([B, 2], only the first `length` rows of the slice are written); a mask
// entry 0 leaves var[b] untouched. As the op's kernels do: var[b][.., start + j, ..] =
// updates[b][.., j, ..]. Elements are copied as they are (var and updates share one type), so
// every documented type is exact. A slice outside var is an execution error and is skipped.
// Cost: indice, mask and the written part of updates read, as much written, one vector pass.
#include <fmt/format.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "aclnnop/aclnn_scatter_list.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/strided_loop.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

// The doc: varRef and updates INT8, INT16, INT32, UINT8, UINT16, UINT32, FLOAT16, BFLOAT16,
// FLOAT; indice INT32, INT64; mask UINT8.
const OpInfo kInfo{
    "aclnnScatterList",
    ExecUnit::kVector,
    {ACL_INT8, ACL_INT16, ACL_INT32, ACL_UINT8, ACL_UINT16, ACL_UINT32, ACL_FLOAT16, ACL_BF16, ACL_FLOAT},
    "var[b][.., indice[b] + j, ..] = updates[b][.., j, ..]"};
const OpRegistrar kRegistrar(kInfo);

// Inputs: updates, indice, [mask]; outputs: the tensors of varRef.
class ScatterListInstance : public OpInstanceBase<ScatterListInstance> {
 public:
  int64_t axis = 0;  // in updates' dimensions (1 .. rank - 1); var's axis is axis - 1
  bool pairs = false;
  bool masked = false;

  rt::OpWork work() const override {
    // The slices written: at most updates' bytes; the kernels stream them through UB once.
    VectorPass pass{&inputs, &inputs[0], inputs[0].numel(), 0};
    return vectorTiles(pass);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const HostTensor& upd = in[0];
    const std::vector<int64_t> indice = loadDense<int64_t>(in[1]);
    const std::vector<int64_t> mask = masked ? loadDense<int64_t>(in[2]) : std::vector<int64_t>();
    const int64_t es = static_cast<int64_t>(dtypeSize(upd.dtype));
    const size_t varAxis = static_cast<size_t>(axis - 1);
    for (size_t b = 0; b < out.size(); ++b) {
      if (masked && mask[b] == 0) continue;
      const HostTensor& var = out[b];
      const int64_t start = pairs ? indice[2 * b] : indice[b];
      const int64_t length = pairs ? indice[2 * b + 1] : upd.shape[static_cast<size_t>(axis)];
      if (start < 0 || length < 0 || length > upd.shape[static_cast<size_t>(axis)] ||
          start + length > var.shape[varAxis]) {
        reportExecutionError(name.c_str(),
                             fmt::format("slice {} (start {}, length {}) is outside var's {} rows "
                                         "along axis {}",
                                         b, start, length, var.shape[varAxis], axis));
        continue;
      }
      std::vector<int64_t> sliceShape = var.shape;
      sliceShape[varAxis] = length;
      std::array<std::vector<int64_t>, 2> strides;  // bytes: destination var, source updates[b]
      for (size_t d = 0; d < var.shape.size(); ++d) {
        strides[0].push_back(var.strides[d] * es);
        strides[1].push_back(upd.strides[d + 1] * es);
      }
      std::array<char*, 2> base{var.data + start * var.strides[varAxis] * es,
                                upd.data + static_cast<int64_t>(b) * upd.strides[0] * es};
      forEachRow<2>(sliceShape, strides, base,
                    [es](std::array<char*, 2> p, int64_t n, const std::array<int64_t, 2>& s) {
                      for (int64_t i = 0; i < n; ++i)
                        std::memcpy(p[0] + i * s[0], p[1] + i * s[1], static_cast<size_t>(es));
                    });
    }
  }
};

int32_t build(aclTensorList* varRef, const aclTensor* indice, const aclTensor* updates, const aclTensor* mask,
              const char* reduce, int64_t axis, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnScatterListGetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"varRef", varRef}, {"indice", indice}, {"updates", updates}});
  if (st != kSuccess) return st;
  if (varRef->items.empty()) return fail(api, kErrParamInvalid, "varRef must hold at least one tensor");
  for (size_t b = 0; b < varRef->items.size(); ++b) {
    if (varRef->items[b] == nullptr)
      return fail(api, kErrParamNullptr, fmt::format("varRef[{}] must not be nullptr", b));
  }
  if (reduce != nullptr && std::string(reduce) != "update")
    return fail(api, kErrParamInvalid, fmt::format("reduce '{}' is not supported (only \"update\")", reduce));
  if ((st = checkTensor(api, "updates", updates->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "updates", updates->desc.dtype, kInfo)) != kSuccess) return st;
  const TensorDesc& u = updates->desc;
  const int64_t count = static_cast<int64_t>(varRef->items.size());
  const std::vector<int64_t>& varShape = varRef->items[0]->desc.shape;
  for (size_t b = 0; b < varRef->items.size(); ++b) {
    const TensorDesc& v = varRef->items[b]->desc;
    const std::string name = fmt::format("varRef[{}]", b);
    if ((st = checkTensor(api, name.c_str(), v)) != kSuccess) return st;
    if (v.dtype != u.dtype)
      return fail(
          api, kErrParamInvalid,
          fmt::format("{} type {} must equal updates type {}", name, dtypeName(v.dtype), dtypeName(u.dtype)));
    if (v.shape != varShape || v.rank() < 1)
      return fail(api, kErrParamInvalid,
                  fmt::format("{} {} must have at least one dimension and varRef[0]'s shape {}", name,
                              shapeString(v.shape), shapeString(varShape)));
  }
  if ((st = checkTensor(api, "indice", indice->desc)) != kSuccess) return st;
  if (indice->desc.dtype != ACL_INT32 && indice->desc.dtype != ACL_INT64)
    return fail(api, kErrParamInvalid,
                fmt::format("indice type must be int32 or int64, not {}", dtypeName(indice->desc.dtype)));
  const int64_t rank = static_cast<int64_t>(u.rank());
  if (rank != static_cast<int64_t>(varShape.size()) + 1 || u.shape[0] != count)
    return fail(api, kErrParamInvalid,
                fmt::format("updates {} must be [{} (varRef's length), varRef's dimensions]",
                            shapeString(u.shape), count));
  const int64_t a = axis < 0 ? axis + rank : axis;
  if (a <= 0 || a >= rank)
    return fail(api, kErrParamInvalid,
                fmt::format("axis {} must name a dimension of updates {} other than the first", axis,
                            shapeString(u.shape)));
  for (int64_t d = 1; d < rank; ++d) {
    const int64_t vd = varShape[static_cast<size_t>(d - 1)], ud = u.shape[static_cast<size_t>(d)];
    if (d == a ? ud > vd : ud != vd)
      return fail(api, kErrParamInvalid,
                  fmt::format("updates {} does not fit varRef tensors {} along axis {}", shapeString(u.shape),
                              shapeString(varShape), a));
  }
  const TensorDesc& idx = indice->desc;
  const bool pairs = idx.rank() == 2;
  if (idx.rank() < 1 || idx.rank() > 2 || idx.shape[0] != count || (pairs && idx.shape[1] != 2))
    return fail(api, kErrParamInvalid,
                fmt::format("indice {} must be [{}] or [{}, 2]", shapeString(idx.shape), count, count));
  if (mask != nullptr) {
    if ((st = checkTensor(api, "maskOptional", mask->desc)) != kSuccess) return st;
    if (mask->desc.dtype != ACL_UINT8)
      return fail(api, kErrParamInvalid,
                  fmt::format("maskOptional type must be uint8, not {}", dtypeName(mask->desc.dtype)));
    if ((st = checkShape(api, "maskOptional", mask->desc.shape, {count})) != kSuccess) return st;
  }
  auto inst = std::make_unique<ScatterListInstance>();
  inst->name = kInfo.name;
  inst->axis = a;
  inst->pairs = pairs;
  inst->masked = mask != nullptr;
  addInput(*inst, "updates", updates);
  addInput(*inst, "indice", indice);
  if (mask != nullptr) addInput(*inst, "maskOptional", mask);
  for (size_t b = 0; b < varRef->items.size(); ++b) addOutput(*inst, "varRef", varRef->items[b]);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnScatterListGetWorkspaceSize(aclTensorList* varRef, const aclTensor* indice,
                                                        const aclTensor* updates,
                                                        const aclTensor* maskOptional, char* reduceOptional,
                                                        int64_t axis, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return npusim::aclnn::build(varRef, indice, updates, maskOptional, reduceOptional, axis, workspaceSize,
                              executor);
}
NPUSIM_ACLNN_PHASE2(ScatterList)
