// Elementwise gathers on the gather engine (index_op.h): aclnnGatherElementsV3 (ops-nn
// experimental/index/gather_elements_v3: torch.gather along dim with the op definition's types)
// and aclnnMaxUnpool2dBackward / aclnnMaxUnpool3dBackward (ops-nn index/gather_elements):
// out[lead, i] = gradOutput[lead, indices[lead, i]], the spatial dimensions of each flattened
// (lead: (N, C) or (C) for 2d; (N, C) or (N) for 3d); aclnnGatherV2 / aclnnGatherV3 (ops-nn
// index/gather_v2: whole slices along dim picked by an index tensor of any shape, negative
// indices counting from the end) and aclnnTake (self flattened, out of index's shape).
#include <fmt/format.h>

#include "aclnnop/aclnn_gather_elements_v3.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_gather_v3.h"
#include "aclnnop/aclnn_max_unpool2d_backward.h"
#include "aclnnop/aclnn_max_unpool3d_backward.h"
#include "aclnnop/aclnn_take.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/index_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnGatherElementsV3",
                   ExecUnit::kVector,
                   {ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_INT32},
                   "y[p] = x[p with p[dim] = index[p]]"};
const OpRegistrar kRegistrar(kInfo);
// aclnnMaxUnpool2dBackward.md: out FLOAT, FLOAT16, INT32, INT64, INT16, INT8, UINT8, BOOL.
const std::vector<aclDataType> kUnpoolTypes{ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT64,
                                            ACL_INT16, ACL_INT8,    ACL_UINT8, ACL_BOOL};
const OpInfo kUnpool2d{"aclnnMaxUnpool2dBackward", ExecUnit::kVector, kUnpoolTypes,
                       "out[lead, i] = gradOutput[lead, indices[lead, i]] over H*W"};
const OpRegistrar kUnpool2dRegistrar(kUnpool2d);
const OpInfo kUnpool3d{"aclnnMaxUnpool3dBackward", ExecUnit::kVector, kUnpoolTypes,
                       "out[lead, i] = gradOutput[lead, indices[lead, i]] over D*H*W"};
const OpRegistrar kUnpool3dRegistrar(kUnpool3d);

const std::vector<aclDataType> kGatherTypes{ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                            ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL};
const OpInfo kGatherV2{"aclnnGatherV2", ExecUnit::kVector, kGatherTypes,
                       "out = self[..., index, ...] (index's shape in place of dim)"};
const OpRegistrar kGatherV2Registrar(kGatherV2);
const OpInfo kGatherV3{"aclnnGatherV3", ExecUnit::kVector, kGatherTypes,
                       "GatherV2 with batchDims (0 only) and a kernel mode"};
const OpRegistrar kGatherV3Registrar(kGatherV3);
const OpInfo kTake{"aclnnTake", ExecUnit::kVector, kGatherTypes, "out = self.flatten()[index]"};
const OpRegistrar kTakeRegistrar(kTake);

// out = self with dimension d replaced by index's shape; index values pick slices along d.
int32_t gatherSlices(const char* api, const OpInfo& info, const aclTensor* self, int64_t dim,
                     const aclTensor* index, const aclTensor* out, uint64_t* workspaceSize,
                     aclOpExecutor** executor) {
  int64_t d = 0;
  int32_t st = checkIndexArgsAlongDim(api, info, self, index, out, dim, &d);
  if (st != kSuccess) return st;
  std::vector<int64_t> shape(self->desc.shape.begin(),
                             self->desc.shape.begin() + (self->desc.rank() == 0 ? 0 : d));
  shape.insert(shape.end(), index->desc.shape.begin(), index->desc.shape.end());
  if (self->desc.rank() > 0)
    shape.insert(shape.end(), self->desc.shape.begin() + d + 1, self->desc.shape.end());
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  auto inst = makeIndexInstance(info.name, d, "self", self, "index", index, "out", out);
  inst->wrapNegative = true;
  inst->attrs = fmt::format("dim={}", dim);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

// gradOutput [lead, spatial...], self/indices/out [lead, spatial'...]: the gather of out's
// flattened spatial positions from gradOutput's, by indices.
int32_t unpoolBackward(const char* api, const OpInfo& info, size_t spatial, const aclTensor* gradOutput,
                       const aclTensor* self, const aclTensor* indices, const aclIntArray* outputSize,
                       const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"outputSize", outputSize}});
  if (st != kSuccess ||
      (st = checkIndexArgs(api, info, "gradOutput", gradOutput, "indices", indices, out)) != kSuccess)
    return st;
  if ((st = checkTensor(api, "self", self->desc)) != kSuccess) return st;
  if (self->desc.dtype != gradOutput->desc.dtype)
    return fail(api, kErrParamInvalid,
                fmt::format("self type must equal gradOutput type {}", dtypeName(gradOutput->desc.dtype)));
  const std::vector<int64_t> s = self->desc.shape, g = gradOutput->desc.shape;
  if (s.size() != spatial + 1 && s.size() != spatial + 2)
    return fail(api, kErrParamInvalid,
                fmt::format("self must have {} or {} dimensions", spatial + 1, spatial + 2));
  if ((st = checkShape(api, "indices", indices->desc.shape, s)) != kSuccess) return st;
  if ((st = checkShape(api, "out", out->desc.shape, s)) != kSuccess) return st;
  const size_t lead = s.size() - spatial;
  std::vector<int64_t> want(s.begin(), s.begin() + static_cast<int64_t>(lead));
  if (outputSize->values.size() != spatial)
    return fail(api, kErrParamInvalid, fmt::format("outputSize must have {} values", spatial));
  want.insert(want.end(), outputSize->values.begin(), outputSize->values.end());
  if ((st = checkShape(api, "gradOutput", g, want)) != kSuccess) return st;
  if (!gradOutput->desc.isContiguous() || !indices->desc.isContiguous())
    return fail(api, kErrParamInvalid, "gradOutput and indices must be contiguous");
  const int64_t rows = dimProduct(s, 0, lead);
  auto inst = makeIndexInstance(info.name, 1, "gradOutput", gradOutput, "indices", indices, "out", out);
  inst->elementwise = true;
  // Gathered as [rows, spatial elements] (out viewed the same way when contiguous).
  inst->inputs[0].shape = {rows, dimProduct(g, lead, g.size())};
  inst->inputs[0].strides = contiguousStrides(inst->inputs[0].shape);
  inst->inputs[1].shape = {rows, dimProduct(s, lead, s.size())};
  inst->inputs[1].strides = contiguousStrides(inst->inputs[1].shape);
  if (!out->desc.isContiguous()) return fail(api, kErrParamInvalid, "out must be contiguous");
  inst->outputs[0].shape = inst->inputs[1].shape;
  inst->outputs[0].strides = inst->inputs[1].strides;
  inst->attrs = fmt::format("outputSize={}", shapeString(outputSize->values));
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnGatherElementsV3GetWorkspaceSize(const aclTensor* x, const aclTensor* index,
                                                             int64_t dim, const aclTensor* y,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnGatherElementsV3GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int64_t d = 0;
  int32_t st = checkIndexArgsAlongDim(api, kInfo, x, index, y, dim, &d);
  if (st != kSuccess) return st;
  const size_t rank = x->desc.rank();
  bool ok = index->desc.rank() == rank;
  for (size_t a = 0; ok && a < rank; ++a)
    ok = static_cast<int64_t>(a) == d || index->desc.shape[a] <= x->desc.shape[a];
  if (!ok) {
    return fail(api, kErrParamInvalid,
                fmt::format("index shape {} must have x's rank and fit in x shape {} outside dim {}",
                            shapeString(index->desc.shape), shapeString(x->desc.shape), d));
  }
  if ((st = checkShape(api, "y", y->desc.shape, index->desc.shape)) != kSuccess) return st;
  auto inst = makeIndexInstance("aclnnGatherElementsV3", d, "x", x, "index", index, "y", y);
  inst->elementwise = true;
  inst->attrs = fmt::format("dim={}", dim);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(GatherElementsV3)

extern "C" aclnnStatus aclnnMaxUnpool2dBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* indices,
    const aclIntArray* outputSize, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  return unpoolBackward("aclnnMaxUnpool2dBackwardGetWorkspaceSize", kUnpool2d, 2, gradOutput, self, indices,
                        outputSize, out, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(MaxUnpool2dBackward)

// stride and padding locate the forward's windows; the gradient is the same gather whatever
// they are (they are checked for 3 values only).
extern "C" aclnnStatus aclnnMaxUnpool3dBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* indices,
    const aclIntArray* outputSize, const aclIntArray* stride, const aclIntArray* padding, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnMaxUnpool3dBackwardGetWorkspaceSize";
  const int32_t st = checkNotNull(api, {{"stride", stride}, {"padding", padding}});
  if (st != kSuccess) return st;
  if (stride->values.size() != 3 || padding->values.size() != 3)
    return fail(api, kErrParamInvalid, "stride and padding must have 3 values");
  return unpoolBackward(api, kUnpool3d, 3, gradOutput, self, indices, outputSize, out, workspaceSize,
                        executor);
}
NPUSIM_ACLNN_PHASE2(MaxUnpool3dBackward)

extern "C" aclnnStatus aclnnGatherV2GetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                     const aclTensor* index, aclTensor* out,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnGatherV2GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  return gatherSlices(api, kGatherV2, self, dim, index, out, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(GatherV2)

// mode picks the device kernel; batchDims other than 0 (a batched gather) is not supported.
extern "C" aclnnStatus aclnnGatherV3GetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                     const aclTensor* index, int64_t batchDims, int64_t mode,
                                                     aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnGatherV3GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  if (batchDims != 0)
    return fail(api, kErrParamInvalid, fmt::format("batchDims {} is not supported (only 0)", batchDims));
  (void)mode;
  return gatherSlices(api, kGatherV3, self, dim, index, out, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(GatherV3)

extern "C" aclnnStatus aclnnTakeGetWorkspaceSize(const aclTensor* self, const aclTensor* index,
                                                 aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnTakeGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkIndexArgs(api, kTake, "self", self, "index", index, out);
  if (st != kSuccess) return st;
  if ((st = checkShape(api, "out", out->desc.shape, index->desc.shape)) != kSuccess) return st;
  if (!self->desc.isContiguous()) return fail(api, kErrParamInvalid, "self must be contiguous");
  auto inst = makeIndexInstance("aclnnTake", 0, "self", self, "index", index, "out", out);
  inst->wrapNegative = true;
  inst->inputs[0].shape = {self->desc.numel()};  // the flattened self
  inst->inputs[0].strides = {1};
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Take)
