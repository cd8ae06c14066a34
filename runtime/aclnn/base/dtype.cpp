#include "runtime/aclnn/base/dtype.h"

namespace npusim::aclnn {

size_t dtypeSize(aclDataType dt) {
  switch (dt) {
    case ACL_BOOL:
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
      return 1;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32:
      return 4;
    case ACL_DOUBLE:
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_COMPLEX64:
      return 8;
    case ACL_COMPLEX128:
      return 16;
    default:
      return 0;
  }
}

const char* dtypeName(aclDataType dt) {
  switch (dt) {
    case ACL_FLOAT:
      return "fp32";
    case ACL_FLOAT16:
      return "fp16";
    case ACL_BF16:
      return "bf16";
    case ACL_DOUBLE:
      return "fp64";
    case ACL_INT8:
      return "int8";
    case ACL_UINT8:
      return "uint8";
    case ACL_INT16:
      return "int16";
    case ACL_UINT16:
      return "uint16";
    case ACL_INT32:
      return "int32";
    case ACL_UINT32:
      return "uint32";
    case ACL_INT64:
      return "int64";
    case ACL_UINT64:
      return "uint64";
    case ACL_BOOL:
      return "bool";
    case ACL_STRING:
      return "string";
    case ACL_COMPLEX32:
      return "complex32";
    case ACL_COMPLEX64:
      return "complex64";
    case ACL_COMPLEX128:
      return "complex128";
    case ACL_INT4:
      return "int4";
    case ACL_UINT1:
      return "uint1";
    case ACL_HIFLOAT8:
      return "hifloat8";
    case ACL_FLOAT8_E5M2:
      return "fp8_e5m2";
    case ACL_FLOAT8_E4M3FN:
      return "fp8_e4m3fn";
    case ACL_FLOAT8_E8M0:
      return "fp8_e8m0";
    case ACL_FLOAT6_E3M2:
      return "fp6_e3m2";
    case ACL_FLOAT6_E2M3:
      return "fp6_e2m3";
    case ACL_FLOAT4_E2M1:
      return "fp4_e2m1";
    case ACL_FLOAT4_E1M2:
      return "fp4_e1m2";
    case ACL_DT_UNDEFINED:
      return "undefined";
  }
  return "unknown";
}

bool isFloating(aclDataType dt) {
  return dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16 || dt == ACL_DOUBLE;
}

bool isComplex(aclDataType dt) { return dt == ACL_COMPLEX32 || dt == ACL_COMPLEX64 || dt == ACL_COMPLEX128; }

bool isIntegral(aclDataType dt, bool includeBool) {
  switch (dt) {
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_INT16:
    case ACL_UINT16:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_INT64:
    case ACL_UINT64:
      return true;
    case ACL_BOOL:
      return includeBool;
    default:
      return false;
  }
}

namespace {

bool isUnsignedWide(aclDataType dt) { return dt == ACL_UINT16 || dt == ACL_UINT32 || dt == ACL_UINT64; }

// Rank of the signed-integer ladder the table follows: bool < int8/uint8 < int16 < int32 < int64.
int intRank(aclDataType dt) {
  switch (dt) {
    case ACL_BOOL:
      return 0;
    case ACL_INT8:
    case ACL_UINT8:
      return 1;
    case ACL_INT16:
      return 2;
    case ACL_INT32:
      return 3;
    case ACL_INT64:
      return 4;
    default:
      return -1;
  }
}

}  // namespace

aclDataType promoteTypes(aclDataType a, aclDataType b) {
  if (a == b) return a;
  if (isComplex(a) || isComplex(b)) return ACL_DT_UNDEFINED;
  // uint16/32/64 only combine with themselves.
  if (isUnsignedWide(a) || isUnsignedWide(b)) return ACL_DT_UNDEFINED;
  if (a == ACL_DOUBLE || b == ACL_DOUBLE) {
    return (isFloating(a) || isIntegral(a, true)) && (isFloating(b) || isIntegral(b, true))
               ? ACL_DOUBLE
               : ACL_DT_UNDEFINED;
  }
  const bool fa = isFloating(a), fb = isFloating(b);
  if (fa && fb) return ACL_FLOAT;  // fp16/bf16/fp32 mixes (equal types returned above)
  if (fa || fb) {
    aclDataType f = fa ? a : b, o = fa ? b : a;
    return intRank(o) >= 0 ? f : ACL_DT_UNDEFINED;
  }
  int ra = intRank(a), rb = intRank(b);
  if (ra < 0 || rb < 0) return ACL_DT_UNDEFINED;
  if (ra == 0) return b;
  if (rb == 0) return a;
  if (ra == 1 && rb == 1) return ACL_INT16;  // int8 with uint8
  return ra > rb ? a : b;
}

bool canCast(aclDataType from, aclDataType to) {
  if (from == to) return true;
  if (from == ACL_BOOL) return isIntegral(to, false) || isFloating(to) || isComplex(to);
  if (isIntegral(from, false)) return isIntegral(to, false) || isFloating(to) || isComplex(to);
  if (isFloating(from)) return isFloating(to) || isComplex(to);
  if (isComplex(from)) return isComplex(to);
  return false;
}

}  // namespace npusim::aclnn
