#include "runtime/aclnn/ops/pad_map.h"

#include <fmt/format.h>

#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/gather_map_op.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {

namespace {

// Index of the self element that output coordinate `o` copies along a dimension of size n
// padded by `before`, or -1 (constant mode outside self).
int64_t padSource(PadMode mode, int64_t o, int64_t before, int64_t n) {
  int64_t i = o - before;
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case PadMode::kConstant:
      return -1;
    case PadMode::kReflect:  // mirror without repeating the edge
      while (i < 0 || i >= n) i = i < 0 ? -i : 2 * (n - 1) - i;
      return i;
    case PadMode::kReplicate:
      return i < 0 ? 0 : n - 1;
    case PadMode::kCircular:
      return ((i % n) + n) % n;
  }
  return -1;
}

const char* modeName(PadMode m) {
  switch (m) {
    case PadMode::kConstant:
      return "constant";
    case PadMode::kReflect:
      return "reflect";
    case PadMode::kReplicate:
      return "replicate";
    case PadMode::kCircular:
      return "circular";
  }
  return "";
}

// Checks padding against self and fills `before` and the padded shape (per dimension of self).
int32_t padShape(const char* api, const PadOp& op, const TensorDesc& self,
                 const std::vector<int64_t>& padding, std::vector<int64_t>* before,
                 std::vector<int64_t>* padded) {
  const size_t r = self.rank();
  if (op.spatialDims < 0) {
    if (r < 1 || r > 3 || padding.size() != 2)
      return fail(
          api, kErrParamInvalid,
          fmt::format("self needs 1 to 3 dimensions ({}) and padding 2 values ({})", r, padding.size()));
  } else if (op.spatialDims > 0) {
    const auto k = static_cast<size_t>(op.spatialDims);
    if (r != k + 1 && r != k + 2)
      return fail(api, kErrParamInvalid,
                  fmt::format("self must have {} or {} dimensions, not {}", k + 1, k + 2, r));
    if (padding.size() != 2 * k)
      return fail(api, kErrParamInvalid,
                  fmt::format("padding must have {} values, not {}", 2 * k, padding.size()));
  } else if (padding.size() % 2 != 0 || padding.size() > 2 * r) {
    return fail(api, kErrParamInvalid,
                fmt::format("pad must have an even length of at most {} (2 x self's rank), not {}", 2 * r,
                            padding.size()));
  }
  before->assign(r, 0);
  *padded = self.shape;
  for (size_t j = 0; j < padding.size() / 2; ++j) {
    const size_t d = r - 1 - j;
    const int64_t lo = padding[2 * j], hi = padding[2 * j + 1], n = self.shape[d];
    if (op.mode != PadMode::kConstant && (lo >= n || hi >= n || lo < 0 || hi < 0)) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} padding ({}, {}) of dimension {} must be in [0, {}) (its size)",
                              modeName(op.mode), lo, hi, d, n));
    }
    (*before)[d] = lo;
    (*padded)[d] = n + lo + hi;
    if ((*padded)[d] < 0)
      return fail(api, kErrParamInvalid,
                  fmt::format("padding makes dimension {} negative ({})", d, (*padded)[d]));
  }
  return kSuccess;
}

// The map from a position of the padded tensor to the flat index in self (or -1).
SourceMap padSourceMap(PadMode mode, std::vector<int64_t> before, std::vector<int64_t> shape) {
  return [mode, before = std::move(before), shape = std::move(shape)](const std::vector<int64_t>& pos) {
    int64_t f = 0;
    for (size_t a = 0; a < shape.size(); ++a) {
      const int64_t i = padSource(mode, pos[a], before[a], shape[a]);
      if (i < 0) return int64_t{-1};
      f = f * shape[a] + i;
    }
    return f;
  };
}

}  // namespace

int32_t padForward(const PadOp& op, const aclTensor* self, const aclIntArray* padding, const aclScalar* value,
                   aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const std::string apiName = std::string(op.name) + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"padding", padding}});
  if (st == kSuccess && op.mode == PadMode::kConstant) st = checkNotNull(api, {{"value", value}});
  if (st != kSuccess) return st;
  if ((st = checkMapArgs(api, *op.info, "self", self, "out", out)) != kSuccess) return st;
  std::vector<int64_t> before, padded;
  if ((st = padShape(api, op, self->desc, padding->values, &before, &padded)) != kSuccess) return st;
  if ((st = checkShape(api, "out", out->desc.shape, padded)) != kSuccess) return st;
  auto inst = newMap(op.name, {{"self", self}}, "out", out, padSourceMap(op.mode, before, self->desc.shape));
  if (value != nullptr) inst->fill = value->value;
  inst->attrs = fmt::format("padding={}", shapeString(padding->values));
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

int32_t padBackward(const PadOp& op, const aclTensor* gradOutput, const aclTensor* self,
                    const aclIntArray* padding, aclTensor* gradInput, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
  const std::string apiName = std::string(op.name) + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"gradOutput", gradOutput}, {"padding", padding}});
  if (st != kSuccess) return st;
  if ((st = checkMapArgs(api, *op.info, "self", self, "gradInput", gradInput)) != kSuccess) return st;
  if ((st = checkTensor(api, "gradOutput", gradOutput->desc)) != kSuccess) return st;
  if (gradOutput->desc.dtype != self->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("gradOutput type {} must equal self type {}", dtypeName(gradOutput->desc.dtype),
                            dtypeName(self->desc.dtype)));
  }
  std::vector<int64_t> before, padded;
  if ((st = padShape(api, op, self->desc, padding->values, &before, &padded)) != kSuccess) return st;
  if ((st = checkShape(api, "gradOutput", gradOutput->desc.shape, padded)) != kSuccess) return st;
  if ((st = checkShape(api, "gradInput", gradInput->desc.shape, self->desc.shape)) != kSuccess) return st;
  auto inst = newMap(op.name, {{"gradOutput", gradOutput}}, "gradInput", gradInput,
                     padSourceMap(op.mode, before, self->desc.shape));
  inst->accumulate = true;
  inst->attrs = fmt::format("padding={}", shapeString(padding->values));
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace npusim::aclnn
