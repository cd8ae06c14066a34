// Cumulative operators (ops-math math/cumsum, cumprod, cummax, cummin; issue 28): entry points and
// accepted types from each doc; scan_op.h owns the rest.
#include <fmt/format.h>

#include "aclnnop/aclnn_cummax.h"
#include "aclnnop/aclnn_cummin.h"
#include "aclnnop/aclnn_cumprod.h"
#include "aclnnop/aclnn_cumsum.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/scan_op.h"

namespace npusim::aclnn {
namespace {

// The docs' real types (their complex types are refused: the simulator has no complex values).
const OpInfo kCumsum{
    "aclnnCumsum",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_DOUBLE, ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT64, ACL_BF16},
    "out[i] = self[0] + ... + self[i] along dim"};
const OpInfo kCumprod{"aclnnCumprod",
                      ExecUnit::kVector,
                      {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_INT16, ACL_INT32,
                       ACL_INT64, ACL_UINT8, ACL_UINT16, ACL_UINT32, ACL_UINT64},
                      "out[i] = input[0] * ... * input[i] along dim"};
const OpInfo kCummax{"aclnnCummax",
                     ExecUnit::kVector,
                     {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32,
                      ACL_INT64, ACL_BOOL, ACL_BF16},
                     "valuesOut[i] = max(self[0..i]), indicesOut[i] = where it is"};
const OpInfo kCummin{"aclnnCummin", ExecUnit::kVector, kCummax.dtypes,
                     "valuesOut[i] = min(self[0..i]), indicesOut[i] = where it is"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kCumsum), OpRegistrar(kCumprod), OpRegistrar(kCummax),
                                   OpRegistrar(kCummin)};

// out's type must be `dtype` (Cumsum), or the input's when dtype is ACL_DT_UNDEFINED (Cumprod).
int32_t checkOutType(const char* api, aclDataType dtype, const aclTensor* out) {
  if (out == nullptr || out->desc.dtype == dtype) return kSuccess;
  rt::chargeOpPrepare(api);
  return fail(
      api, kErrParamInvalid,
      fmt::format("out of type {} must have dtype's type {}", dtypeName(out->desc.dtype), dtypeName(dtype)));
}

// Cumprod's dim is a host scalar of an integer type.
int32_t dimOf(const char* api, const aclScalar* dim, int64_t* d) {
  if (dim == nullptr) {
    rt::chargeOpPrepare(api);
    return checkNotNull(api, {{"dim", dim}});
  }
  if (!isIntegral(dim->value.dtype, false)) {
    rt::chargeOpPrepare(api);
    return fail(api, kErrParamInvalid,
                fmt::format("dim of type {} is not an integer", dtypeName(dim->value.dtype)));
  }
  *d = dim->value.toInt64();
  return kSuccess;
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor* self, int64_t dim, aclDataType dtype,
                                                   aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  const char* api = "aclnnCumsumGetWorkspaceSize";
  const int32_t st = checkOutType(api, dtype, out);
  if (st != kSuccess) return st;
  return buildScan({api, "aclnnCumsum", &kCumsum, ScanKind::kSum, self, dim, out}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Cumsum)

extern "C" aclnnStatus aclnnCumsumV2GetWorkspaceSize(const aclTensor* self, int64_t dim, bool exclusive,
                                                     bool reverse, aclTensor* out, uint64_t* ws,
                                                     aclOpExecutor** ex) {
  return buildScan({"aclnnCumsumV2GetWorkspaceSize", "aclnnCumsumV2", &kCumsum, ScanKind::kSum, self, dim,
                    out, nullptr, exclusive, reverse},
                   ws, ex);
}
NPUSIM_ACLNN_PHASE2(CumsumV2)

extern "C" aclnnStatus aclnnCumprodGetWorkspaceSize(const aclTensor* input, const aclScalar* dim,
                                                    const aclDataType dtype, aclTensor* out, uint64_t* ws,
                                                    aclOpExecutor** ex) {
  const char* api = "aclnnCumprodGetWorkspaceSize";
  int64_t d = 0;
  int32_t st = dimOf(api, dim, &d);
  if (st != kSuccess) return st;
  if (input != nullptr &&
      (st = checkOutType(api, dtype == ACL_DT_UNDEFINED ? input->desc.dtype : dtype, out)) != kSuccess)
    return st;
  return buildScan({api, "aclnnCumprod", &kCumprod, ScanKind::kProd, input, d, out}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Cumprod)

extern "C" aclnnStatus aclnnInplaceCumprodGetWorkspaceSize(aclTensor* input, const aclScalar* dim,
                                                           uint64_t* ws, aclOpExecutor** ex) {
  const char* api = "aclnnInplaceCumprodGetWorkspaceSize";
  int64_t d = 0;
  const int32_t st = dimOf(api, dim, &d);
  if (st != kSuccess) return st;
  return buildScan(
      {api, "aclnnInplaceCumprod", &kCumprod, ScanKind::kProd, input, d, input, nullptr, false, false, true},
      ws, ex);
}
NPUSIM_ACLNN_PHASE2(InplaceCumprod)

extern "C" aclnnStatus aclnnCummaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* valuesOut,
                                                   aclTensor* indicesOut, uint64_t* ws, aclOpExecutor** ex) {
  return buildScan({"aclnnCummaxGetWorkspaceSize", "aclnnCummax", &kCummax, ScanKind::kMax, self, dim,
                    valuesOut, indicesOut},
                   ws, ex);
}
NPUSIM_ACLNN_PHASE2(Cummax)

extern "C" aclnnStatus aclnnCumminGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* valuesOut,
                                                   aclTensor* indicesOut, uint64_t* ws, aclOpExecutor** ex) {
  return buildScan({"aclnnCumminGetWorkspaceSize", "aclnnCummin", &kCummin, ScanKind::kMin, self, dim,
                    valuesOut, indicesOut},
                   ws, ex);
}
NPUSIM_ACLNN_PHASE2(Cummin)
