// Comparisons and logical operators of two operands (ops-math math/{equal, not_equal, greater,
// greater_equal, less, less_equal, logical_and, logical_or}) and aclnnAtan2 (math/atan2), on the
// binary engine (binary_op.h): broadcasting, type promotion (the comparison is made in the
// promoted type), scalar and in-place forms. A predicate writes 1 or 0 in out's type, bool
// usually; in place, selfRef keeps its type and receives 1 or 0.
#include "aclnnop/aclnn_atan2.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "runtime/aclnn/ops/binary_op.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

// Every real type (the docs of the comparisons and logical operators list them all for self,
// other and out).
const std::vector<aclDataType> kAll = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                       ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL};

const OpInfo kEqTensor{"aclnnEqTensor", ExecUnit::kVector, kAll, "out = (self == other)"};
const OpInfo kEqScalar{"aclnnEqScalar", ExecUnit::kVector, kAll,
                       "out = (self == other), other a host scalar"};
const OpInfo kNeTensor{"aclnnNeTensor", ExecUnit::kVector, kAll, "out = (self != other)"};
const OpInfo kNeScalar{"aclnnNeScalar", ExecUnit::kVector, kAll,
                       "out = (self != other), other a host scalar"};
const OpInfo kGtTensor{"aclnnGtTensor", ExecUnit::kVector, kAll, "out = (self > other)"};
const OpInfo kGtScalar{"aclnnGtScalar", ExecUnit::kVector, kAll, "out = (self > other), other a host scalar"};
const OpInfo kGeTensor{"aclnnGeTensor", ExecUnit::kVector, kAll, "out = (self >= other)"};
const OpInfo kGeScalar{"aclnnGeScalar", ExecUnit::kVector, kAll,
                       "out = (self >= other), other a host scalar"};
const OpInfo kLtTensor{"aclnnLtTensor", ExecUnit::kVector, kAll, "out = (self < other)"};
const OpInfo kLtScalar{"aclnnLtScalar", ExecUnit::kVector, kAll, "out = (self < other), other a host scalar"};
const OpInfo kLeTensor{"aclnnLeTensor", ExecUnit::kVector, kAll, "out = (self <= other)"};
const OpInfo kLeScalar{"aclnnLeScalar", ExecUnit::kVector, kAll,
                       "out = (self <= other), other a host scalar"};
const OpInfo kLogicalAnd{"aclnnLogicalAnd", ExecUnit::kVector, kAll, "out = self && other"};
const OpInfo kLogicalOr{"aclnnLogicalOr", ExecUnit::kVector, kAll, "out = self || other"};
const OpInfo kLogicalXor{"aclnnLogicalXor", ExecUnit::kVector, kAll, "out = (self != 0) xor (other != 0)"};
const OpInfo kAtan2{"aclnnAtan2", ExecUnit::kVector, kAll, "out = atan2(self, other), integers as fp32"};
const OpRegistrar kRegistrars[] = {
    OpRegistrar(kEqTensor),   OpRegistrar(kEqScalar),  OpRegistrar(kNeTensor),   OpRegistrar(kNeScalar),
    OpRegistrar(kGtTensor),   OpRegistrar(kGtScalar),  OpRegistrar(kGeTensor),   OpRegistrar(kGeScalar),
    OpRegistrar(kLtTensor),   OpRegistrar(kLtScalar),  OpRegistrar(kLeTensor),   OpRegistrar(kLeScalar),
    OpRegistrar(kLogicalAnd), OpRegistrar(kLogicalOr), OpRegistrar(kLogicalXor), OpRegistrar(kAtan2)};

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::BinaryKind;

NPUSIM_ACLNN_BINARY_TENSOR(EqTensor, kEqTensor, kEq, const aclTensor)
NPUSIM_ACLNN_BINARY_SCALAR(EqScalar, kEqScalar, kEq, const aclTensor)
NPUSIM_ACLNN_BINARY_TENSOR(NeTensor, kNeTensor, kNe, aclTensor)
NPUSIM_ACLNN_BINARY_SCALAR(NeScalar, kNeScalar, kNe, aclTensor)
NPUSIM_ACLNN_BINARY_TENSOR(GtTensor, kGtTensor, kGt, const aclTensor)
NPUSIM_ACLNN_BINARY_SCALAR(GtScalar, kGtScalar, kGt, aclTensor)
NPUSIM_ACLNN_BINARY_TENSOR(GeTensor, kGeTensor, kGe, aclTensor)
NPUSIM_ACLNN_BINARY_SCALAR(GeScalar, kGeScalar, kGe, aclTensor)
NPUSIM_ACLNN_BINARY_TENSOR(LtTensor, kLtTensor, kLt, const aclTensor)
NPUSIM_ACLNN_BINARY_SCALAR(LtScalar, kLtScalar, kLt, const aclTensor)
NPUSIM_ACLNN_BINARY_TENSOR(LeTensor, kLeTensor, kLe, aclTensor)
NPUSIM_ACLNN_BINARY_SCALAR(LeScalar, kLeScalar, kLe, aclTensor)
NPUSIM_ACLNN_BINARY_TENSOR(LogicalAnd, kLogicalAnd, kLogicalAnd, aclTensor)
NPUSIM_ACLNN_BINARY_TENSOR(LogicalOr, kLogicalOr, kLogicalOr, aclTensor)

extern "C" aclnnStatus aclnnLogicalXorGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                                       aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  return npusim::aclnn::buildBinary({"aclnnLogicalXorGetWorkspaceSize", "aclnnLogicalXor",
                                     &npusim::aclnn::kLogicalXor, BinaryKind::kLogicalXor, false},
                                    self, other, nullptr, out, false, ws, ex);
}
NPUSIM_ACLNN_PHASE2(LogicalXor)

extern "C" aclnnStatus aclnnAtan2GetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                                  aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  return npusim::aclnn::buildBinary(
      {"aclnnAtan2GetWorkspaceSize", "aclnnAtan2", &npusim::aclnn::kAtan2, BinaryKind::kAtan2, false}, self,
      other, nullptr, out, false, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Atan2)
extern "C" aclnnStatus aclnnInplaceAtan2GetWorkspaceSize(aclTensor* selfRef, aclTensor* other, uint64_t* ws,
                                                         aclOpExecutor** ex) {
  return npusim::aclnn::buildBinary({"aclnnInplaceAtan2GetWorkspaceSize", "aclnnInplaceAtan2",
                                     &npusim::aclnn::kAtan2, BinaryKind::kAtan2, false},
                                    selfRef, other, nullptr, selfRef, true, ws, ex);
}
NPUSIM_ACLNN_PHASE2(InplaceAtan2)
