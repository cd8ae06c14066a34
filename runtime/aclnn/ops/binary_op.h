#pragma once
// Shared machinery of the binary operators (aclnnAdd, aclnnSub, aclnnMul, aclnnDiv, aclnnMaximum,
// aclnnMinimum, aclnnPow*, aclnnAtan2, the comparisons and logical operators of
// binary_predicates.cpp, and their Inplace / scalar variants): argument checks with type promotion and
// broadcasting, the functional kernel over strided host views, and the vector tiling.
#include <cstdint>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/base/op_instance.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

enum class BinaryKind {
  kAdd,
  kAddRelu,  // max(self + alpha * other, 0)
  kSub,
  kMul,
  kDiv,
  kMax,
  kMin,
  kPow,
  kAtan2,
  kFloorDiv,
  kTruncDiv,  // the quotient rounded toward zero (aclnnDivV3 mode 1)
  kFmod,
  kRemainder,
  kXlogy,
  kBitAnd,
  kBitOr,
  kBitXor,
  kLogAddExp,   // ln(e^self + e^other)
  kLogAddExp2,  // log2(2^self + 2^other)
  kGcd,         // integers only
  kHeaviside,   // 0 below 0, other at 0, 1 above
  kLeftShift,   // integers only; counts outside [0, type width) give 0 (left) or the sign (right)
  kRightShift,
  kCustom,  // the operator's own element function (BinaryFn)
  // results 1 or 0, written in out's type whatever the promoted type:
  kEq,
  kNe,
  kGt,
  kGe,
  kLt,
  kLe,
  kLogicalAnd,
  kLogicalOr,
  kLogicalXor
};

// Comparisons and logical operators: out holds 1 or 0 in any type (bool usually).
inline bool isPredicate(BinaryKind k) { return k >= BinaryKind::kEq; }

// Element function of a kCustom operator (the experimental variants of issue 28: TruncateDiv,
// MulNoNan, ...): floating types are computed in fp64 and rounded to the compute type.
struct BinaryFn {
  double (*f)(double a, double b);
  int64_t (*i)(int64_t a, int64_t b) = nullptr;  // integers (nullptr: they are computed in fp32)
  int passes = 1;                                // vector instructions per element (cost model)
};

struct BinarySpec {
  BinaryKind kind = BinaryKind::kAdd;
  const BinaryFn* fn = nullptr;      // kCustom only
  aclDataType calcType = ACL_FLOAT;  // type the device computes in (result is rounded to it)
  double alpha = 1.0;                // scale of `other` (Add/Sub), float compute types
  int64_t alphaInt = 1;              // scale of `other` (Add/Sub), integer compute types
};

// out = self + alpha*other (Add), self - alpha*other (Sub), self * other (Mul), self ^ other
// (Pow), ... element by
// element over the broadcast of self and other, converting through spec.calcType.
void binaryKernel(const BinarySpec& spec, const HostTensor& self, const HostTensor& other,
                  const HostTensor& out);

struct BinaryApi {
  const char* api;     // phase-1 name for messages, e.g. "aclnnAddGetWorkspaceSize"
  const char* opName;  // phase-2 name, e.g. "aclnnAdd"
  const OpInfo* info;  // registry entry (accepted dtypes)
  BinaryKind kind;
  bool hasAlpha;
  const BinaryFn* fn = nullptr;  // kCustom only
};

// Phase 1 with a tensor `other`. `out` may be `self` (in-place); `inplace` applies the in-place
// shape rule (the broadcast shape must be self's shape).
int32_t buildBinary(const BinaryApi& a, const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                    const aclTensor* out, bool inplace, uint64_t* workspaceSize, aclOpExecutor** executor);

// Phase 1 with a host scalar `other` (aclnnAdds, aclnnMuls, ...).
int32_t buildBinaryScalar(const BinaryApi& a, const aclTensor* self, const aclScalar* other,
                          const aclScalar* alpha, const aclTensor* out, bool inplace, uint64_t* workspaceSize,
                          aclOpExecutor** executor);

}  // namespace npusim::aclnn

// aclnn<Name>(self, other[, alpha], out) and its in-place form aclnnInplace<Name>(selfRef, other[, alpha]);
// other is a tensor (Build = buildBinary) or a host scalar (Build = buildBinaryScalar). AlphaParam
// is empty (alphaArg nullptr, hasAlpha false), or NPUSIM_ACLNN_ALPHA_PARAM for the operators that
// scale other by alpha (alphaArg alpha, hasAlpha true).
#define NPUSIM_ACLNN_ALPHA_PARAM , const aclScalar* alpha
#define NPUSIM_ACLNN_BINARY_FORMS(Name, Info, Kind, RefT, OtherT, Build, AlphaParam, alphaArg, hasAlpha)     \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* self,                                \
                                                       const OtherT* other AlphaParam, aclTensor* out,       \
                                                       uint64_t* ws, aclOpExecutor** ex) {                   \
    return npusim::aclnn::Build({"aclnn" #Name "GetWorkspaceSize", "aclnn" #Name, &npusim::aclnn::Info,      \
                                 npusim::aclnn::BinaryKind::Kind, hasAlpha},                                 \
                                self, other, alphaArg, out, false, ws, ex);                                  \
  }                                                                                                          \
  NPUSIM_ACLNN_PHASE2(Name)                                                                                  \
  extern "C" aclnnStatus aclnnInplace##Name##GetWorkspaceSize(RefT* selfRef, const OtherT* other AlphaParam, \
                                                              uint64_t* ws, aclOpExecutor** ex) {            \
    return npusim::aclnn::Build({"aclnnInplace" #Name "GetWorkspaceSize", "aclnnInplace" #Name,              \
                                 &npusim::aclnn::Info, npusim::aclnn::BinaryKind::Kind, hasAlpha},           \
                                selfRef, other, alphaArg, selfRef, true, ws, ex);                            \
  }                                                                                                          \
  NPUSIM_ACLNN_PHASE2(Inplace##Name)
#define NPUSIM_ACLNN_BINARY_TENSOR(Name, Info, Kind, RefT) \
  NPUSIM_ACLNN_BINARY_FORMS(Name, Info, Kind, RefT, aclTensor, buildBinary, , nullptr, false)
#define NPUSIM_ACLNN_BINARY_SCALAR(Name, Info, Kind, RefT) \
  NPUSIM_ACLNN_BINARY_FORMS(Name, Info, Kind, RefT, aclScalar, buildBinaryScalar, , nullptr, false)
#define NPUSIM_ACLNN_BINARY_ALPHA_TENSOR(Name, Info, Kind, RefT)                                             \
  NPUSIM_ACLNN_BINARY_FORMS(Name, Info, Kind, RefT, aclTensor, buildBinary, NPUSIM_ACLNN_ALPHA_PARAM, alpha, \
                            true)
#define NPUSIM_ACLNN_BINARY_ALPHA_SCALAR(Name, Info, Kind, RefT)                                            \
  NPUSIM_ACLNN_BINARY_FORMS(Name, Info, Kind, RefT, aclScalar, buildBinaryScalar, NPUSIM_ACLNN_ALPHA_PARAM, \
                            alpha, true)

// aclnn<Name>(self, other, out): out of place only, no alpha; OutT is out's type as the public
// header spells it, `fn` a kCustom operator's element function (else nullptr).
#define NPUSIM_ACLNN_BINARY_OUT_OF_PLACE(Name, Info, Kind, OutT, fn)                                      \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* self, const aclTensor* other,     \
                                                       OutT* out, uint64_t* ws, aclOpExecutor** ex) {     \
    return npusim::aclnn::buildBinary({"aclnn" #Name "GetWorkspaceSize", "aclnn" #Name,                   \
                                       &npusim::aclnn::Info, npusim::aclnn::BinaryKind::Kind, false, fn}, \
                                      self, other, nullptr, out, false, ws, ex);                          \
  }                                                                                                       \
  NPUSIM_ACLNN_PHASE2(Name)
