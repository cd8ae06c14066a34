// Arithmetic of two operands beyond add/sub/mul/div (ops-math math/{floor_div, mod, floor_mod,
// xlogy, bitwise_and, bitwise_or, bitwise_xor}) on the binary engine (binary_op.h): tensor and
// host-scalar forms, in place, broadcasting and promotion as aclnnAdd. Integer floor division and
// remainders are exact and a zero divisor gives 0 (the device raises no error); xlogy of integers
// is computed in fp32; the bitwise operators take integers and bool only (161002 otherwise).
// LogAddExp / LogAddExp2 (math/log_add_exp) compute integers in fp32 into a floating out; Gcd
// (math/gcd) takes integers and gives a non-negative result. These three have no in-place form.
// LeftShift(s) / RightShift (math/left_shift, right_shift): integers only; a count that is
// negative or not below the type's width gives 0 (left) or the sign fill, -1 or 0 (right), the
// rule ops-math's experimental/math/right_shift doc spells out.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "aclnnop/aclnn_bitwise_and_scalar.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_or_scalar.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwise_xor_scalar.h"
#include "aclnnop/aclnn_bitwise_xor_tensor.h"
#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_fmod_scalar.h"
#include "aclnnop/aclnn_fmod_tensor.h"
#include "aclnnop/aclnn_gcd.h"
#include "aclnnop/aclnn_heaviside.h"
#include "aclnnop/aclnn_left_shift.h"
#include "aclnnop/aclnn_logaddexp.h"
#include "aclnnop/aclnn_logaddexp2.h"
#include "aclnnop/aclnn_remainder.h"
#include "aclnnop/aclnn_right_shift.h"
#include "aclnnop/aclnn_x_log_y_scalar_other.h"
#include "aclnnop/aclnn_x_log_y_tensor.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/binary_op.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kReal = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                        ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64};
const std::vector<aclDataType> kInts = {ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL};

const OpInfo kFloorDivide{"aclnnFloorDivide", ExecUnit::kVector, kReal, "out = floor(self / other)"};
const OpInfo kFloorDivides{"aclnnFloorDivides", ExecUnit::kVector, kReal,
                           "out = floor(self / other), other a host scalar"};
const OpInfo kFmodTensor{"aclnnFmodTensor", ExecUnit::kVector, kReal,
                         "out = self - trunc(self / other) * other (sign of self)"};
const OpInfo kFmodScalar{"aclnnFmodScalar", ExecUnit::kVector, kReal,
                         "out = fmod(self, other), other a host scalar"};
const OpInfo kRemainderTensorTensor{"aclnnRemainderTensorTensor", ExecUnit::kVector, kReal,
                                    "out = self - floor(self / other) * other (sign of other)"};
const OpInfo kRemainderTensorScalar{"aclnnRemainderTensorScalar", ExecUnit::kVector, kReal,
                                    "out = self - floor(self / other) * other, other a host scalar"};
const OpInfo kXLogYTensor{"aclnnXLogYTensor", ExecUnit::kVector, kReal,
                          "out = self * ln(other), 0 where self is 0"};
const OpInfo kXLogYScalarOther{"aclnnXLogYScalarOther", ExecUnit::kVector, kReal,
                               "out = self * ln(other), other a host scalar"};
const OpInfo kBitwiseAndTensor{"aclnnBitwiseAndTensor", ExecUnit::kVector, kInts, "out = self & other"};
const OpInfo kBitwiseAndScalar{"aclnnBitwiseAndScalar", ExecUnit::kVector, kInts,
                               "out = self & other, other a host scalar"};
const OpInfo kBitwiseOrTensor{"aclnnBitwiseOrTensor", ExecUnit::kVector, kInts, "out = self | other"};
const OpInfo kBitwiseOrScalar{"aclnnBitwiseOrScalar", ExecUnit::kVector, kInts,
                              "out = self | other, other a host scalar"};
const OpInfo kBitwiseXorTensor{"aclnnBitwiseXorTensor", ExecUnit::kVector, kInts, "out = self ^ other"};
const OpInfo kBitwiseXorScalar{"aclnnBitwiseXorScalar", ExecUnit::kVector, kInts,
                               "out = self ^ other, other a host scalar"};
// The doc's lists: any real self and other for LogAddExp (out floating), integers for Gcd.
const std::vector<aclDataType> kLogAddExpTypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_UINT8, ACL_INT8,
                                                  ACL_UINT16,  ACL_INT16, ACL_UINT32, ACL_INT32, ACL_UINT64,
                                                  ACL_INT64,   ACL_BOOL,  ACL_BF16};
const OpInfo kLogAddExp{"aclnnLogAddExp", ExecUnit::kVector, kLogAddExpTypes, "out = ln(e^self + e^other)"};
const OpInfo kLogAddExp2{"aclnnLogAddExp2", ExecUnit::kVector, kLogAddExpTypes,
                         "out = log2(2^self + 2^other)"};
const OpInfo kGcd{"aclnnGcd",
                  ExecUnit::kVector,
                  {ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64},
                  "out = gcd(|self|, |other|)"};

const std::vector<aclDataType> kShiftTypes = {ACL_INT8,  ACL_INT16,  ACL_INT32,  ACL_INT64,
                                              ACL_UINT8, ACL_UINT16, ACL_UINT32, ACL_UINT64};
const OpInfo kLeftShift{"aclnnLeftShift", ExecUnit::kVector, kShiftTypes, "out = self << shiftBits"};
const OpInfo kLeftShifts{"aclnnLeftShifts", ExecUnit::kVector, kShiftTypes,
                         "out = self << shiftBits (scalar)"};
const OpInfo kRightShift{"aclnnRightShift", ExecUnit::kVector, kShiftTypes, "out = input >> shiftBits"};

// ops-nn activation/heaviside: input < 0 gives 0, input > 0 gives 1, input = 0 gives values.
const OpInfo kHeaviside{"aclnnHeaviside",
                        ExecUnit::kVector,
                        {ACL_BF16, ACL_FLOAT16, ACL_FLOAT},
                        "out = input < 0 ? 0 : input > 0 ? 1 : values"};

// Out-of-place only, out floating (LogAddExp, LogAddExp2).
int32_t buildFloatOut(const OpInfo& info, BinaryKind kind, const aclTensor* self, const aclTensor* other,
                      const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = info.name + "GetWorkspaceSize";
  if (out != nullptr && !isFloating(out->desc.dtype)) {
    rt::chargeOpPrepare(api.c_str());
    return fail(api.c_str(), kErrParamInvalid,
                fmt::format("out must be fp32, fp16 or bf16, not {}", dtypeName(out->desc.dtype)));
  }
  return buildBinary({api.c_str(), info.name.c_str(), &info, kind, false}, self, other, nullptr, out, false,
                     ws, ex);
}

const OpRegistrar kRegistrars[] = {OpRegistrar(kLeftShift),
                                   OpRegistrar(kLeftShifts),
                                   OpRegistrar(kRightShift),
                                   OpRegistrar(kHeaviside),
                                   OpRegistrar(kLogAddExp),
                                   OpRegistrar(kLogAddExp2),
                                   OpRegistrar(kGcd),
                                   OpRegistrar(kFloorDivide),
                                   OpRegistrar(kFloorDivides),
                                   OpRegistrar(kFmodTensor),
                                   OpRegistrar(kFmodScalar),
                                   OpRegistrar(kRemainderTensorTensor),
                                   OpRegistrar(kRemainderTensorScalar),
                                   OpRegistrar(kXLogYTensor),
                                   OpRegistrar(kXLogYScalarOther),
                                   OpRegistrar(kBitwiseAndTensor),
                                   OpRegistrar(kBitwiseAndScalar),
                                   OpRegistrar(kBitwiseOrTensor),
                                   OpRegistrar(kBitwiseOrScalar),
                                   OpRegistrar(kBitwiseXorTensor),
                                   OpRegistrar(kBitwiseXorScalar)};

}  // namespace
}  // namespace npusim::aclnn

NPUSIM_ACLNN_BINARY_TENSOR(FloorDivide, kFloorDivide, kFloorDiv, aclTensor)
NPUSIM_ACLNN_BINARY_SCALAR(FloorDivides, kFloorDivides, kFloorDiv, aclTensor)
NPUSIM_ACLNN_BINARY_TENSOR(FmodTensor, kFmodTensor, kFmod, aclTensor)
NPUSIM_ACLNN_BINARY_SCALAR(FmodScalar, kFmodScalar, kFmod, aclTensor)
NPUSIM_ACLNN_BINARY_TENSOR(RemainderTensorTensor, kRemainderTensorTensor, kRemainder, aclTensor)
NPUSIM_ACLNN_BINARY_SCALAR(RemainderTensorScalar, kRemainderTensorScalar, kRemainder, aclTensor)
NPUSIM_ACLNN_BINARY_TENSOR(XLogYTensor, kXLogYTensor, kXlogy, aclTensor)
NPUSIM_ACLNN_BINARY_SCALAR(XLogYScalarOther, kXLogYScalarOther, kXlogy, aclTensor)
NPUSIM_ACLNN_BINARY_TENSOR(BitwiseAndTensor, kBitwiseAndTensor, kBitAnd, const aclTensor)
NPUSIM_ACLNN_BINARY_SCALAR(BitwiseAndScalar, kBitwiseAndScalar, kBitAnd, const aclTensor)
NPUSIM_ACLNN_BINARY_TENSOR(BitwiseOrTensor, kBitwiseOrTensor, kBitOr, aclTensor)
NPUSIM_ACLNN_BINARY_SCALAR(BitwiseOrScalar, kBitwiseOrScalar, kBitOr, aclTensor)
NPUSIM_ACLNN_BINARY_TENSOR(BitwiseXorTensor, kBitwiseXorTensor, kBitXor, aclTensor)
NPUSIM_ACLNN_BINARY_SCALAR(BitwiseXorScalar, kBitwiseXorScalar, kBitXor, aclTensor)

// aclnn<Name>(self, other, out) with a floating out.
#define FLOAT_OUT_BINARY(Name, Info, Kind)                                                                 \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* self, const aclTensor* other,      \
                                                       aclTensor* out, uint64_t* ws, aclOpExecutor** ex) { \
    return npusim::aclnn::buildFloatOut(npusim::aclnn::Info, npusim::aclnn::BinaryKind::Kind, self, other, \
                                        out, ws, ex);                                                      \
  }                                                                                                        \
  NPUSIM_ACLNN_PHASE2(Name)

FLOAT_OUT_BINARY(LogAddExp, kLogAddExp, kLogAddExp)
FLOAT_OUT_BINARY(LogAddExp2, kLogAddExp2, kLogAddExp2)
NPUSIM_ACLNN_BINARY_OUT_OF_PLACE(Gcd, kGcd, kGcd, aclTensor, nullptr)
// Heaviside's header names self and other input and values, RightShift's names self input.
NPUSIM_ACLNN_BINARY_OUT_OF_PLACE(Heaviside, kHeaviside, kHeaviside, aclTensor, nullptr)
NPUSIM_ACLNN_BINARY_OUT_OF_PLACE(LeftShift, kLeftShift, kLeftShift, aclTensor, nullptr)
NPUSIM_ACLNN_BINARY_OUT_OF_PLACE(RightShift, kRightShift, kRightShift, aclTensor, nullptr)

extern "C" aclnnStatus aclnnLeftShiftsGetWorkspaceSize(const aclTensor* self, const aclScalar* shiftBits,
                                                       aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  using namespace npusim::aclnn;
  return buildBinaryScalar(
      {"aclnnLeftShiftsGetWorkspaceSize", "aclnnLeftShifts", &kLeftShifts, BinaryKind::kLeftShift, false},
      self, shiftBits, nullptr, out, false, ws, ex);
}
NPUSIM_ACLNN_PHASE2(LeftShifts)
