// Operators whose output size is data: aclnnNonzero / aclnnNonzeroV2 (ops-nn index/non_zero)
// and aclnnMaskedSelect (ops-math conversion/masked_select_v3). out is allocated for the largest
// result the program expects; when the operator runs it writes the selected elements densely
// (as many as out's storage holds) and sets out's view shape to the result's ([count, rank],
// [rank, count] or [count]), which aclGetViewShape then reports, as on the device. The aclTensor must outlive
// the operator's execution (until the stream is synchronised). Cost: the inputs read once, out written whole.
#include <fmt/format.h>

#include "aclnnop/aclnn_masked_select.h"
#include "aclnnop/aclnn_nonzero.h"
#include "aclnnop/aclnn_nonzero_v2.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"
#include "runtime/aclnn/ops/where_op.h"

namespace npusim::aclnn {
namespace {

// aclnnNonzero.md: FLOAT, FLOAT16, DOUBLE, INT32, INT64, INT16, INT8, UINT8, BOOL, BFLOAT16,
// UINT16, UINT32, UINT64 (out INT64).
const std::vector<aclDataType> kTypes{ACL_FLOAT,  ACL_FLOAT16, ACL_DOUBLE, ACL_INT32, ACL_INT64,
                                      ACL_INT16,  ACL_INT8,    ACL_UINT8,  ACL_BOOL,  ACL_BF16,
                                      ACL_UINT16, ACL_UINT32,  ACL_UINT64};
const OpInfo kNonzero{"aclnnNonzero", ExecUnit::kVector, kTypes,
                      "out[k] = coordinates of the k-th nonzero of self"};
const OpRegistrar kNonzeroRegistrar(kNonzero);
const OpInfo kNonzeroV2{"aclnnNonzeroV2", ExecUnit::kVector, kTypes,
                        "out[:, k] = coordinates of the k-th nonzero"};
const OpRegistrar kNonzeroV2Registrar(kNonzeroV2);
const OpInfo kMaskedSelect{"aclnnMaskedSelect", ExecUnit::kVector, kTypes,
                           "out = self[mask] (broadcast), 1-D"};
const OpRegistrar kMaskedSelectRegistrar(kMaskedSelect);

enum class Result { kRows, kColumns, kValues };  // Nonzero, NonzeroV2, MaskedSelect

class SelectInstance : public OpInstanceBase<SelectInstance> {
 public:
  Result result = Result::kRows;
  std::vector<int64_t> shape;    // the iteration space (self, or self and mask broadcast)
  aclTensor* resized = nullptr;  // out, whose view shape becomes the result's

  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), 0});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const HostTensor& cond = result == Result::kValues ? in[1] : in[0];
    const std::vector<double> c = loadDense<double>(broadcastView(cond, shape));
    std::vector<int64_t> picked;
    for (size_t i = 0; i < c.size(); ++i) {
      if (c[i] != 0) picked.push_back(static_cast<int64_t>(i));
    }
    const auto rank = static_cast<int64_t>(shape.size());
    // What out's storage holds: results past it are dropped (out was allocated too small).
    const int64_t room =
        result == Result::kValues ? out[0].numel() : out[0].numel() / std::max<int64_t>(rank, 1);
    if (static_cast<int64_t>(picked.size()) > room) picked.resize(static_cast<size_t>(room));
    const auto count = static_cast<int64_t>(picked.size());
    std::vector<int64_t> resultShape;
    HostTensor dense = out[0];  // out's storage written row-major in the result's shape
    if (result == Result::kValues) {
      resultShape = {count};
      const std::vector<double> x = loadDense<double>(broadcastView(in[0], shape));
      std::vector<double> y;
      for (int64_t i : picked) y.push_back(x[static_cast<size_t>(i)]);
      dense.shape = resultShape;
      dense.strides = contiguousStrides(resultShape);
      if (count > 0) storeDense(dense, y.data());
    } else {
      resultShape =
          result == Result::kRows ? std::vector<int64_t>{count, rank} : std::vector<int64_t>{rank, count};
      std::vector<int64_t> y(static_cast<size_t>(count * rank));
      for (int64_t k = 0; k < count; ++k) {
        int64_t f = picked[static_cast<size_t>(k)];
        for (int64_t a = rank; a-- > 0;) {
          const int64_t coord = f % shape[static_cast<size_t>(a)];
          f /= shape[static_cast<size_t>(a)];
          y[static_cast<size_t>(result == Result::kRows ? k * rank + a : a * count + k)] = coord;
        }
      }
      dense.shape = resultShape;
      dense.strides = contiguousStrides(resultShape);
      if (count > 0) storeDense(dense, y.data());
    }
    if (resized != nullptr) {
      resized->desc.shape = resultShape;
      resized->desc.strides = contiguousStrides(resultShape);
    }
  }
};

int32_t buildNonzero(const char* api, const OpInfo& info, Result result, const aclTensor* self,
                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"out", out}});
  if (st != kSuccess || (st = checkTensor(api, "self", self->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "self", self->desc.dtype, info)) != kSuccess) return st;
  if (out->desc.dtype != ACL_INT64)
    return fail(api, kErrParamInvalid,
                fmt::format("out type must be int64, not {}", dtypeName(out->desc.dtype)));
  const int64_t rank = static_cast<int64_t>(self->desc.rank());
  // out: [m, rank] (Nonzero) or [rank, m] (V2), contiguous; m need not cover every element.
  const std::vector<int64_t>& os = out->desc.shape;
  const bool rows = result == Result::kRows;
  if (os.size() != 2 || os[rows ? 1 : 0] != rank || !out->desc.isContiguous()) {
    return fail(api, kErrParamInvalid,
                fmt::format("out {} must be contiguous and of shape {}", shapeString(os),
                            rows ? fmt::format("[m, {}]", rank) : fmt::format("[{}, m]", rank)));
  }
  auto inst = std::make_unique<SelectInstance>();
  inst->name = info.name;
  inst->result = result;
  inst->shape = self->desc.shape;
  inst->resized = out;
  addInput(*inst, "self", self);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnNonzeroGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildNonzero("aclnnNonzeroGetWorkspaceSize", kNonzero, Result::kRows, self, out, workspaceSize,
                      executor);
}
NPUSIM_ACLNN_PHASE2(Nonzero)

extern "C" aclnnStatus aclnnNonzeroV2GetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildNonzero("aclnnNonzeroV2GetWorkspaceSize", kNonzeroV2, Result::kColumns, self, out,
                      workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(NonzeroV2)

extern "C" aclnnStatus aclnnMaskedSelectGetWorkspaceSize(const aclTensor* self, const aclTensor* mask,
                                                         aclTensor* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  const char* api = "aclnnMaskedSelectGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"mask", mask}, {"out", out}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"self", self}, {"mask", mask}, {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  if ((st = checkDtype(api, "self", self->desc.dtype, kMaskedSelect)) != kSuccess) return st;
  if (mask->desc.dtype != ACL_BOOL && mask->desc.dtype != ACL_UINT8)
    return fail(api, kErrParamInvalid,
                fmt::format("mask type must be bool or uint8, not {}", dtypeName(mask->desc.dtype)));
  if (out->desc.dtype != self->desc.dtype)
    return fail(api, kErrParamInvalid,
                fmt::format("out type must equal self type {}", dtypeName(self->desc.dtype)));
  std::vector<int64_t> shape;
  if (!broadcastShapes(self->desc.shape, mask->desc.shape, &shape)) {
    return fail(api, kErrParamInvalid,
                fmt::format("self {} and mask {} do not broadcast", shapeString(self->desc.shape),
                            shapeString(mask->desc.shape)));
  }
  if (out->desc.rank() != 1 || !out->desc.isContiguous())
    return fail(api, kErrParamInvalid,
                fmt::format("out {} must be 1-D and contiguous", shapeString(out->desc.shape)));
  auto inst = std::make_unique<SelectInstance>();
  inst->name = "aclnnMaskedSelect";
  inst->result = Result::kValues;
  inst->shape = shape;
  inst->resized = out;
  addInput(*inst, "self", self);
  addInput(*inst, "mask", mask);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(MaskedSelect)
