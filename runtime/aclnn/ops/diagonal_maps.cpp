// Diagonal operators on the gather-map engine (gather_map_op.h): aclnnDiag (ops-math
// conversion/diag_v2), aclnnDiagFlat (conversion/diag_flat), aclnnEye (math/eye) and
// aclnnInplaceFillDiagonal (conversion/fill_diagonal_v2).
#include <fmt/format.h>

#include "aclnnop/aclnn_diag.h"
#include "aclnnop/aclnn_diag_flat.h"
#include "aclnnop/aclnn_diag_part.h"
#include "aclnnop/aclnn_eye.h"
#include "aclnnop/aclnn_eye_v2.h"
#include "aclnnop/aclnn_fill_diagonal.h"
#include "aclnnop/aclnn_trilu.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/gather_map_op.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kAllTypes{ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                         ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL};
const OpInfo kDiag{"aclnnDiag", ExecUnit::kVector, kAllTypes,
                   "1-D self: out = matrix with self on diagonal `diagonal`; 2-D self: out = that diagonal"};
const OpRegistrar kDiagRegistrar(kDiag);
const OpInfo kDiagFlat{"aclnnDiagFlat", ExecUnit::kVector, kAllTypes,
                       "out = square matrix with flattened self on diagonal `diagonal`"};
const OpRegistrar kDiagFlatRegistrar(kDiagFlat);
// aclnnEye.md: FLOAT16, FLOAT32, INT32, INT16, INT8, UINT8, INT64, BOOL, BFLOAT16.
const OpInfo kEye{
    "aclnnEye",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL},
    "out[i, j] = (i == j)"};
const OpRegistrar kEyeRegistrar(kEye);
const OpInfo kFillDiagonal{
    "aclnnInplaceFillDiagonal", ExecUnit::kVector, kAllTypes,
    "selfRef[i, i, ...] = fillValue (tall 2-D: every (cols+1)-th row restarts if wrap)"};
const OpRegistrar kFillDiagonalRegistrar(kFillDiagonal);

// The experimental variants (ops-math experimental/math/...), types from their op definitions.
const OpInfo kDiagPart{"aclnnDiagPart",
                       ExecUnit::kVector,
                       {ACL_FLOAT16, ACL_FLOAT, ACL_INT32},
                       "y[i...] = x[i..., i...] (x of shape s + s)"};
const OpRegistrar kDiagPartRegistrar(kDiagPart);
const OpInfo kEyeV2{"aclnnEyeV2",
                    ExecUnit::kVector,
                    {ACL_FLOAT, ACL_INT32, ACL_INT16, ACL_FLOAT16},
                    "y[..., i, j] = (i == j) over rows x cols"};
const OpRegistrar kEyeV2Registrar(kEyeV2);
const OpInfo kTrilu{
    "aclnnTrilu",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT64, ACL_INT8, ACL_INT16, ACL_UINT8, ACL_UINT16},
    "y = upper ? triu(x, diagonal) : tril(x, diagonal)"};
const OpRegistrar kTriluRegistrar(kTrilu);

// Matrix n x n (n = len + |diagonal|) with `len` values on `diagonal`, read from input element k.
SourceMap diagonalMatrix(int64_t diagonal) {
  return [diagonal](const std::vector<int64_t>& p) {
    const int64_t i = p[0], j = p[1];
    if (j - i != diagonal) return int64_t{-1};
    return diagonal >= 0 ? i : j;
  };
}

int32_t vectorToDiagonal(const char* api, const char* name, const aclTensor* self, int64_t diagonal,
                         aclTensor* out, int64_t len, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const int64_t n = len + (diagonal < 0 ? -diagonal : diagonal);
  int32_t st = checkShape(api, "out", out->desc.shape, {n, n});
  if (st != kSuccess) return st;
  auto inst = newMap(name, {{"self", self}}, "out", out, diagonalMatrix(diagonal));
  inst->attrs = fmt::format("diagonal={}", diagonal);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnDiagGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnDiagGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkMapArgs(api, kDiag, "self", self, "out", out);
  if (st != kSuccess) return st;
  const std::vector<int64_t>& s = self->desc.shape;
  if (s.size() == 1)
    return vectorToDiagonal(api, "aclnnDiag", self, diagonal, out, s[0], workspaceSize, executor);
  if (s.size() != 2)
    return fail(api, kErrParamInvalid, fmt::format("self must have 1 or 2 dimensions, not {}", s.size()));
  // The elements (i, i + diagonal) inside the matrix.
  const int64_t first = diagonal >= 0 ? 0 : -diagonal;
  const int64_t len = std::max<int64_t>(0, std::min(s[0] - first, s[1] - (first + diagonal)));
  if ((st = checkShape(api, "out", out->desc.shape, {len})) != kSuccess) return st;
  const int64_t cols = s[1];
  auto inst = newMap("aclnnDiag", {{"self", self}}, "out", out, [=](const std::vector<int64_t>& p) {
    const int64_t i = first + p[0];
    return i * cols + i + diagonal;
  });
  inst->readElements = len;
  inst->attrs = fmt::format("diagonal={}", diagonal);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Diag)

extern "C" aclnnStatus aclnnDiagFlatGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnDiagFlatGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const int32_t st = checkMapArgs(api, kDiagFlat, "self", self, "out", out);
  if (st != kSuccess) return st;
  return vectorToDiagonal(api, "aclnnDiagFlat", self, diagonal, out, self->desc.numel(), workspaceSize,
                          executor);
}
NPUSIM_ACLNN_PHASE2(DiagFlat)

extern "C" aclnnStatus aclnnEyeGetWorkspaceSize(int64_t n, int64_t m, aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  const char* api = "aclnnEyeGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "out", out->desc.dtype, kEye)) != kSuccess) return st;
  if (n < 0 || m < 0)
    return fail(api, kErrParamInvalid, fmt::format("n {} and m {} must not be negative", n, m));
  if ((st = checkShape(api, "out", out->desc.shape, {n, m})) != kSuccess) return st;
  auto inst = newMap("aclnnEye", {}, "out", out,
                     [](const std::vector<int64_t>& p) { return p[0] == p[1] ? int64_t{0} : int64_t{-1}; });
  inst->constants = {int64Scalar(1)};
  inst->attrs = fmt::format("n={} m={}", n, m);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Eye)

extern "C" aclnnStatus aclnnInplaceFillDiagonalGetWorkspaceSize(aclTensor* selfRef,
                                                                const aclScalar* fillValue, bool wrap,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor) {
  const char* api = "aclnnInplaceFillDiagonalGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"fillValue", fillValue}});
  if (st != kSuccess ||
      (st = checkMapArgs(api, kFillDiagonal, "selfRef", selfRef, "selfRef", selfRef)) != kSuccess)
    return st;
  const std::vector<int64_t> s = selfRef->desc.shape;
  if (s.size() < 2) return fail(api, kErrParamInvalid, "selfRef must have at least 2 dimensions");
  if (s.size() > 2) {
    for (int64_t e : s) {
      if (e != s[0])
        return fail(api, kErrParamInvalid,
                    fmt::format("all dimensions of a selfRef with more than 2 must be equal, not {}",
                                shapeString(s)));
    }
  }
  const int64_t numel = selfRef->desc.numel();
  // Flat positions of the diagonal: a stride of sum of the row-major strides; a 2-D tall matrix
  // stops after min(rows, cols) rows unless it wraps.
  int64_t step = 0;
  for (int64_t st2 : contiguousStrides(s)) step += st2;
  const int64_t end = s.size() == 2 && !wrap ? std::min(s[0], s[1]) * s[1] : numel;
  auto inst = newMap("aclnnInplaceFillDiagonal", {{"selfRef", selfRef}}, "selfRef", selfRef,
                     [s, step, end, numel](const std::vector<int64_t>& p) {
                       const int64_t f = flatIndex(p, s);
                       return f % step == 0 && f < end ? numel : f;
                     });
  inst->outputAlias = {0};
  inst->constants = {fillValue->value};
  inst->attrs = fmt::format("fillValue={} wrap={}", fillValue->value.str(), wrap);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceFillDiagonal)

extern "C" aclnnStatus aclnnDiagPartGetWorkspaceSize(const aclTensor* x, const aclTensor* y,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnDiagPartGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkMapArgs(api, kDiagPart, "x", x, "y", y);
  if (st != kSuccess) return st;
  const std::vector<int64_t>& s = x->desc.shape;
  const size_t k = s.size() / 2;
  if (s.empty() || s.size() % 2 != 0 || !std::equal(s.begin(), s.begin() + k, s.begin() + k))
    return fail(api, kErrParamInvalid,
                fmt::format("x shape {} must be some shape s twice (s + s)", shapeString(s)));
  const std::vector<int64_t> half(s.begin(), s.begin() + k);
  if ((st = checkShape(api, "y", y->desc.shape, half)) != kSuccess) return st;
  const int64_t n = y->desc.numel();
  auto inst = newMap("aclnnDiagPart", {{"x", x}}, "y", y,
                     [half, n](const std::vector<int64_t>& p) { return flatIndex(p, half) * (n + 1); });
  inst->readElements = n;
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(DiagPart)

// x is only a placeholder (the op's definition has an input it does not read); y holds the
// batch of rows x cols identities.
extern "C" aclnnStatus aclnnEyeV2GetWorkspaceSize(const aclTensor* x, int64_t rows, int64_t cols,
                                                  const aclTensor* y, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  const char* api = "aclnnEyeV2GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkMapArgs(api, kEyeV2, "x", x, "y", y);
  if (st != kSuccess) return st;
  const std::vector<int64_t>& s = y->desc.shape;
  if (rows < 0 || s.size() < 2 || s[s.size() - 2] != rows || s.back() != (cols <= 0 ? rows : cols)) {
    return fail(api, kErrParamInvalid,
                fmt::format("y shape {} must end in [rows, cols] = [{}, {}]", shapeString(s), rows, cols));
  }
  auto inst = newMap("aclnnEyeV2", {}, "y", y, [](const std::vector<int64_t>& p) {
    return p[p.size() - 2] == p.back() ? int64_t{0} : int64_t{-1};
  });
  inst->constants = {int64Scalar(1)};
  inst->attrs = fmt::format("rows={} cols={}", rows, cols);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(EyeV2)

extern "C" aclnnStatus aclnnTriluGetWorkspaceSize(const aclTensor* x, int64_t diagonal, int64_t upper,
                                                  const aclTensor* y, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  const char* api = "aclnnTriluGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkMapArgs(api, kTrilu, "x", x, "y", y);
  if (st != kSuccess || (st = checkShape(api, "y", y->desc.shape, x->desc.shape)) != kSuccess) return st;
  const std::vector<int64_t> s = x->desc.shape;
  if (s.size() < 2) return fail(api, kErrParamInvalid, "x must have at least 2 dimensions");
  const bool up = upper != 0;
  auto inst = newMap("aclnnTrilu", {{"x", x}}, "y", y, [s, diagonal, up](const std::vector<int64_t>& p) {
    const int64_t i = p[p.size() - 2], j = p.back();
    const bool keep = up ? j - i >= diagonal : j - i <= diagonal;
    return keep ? flatIndex(p, s) : int64_t{-1};
  });
  inst->attrs = fmt::format("diagonal={} upper={}", diagonal, upper);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Trilu)
