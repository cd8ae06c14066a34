// aclnnTransMatmulWeight (ops-math conversion/trans_data/docs/aclnnTransMatmulWeight.md): rewrites
// a 2-6 dimensional fp16/bf16/int8 matmul weight in place into the FRACTAL_NZ layout of
// weight_nz.h and marks the tensor NZ, so the *WeightNz matmuls (and aclnnMatmul) read it;
// aclnnCalculateMatmulWeightSize(V2) give the elements to allocate for it.
#include <fmt/format.h>

#include <cstring>
#include <vector>

#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/vector_tiling.h"
#include "runtime/aclnn/ops/weight_nz.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnTransMatmulWeight",
                   ExecUnit::kVector,
                   {ACL_FLOAT16, ACL_BF16, ACL_INT8},
                   "mmWeightRef = FRACTAL_NZ(mmWeightRef)"};
const OpRegistrar kRegistrar(kInfo);

constexpr size_t kMinDims = 2, kMaxDims = 6;

// inputs[0]: the dense weight (its elements in storage order); outputs[0]: the whole NZ storage.
class TransWeightInstance : public OpInstanceBase<TransWeightInstance> {
 public:
  NzLayout layout;

  rt::OpWork work() const override {
    // Every weight byte is read once and every NZ byte (padding included) written once.
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel()});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    (void)in;  // the same memory as out
    const size_t es = dtypeSize(out[0].dtype);
    std::vector<char> dense(static_cast<size_t>(layout.batch * layout.rows * layout.cols) * es);
    std::memcpy(dense.data(), out[0].data, dense.size());
    denseToNz(layout, es, dense.data(), out[0].data);
  }
};

int32_t calculateSize(const char* api, const aclIntArray* shape, aclDataType dt, uint64_t* size) {
  int32_t st = checkNotNull(api, {{"tensorShape", shape}, {"weightTensorSize", size}});
  if (st != kSuccess) return st;
  const std::vector<int64_t>& s = shape->values;
  if (s.size() < kMinDims || s.size() > kMaxDims) {
    return fail(api, kErrParamInvalid,
                fmt::format("tensorShape must have 2 to 6 dimensions, but is {}", shapeString(s)));
  }
  for (int64_t d : s) {
    if (d <= 0) return fail(api, kErrParamInvalid, fmt::format("tensorShape {} is empty", shapeString(s)));
  }
  if (!kInfo.accepts(dt)) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("dataType {} is not supported; expected one of: {}", dtypeName(dt), kInfo.dtypeList()));
  }
  NzLayout l;
  l.rows = s[s.size() - 2];
  l.cols = s[s.size() - 1];
  l.c0 = nzC0(dt);
  for (size_t i = 0; i + 2 < s.size(); ++i) l.batch *= s[i];
  *size = static_cast<uint64_t>(l.numel());
  return kSuccess;
}

int32_t buildTransWeight(aclTensor* mmWeightRef, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnTransMatmulWeightGetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"mmWeightRef", mmWeightRef}});
  if (st != kSuccess) return st;
  TensorDesc& w = mmWeightRef->desc;
  if ((st = checkTensor(api, "mmWeightRef", w, kMaxDims)) != kSuccess) return st;
  if ((st = checkDtype(api, "mmWeightRef", w.dtype, kInfo)) != kSuccess) return st;
  if (w.rank() < kMinDims) {
    return fail(api, kErrParamInvalid,
                fmt::format("mmWeightRef must have 2 to 6 dimensions, but is {}", shapeString(w.shape)));
  }
  if (w.format != ACL_FORMAT_ND) {
    return fail(api, kErrParamInvalid,
                fmt::format("mmWeightRef must be in ND format, but its format is {} (already converted?)",
                            static_cast<int>(w.format)));
  }
  if (w.numel() == 0) return fail(api, kErrParamInvalid, "mmWeightRef must not be empty");
  NzLayout l;
  const std::string why = nzLayoutOf(w, &l);
  if (!why.empty()) return fail(api, kErrParamInvalid, "mmWeightRef: " + why);

  auto inst = std::make_unique<TransWeightInstance>();
  inst->name = "aclnnTransMatmulWeight";
  inst->layout = l;
  TensorDesc dense = w;
  dense.shape = {l.batch * l.rows * l.cols};
  dense.strides = {1};
  inst->inputs = {dense};
  inst->inputNames = {"mmWeightRef"};
  inst->outputs = {nzStorageDesc(w, l)};
  inst->outputNames = {"mmWeightRef"};
  inst->outputAlias = {0};
  inst->attrs = fmt::format("nz=[{}, {}] c0={}{}", l.rows, l.cols, l.c0, l.transposed ? " transposed" : "");
  st = makeExecutor(api, std::move(inst), workspaceSize, executor);
  if (st != kSuccess) return st;
  // The descriptor now names the NZ storage; the view (shape, strides) keeps the logical weight.
  const std::vector<int64_t> batchDims(w.shape.begin(), w.shape.end() - 2);
  w.format = ACL_FORMAT_FRACTAL_NZ;
  w.storageShape = l.storageShape(batchDims);
  return kSuccess;
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" {

aclnnStatus aclnnCalculateMatmulWeightSizeV2(const aclIntArray* tensorShape, aclDataType dataType,
                                             uint64_t* weightTensorSize) {
  return npusim::aclnn::calculateSize("aclnnCalculateMatmulWeightSizeV2", tensorShape, dataType,
                                      weightTensorSize);
}

// The size for fp16/bf16 weights (the doc's first formula).
aclnnStatus aclnnCalculateMatmulWeightSize(const aclIntArray* tensorShape, uint64_t* weightTensorSize) {
  return npusim::aclnn::calculateSize("aclnnCalculateMatmulWeightSize", tensorShape, ACL_FLOAT16,
                                      weightTensorSize);
}

aclnnStatus aclnnTransMatmulWeightGetWorkspaceSize(aclTensor* mmWeightRef, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return npusim::aclnn::buildTransWeight(mmWeightRef, workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(TransMatmulWeight)
