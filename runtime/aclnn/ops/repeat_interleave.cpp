// torch.repeat_interleave and its gradient (ops-nn index/repeat_interleave, repeat_interleave_grad):
// element i along `dim` is repeated repeats[i] times (one repeats value: every element), with
// no dim over the flattened self; RepeatInterleaveTensor repeats the indices 0..n-1 themselves;
// RepeatInterleaveGrad sums each block of yGrad back. The repeats tensor is data, read when the
// operator runs: a total that does not match out's extent fills what fits (the device's
// behaviour there is not documented). Cost: self (or yGrad) and repeats read once, out written.
#include <fmt/format.h>

#include "aclnnop/aclnn_repeat_interleave.h"
#include "aclnnop/aclnn_repeat_interleave_grad.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kTypes{ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                      ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL};
#define NPUSIM_RI_INFO(Name, types, formula)                              \
  const OpInfo k##Name{"aclnn" #Name, ExecUnit::kVector, types, formula}; \
  const OpRegistrar k##Name##Registrar(k##Name);
NPUSIM_RI_INFO(RepeatInterleave, kTypes, "out = self (flattened) with element i repeated repeats[i] times")
NPUSIM_RI_INFO(RepeatInterleaveWithDim, kTypes, "out = self with slice i along dim repeated repeats[i] times")
NPUSIM_RI_INFO(RepeatInterleaveInt, kTypes,
               "out = self (flattened) with every element repeated repeats times")
NPUSIM_RI_INFO(RepeatInterleaveIntWithDim, kTypes,
               "out = self with every slice along dim repeated repeats times")
NPUSIM_RI_INFO(RepeatInterleaveTensor, std::vector<aclDataType>({ACL_INT32, ACL_INT64}),
               "out = i repeated repeats[i] times, i = 0..n-1")
NPUSIM_RI_INFO(RepeatInterleaveGrad, std::vector<aclDataType>({ACL_FLOAT, ACL_FLOAT16, ACL_BF16}),
               "out[.., i, ..] = sum of the repeats[i] slices of yGrad along axis that slice i became")
#undef NPUSIM_RI_INFO

class RepeatInterleaveInstance : public OpInstanceBase<RepeatInterleaveInstance> {
 public:
  std::vector<int64_t> shape;  // self viewed as [outer, n, inner] along dim
  int repeatsInput = -1;       // -1: `count` for every element
  int64_t count = 1;
  bool indicesOnly = false;  // RepeatInterleaveTensor: the values are the indices
  bool gradient = false;     // RepeatInterleaveGrad: blocks summed back

  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], std::max(outputs[0].numel(), inputs[0].numel()), 0});
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (out[0].numel() == 0) return;
    if (isIntegral(out[0].dtype, true))
      run<int64_t>(in, out[0]);
    else
      run<double>(in, out[0]);
  }

 private:
  template <typename T>
  void run(const std::vector<HostTensor>& in, const HostTensor& out) const {
    const int64_t outer = shape[0], n = shape[1], inner = shape[2];
    std::vector<int64_t> reps(static_cast<size_t>(n), count);
    if (repeatsInput >= 0) {
      const std::vector<int64_t> r = loadDense<int64_t>(in[static_cast<size_t>(repeatsInput)]);
      for (int64_t i = 0; i < n; ++i)
        reps[static_cast<size_t>(i)] = std::max<int64_t>(0, r.size() == 1 ? r[0] : r[static_cast<size_t>(i)]);
    }
    const std::vector<T> x = indicesOnly ? std::vector<T>() : loadDense<T>(in[0]);
    // Extent along dim of the repeated tensor: out's, or yGrad's for the gradient.
    const int64_t total = (gradient ? in[0].numel() : out.numel()) / std::max<int64_t>(outer * inner, 1);
    std::vector<T> y(static_cast<size_t>(out.numel()), T(0));
    for (int64_t o = 0; o < outer; ++o) {
      int64_t j = 0;  // position along dim in the repeated tensor
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t r = 0; r < reps[static_cast<size_t>(i)]; ++r, ++j) {
          if (gradient) {  // out is [outer, n, inner], the input yGrad [outer, total, inner]
            if (j >= total) continue;
            for (int64_t k = 0; k < inner; ++k)
              y[static_cast<size_t>((o * n + i) * inner + k)] +=
                  x[static_cast<size_t>((o * total + j) * inner + k)];
          } else {
            if (j >= total) continue;
            for (int64_t k = 0; k < inner; ++k) {
              y[static_cast<size_t>((o * total + j) * inner + k)] =
                  indicesOnly ? static_cast<T>(i) : x[static_cast<size_t>((o * n + i) * inner + k)];
            }
          }
        }
      }
    }
    storeDense(out, y.data());
  }
};

// self's element type accepted, out of self's type, out's shape: self's with `dim` (or the
// flattened self) of extent `extent` (-1: unknown until the repeats are read; then only the
// other dimensions are checked).
int32_t build(const char* api, const OpInfo& info, const aclTensor* self, const aclTensor* repeats,
              int64_t count, bool hasDim, int64_t dim, int64_t outputSize, const aclTensor* out,
              uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"out", out}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"self", self}, {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, info)) != kSuccess) return st;
  }
  if (out->desc.dtype != self->desc.dtype)
    return fail(api, kErrParamInvalid,
                fmt::format("out type must equal self type {}", dtypeName(self->desc.dtype)));
  std::vector<int64_t> s = hasDim ? self->desc.shape : std::vector<int64_t>{self->desc.numel()};
  if (s.empty()) s = {1};
  const int64_t d = wrapDim(hasDim ? dim : 0, s.size());
  if (d < 0) return fail(api, kErrParamInvalid, fmt::format("dim {} is out of range", dim));
  const auto ud = static_cast<size_t>(d);
  const int64_t n = s[ud];
  if (repeats != nullptr) {
    if ((st = checkTensor(api, "repeats", repeats->desc)) != kSuccess) return st;
    if (repeats->desc.dtype != ACL_INT32 && repeats->desc.dtype != ACL_INT64)
      return fail(api, kErrParamInvalid,
                  fmt::format("repeats type must be int32 or int64, not {}", dtypeName(repeats->desc.dtype)));
    if (repeats->desc.rank() > 1 || (repeats->desc.numel() != 1 && repeats->desc.numel() != n)) {
      return fail(api, kErrParamInvalid,
                  fmt::format("repeats must hold 1 or {} values, not {}", n, repeats->desc.numel()));
    }
  } else if (count < 0) {
    return fail(api, kErrParamInvalid, fmt::format("repeats {} is negative", count));
  }
  std::vector<int64_t> want = s;
  const int64_t extent = repeats == nullptr ? n * count : outputSize > 0 ? outputSize : -1;
  if (extent >= 0) {
    want[ud] = extent;
    if ((st = checkShape(api, "out", out->desc.shape, want)) != kSuccess) return st;
  } else if (out->desc.rank() != s.size()) {
    return fail(api, kErrParamInvalid, fmt::format("out must have {} dimensions", s.size()));
  }
  auto inst = std::make_unique<RepeatInterleaveInstance>();
  inst->name = info.name;
  addInput(*inst, "self", self);
  if (repeats != nullptr) {
    inst->repeatsInput = 1;
    addInput(*inst, "repeats", repeats);
  }
  inst->count = count;
  inst->shape = {dimProduct(s, 0, ud), n, dimProduct(s, ud + 1, s.size())};
  addOutput(*inst, "out", out);
  inst->attrs = fmt::format("dim={} outputSize={}", hasDim ? fmt::format("{}", dim) : "none", outputSize);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnRepeatInterleaveGetWorkspaceSize(const aclTensor* self, const aclTensor* repeats,
                                                             int64_t outputSize, aclTensor* out,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
  const char* api = "aclnnRepeatInterleaveGetWorkspaceSize";
  if (repeats == nullptr) return checkNotNull(api, {{"repeats", repeats}});
  return build(api, kRepeatInterleave, self, repeats, 0, false, 0, outputSize, out, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(RepeatInterleave)

extern "C" aclnnStatus aclnnRepeatInterleaveWithDimGetWorkspaceSize(const aclTensor* self,
                                                                    const aclTensor* repeats, int64_t dim,
                                                                    int64_t outputSize, aclTensor* out,
                                                                    uint64_t* workspaceSize,
                                                                    aclOpExecutor** executor) {
  const char* api = "aclnnRepeatInterleaveWithDimGetWorkspaceSize";
  if (repeats == nullptr) return checkNotNull(api, {{"repeats", repeats}});
  return build(api, kRepeatInterleaveWithDim, self, repeats, 0, true, dim, outputSize, out, workspaceSize,
               executor);
}
NPUSIM_ACLNN_PHASE2(RepeatInterleaveWithDim)

extern "C" aclnnStatus aclnnRepeatInterleaveIntGetWorkspaceSize(const aclTensor* self, int64_t repeats,
                                                                int64_t outputSize, aclTensor* out,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor) {
  return build("aclnnRepeatInterleaveIntGetWorkspaceSize", kRepeatInterleaveInt, self, nullptr, repeats,
               false, 0, outputSize, out, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(RepeatInterleaveInt)

extern "C" aclnnStatus aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(const aclTensor* self, int64_t repeats,
                                                                       int64_t dim, int64_t outputSize,
                                                                       aclTensor* out,
                                                                       uint64_t* workspaceSize,
                                                                       aclOpExecutor** executor) {
  return build("aclnnRepeatInterleaveIntWithDimGetWorkspaceSize", kRepeatInterleaveIntWithDim, self, nullptr,
               repeats, true, dim, outputSize, out, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(RepeatInterleaveIntWithDim)

extern "C" aclnnStatus aclnnRepeatInterleaveTensorGetWorkspaceSize(const aclTensor* repeats,
                                                                   int64_t outputSize, aclTensor* out,
                                                                   uint64_t* workspaceSize,
                                                                   aclOpExecutor** executor) {
  const char* api = "aclnnRepeatInterleaveTensorGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"repeats", repeats}, {"out", out}});
  if (st != kSuccess || (st = checkTensor(api, "repeats", repeats->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "repeats", repeats->desc.dtype, kRepeatInterleaveTensor)) != kSuccess) return st;
  if (out->desc.dtype != repeats->desc.dtype)
    return fail(api, kErrParamInvalid,
                fmt::format("out type must equal repeats type {}", dtypeName(repeats->desc.dtype)));
  if (repeats->desc.rank() > 1 || out->desc.rank() != 1 ||
      (outputSize > 0 && out->desc.shape[0] != outputSize))
    return fail(api, kErrParamInvalid, "repeats and out must be 1-D (out of outputSize elements when given)");
  auto inst = std::make_unique<RepeatInterleaveInstance>();
  inst->name = "aclnnRepeatInterleaveTensor";
  addInput(*inst, "repeats", repeats);
  inst->repeatsInput = 0;
  inst->indicesOnly = true;
  inst->shape = {1, repeats->desc.numel(), 1};
  addOutput(*inst, "out", out);
  inst->attrs = fmt::format("outputSize={}", outputSize);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(RepeatInterleaveTensor)

extern "C" aclnnStatus aclnnRepeatInterleaveGradGetWorkspaceSize(const aclTensor* yGrad,
                                                                 const aclTensor* repeats, int64_t axis,
                                                                 const aclTensor* out,
                                                                 uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor) {
  const char* api = "aclnnRepeatInterleaveGradGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"yGrad", yGrad}, {"repeats", repeats}, {"out", out}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"yGrad", yGrad}, {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kRepeatInterleaveGrad)) != kSuccess) return st;
  }
  if (out->desc.dtype != yGrad->desc.dtype)
    return fail(api, kErrParamInvalid,
                fmt::format("out type must equal yGrad type {}", dtypeName(yGrad->desc.dtype)));
  if ((st = checkTensor(api, "repeats", repeats->desc)) != kSuccess) return st;
  if (repeats->desc.dtype != ACL_INT32 && repeats->desc.dtype != ACL_INT64)
    return fail(api, kErrParamInvalid,
                fmt::format("repeats type must be int32 or int64, not {}", dtypeName(repeats->desc.dtype)));
  const std::vector<int64_t> os = out->desc.shape, gs = yGrad->desc.shape;
  const int64_t a = wrapDim(axis, std::max<size_t>(os.size(), 1));
  if (a < 0 || os.size() != gs.size() || os.empty())
    return fail(api, kErrParamInvalid,
                fmt::format("axis {} and the shapes of yGrad {} and out {} do not fit", axis, shapeString(gs),
                            shapeString(os)));
  const auto ua = static_cast<size_t>(a);
  for (size_t k = 0; k < os.size(); ++k) {
    if (k != ua && os[k] != gs[k])
      return fail(
          api, kErrParamInvalid,
          fmt::format("yGrad {} and out {} differ outside axis {}", shapeString(gs), shapeString(os), a));
  }
  if (repeats->desc.numel() != 1 && repeats->desc.numel() != os[ua])
    return fail(api, kErrParamInvalid, fmt::format("repeats must hold 1 or {} values", os[ua]));
  auto inst = std::make_unique<RepeatInterleaveInstance>();
  inst->name = "aclnnRepeatInterleaveGrad";
  addInput(*inst, "yGrad", yGrad);
  addInput(*inst, "repeats", repeats);
  inst->repeatsInput = 1;
  inst->gradient = true;
  // compute() reads yGrad as [outer, total, inner] with total = its own extent along axis.
  inst->shape = {dimProduct(os, 0, ua), os[ua], dimProduct(os, ua + 1, os.size())};
  addOutput(*inst, "out", out);
  inst->attrs = fmt::format("axis={}", axis);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(RepeatInterleaveGrad)
