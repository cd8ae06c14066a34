#pragma once
// Element types of aclnn tensors: sizes, names, categories, type promotion and the
// "can cast" rule used by the operators' argument checks.
#include <cstddef>

#include "acl/acl_base.h"

namespace npusim::aclnn {

// Bytes per element; 0 for types without a fixed byte size (string, sub-byte types).
size_t dtypeSize(aclDataType dt);

// Short name used in messages and trace arguments ("fp32", "int8", ...).
const char* dtypeName(aclDataType dt);

bool isFloating(aclDataType dt);  // fp16, bf16, fp32, fp64
bool isComplex(aclDataType dt);   // complex32/64/128
bool isIntegral(aclDataType dt, bool includeBool);

// Tensor-tensor type promotion (ops-math docs/context/deduction_relationship.md, table 1).
// Returns ACL_DT_UNDEFINED where the table has no result. Complex types are not promoted here.
aclDataType promoteTypes(aclDataType a, aclDataType b);

// Whether a computed value of type `from` may be written to an output of type `to`
// (ops-math docs/context/conversion_relationship.md).
bool canCast(aclDataType from, aclDataType to);

}  // namespace npusim::aclnn
