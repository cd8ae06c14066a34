// Arithmetic of two operands beyond add/sub/mul/div (ops-math math/{floor_div, mod, floor_mod,
// xlogy, bitwise_and, bitwise_or, bitwise_xor}) on the binary engine (binary_op.h): tensor and
// host-scalar forms, in place, broadcasting and promotion as aclnnAdd. Integer floor division and
// remainders are exact and a zero divisor gives 0 (the device raises no error); xlogy of integers
// is computed in fp32; the bitwise operators take integers and bool only (161002 otherwise).
#include "aclnnop/aclnn_bitwise_and_scalar.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_or_scalar.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwise_xor_scalar.h"
#include "aclnnop/aclnn_bitwise_xor_tensor.h"
#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_fmod_scalar.h"
#include "aclnnop/aclnn_fmod_tensor.h"
#include "aclnnop/aclnn_remainder.h"
#include "aclnnop/aclnn_x_log_y_scalar_other.h"
#include "aclnnop/aclnn_x_log_y_tensor.h"
#include "runtime/aclnn/ops/binary_op.h"

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
const OpRegistrar kRegistrars[] = {
    OpRegistrar(kFloorDivide),      OpRegistrar(kFloorDivides),          OpRegistrar(kFmodTensor),
    OpRegistrar(kFmodScalar),       OpRegistrar(kRemainderTensorTensor), OpRegistrar(kRemainderTensorScalar),
    OpRegistrar(kXLogYTensor),      OpRegistrar(kXLogYScalarOther),      OpRegistrar(kBitwiseAndTensor),
    OpRegistrar(kBitwiseAndScalar), OpRegistrar(kBitwiseOrTensor),       OpRegistrar(kBitwiseOrScalar),
    OpRegistrar(kBitwiseXorTensor), OpRegistrar(kBitwiseXorScalar)};

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
