#include "runtime/aclnn/ops/binary_op.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numeric>
#include <type_traits>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/broadcast_pair.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/strided_loop.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

namespace {

template <typename T>
bool predicate(BinaryKind kind, T a, T b) {
  switch (kind) {
    case BinaryKind::kEq:
      return a == b;
    case BinaryKind::kNe:
      return a != b;
    case BinaryKind::kGt:
      return a > b;
    case BinaryKind::kGe:
      return a >= b;
    case BinaryKind::kLt:
      return a < b;
    case BinaryKind::kLe:
      return a <= b;
    case BinaryKind::kLogicalAnd:
      return a != T(0) && b != T(0);
    case BinaryKind::kLogicalOr:
      return a != T(0) || b != T(0);
    case BinaryKind::kLogicalXor:
      return (a != T(0)) != (b != T(0));
    default:
      return false;
  }
}

template <typename T>
void combine(BinaryKind kind, T* a, const T* b, int64_t n, T alpha) {
  switch (kind) {
    case BinaryKind::kAdd:
      if (alpha == T(1)) {
        for (int64_t i = 0; i < n; ++i) a[i] = a[i] + b[i];
      } else {
        for (int64_t i = 0; i < n; ++i) a[i] = a[i] + alpha * b[i];
      }
      return;
    case BinaryKind::kAddRelu:  // NaN passes
      for (int64_t i = 0; i < n; ++i) {
        const T r = a[i] + alpha * b[i];
        a[i] = r < T(0) ? T(0) : r;
      }
      return;
    case BinaryKind::kSub:
      if (alpha == T(1)) {
        for (int64_t i = 0; i < n; ++i) a[i] = a[i] - b[i];
      } else {
        for (int64_t i = 0; i < n; ++i) a[i] = a[i] - alpha * b[i];
      }
      return;
    case BinaryKind::kMul:
      for (int64_t i = 0; i < n; ++i) a[i] = a[i] * b[i];
      return;
    case BinaryKind::kDiv:
      for (int64_t i = 0; i < n; ++i) a[i] = a[i] / b[i];
      return;
    case BinaryKind::kMax:  // NaN wins, as torch.maximum
      for (int64_t i = 0; i < n; ++i)
        a[i] = (a[i] != a[i] || b[i] != b[i]) ? a[i] + b[i] : std::max(a[i], b[i]);
      return;
    case BinaryKind::kMin:
      for (int64_t i = 0; i < n; ++i)
        a[i] = (a[i] != a[i] || b[i] != b[i]) ? a[i] + b[i] : std::min(a[i], b[i]);
      return;
    case BinaryKind::kPow:
      for (int64_t i = 0; i < n; ++i) a[i] = std::pow(a[i], b[i]);
      return;
    case BinaryKind::kAtan2:
      for (int64_t i = 0; i < n; ++i) a[i] = std::atan2(a[i], b[i]);
      return;
    case BinaryKind::kFloorDiv:
      for (int64_t i = 0; i < n; ++i) a[i] = std::floor(a[i] / b[i]);
      return;
    case BinaryKind::kTruncDiv:
      for (int64_t i = 0; i < n; ++i) a[i] = std::trunc(a[i] / b[i]);
      return;
    case BinaryKind::kFmod:  // the sign of the dividend (C fmod)
      for (int64_t i = 0; i < n; ++i) a[i] = std::fmod(a[i], b[i]);
      return;
    case BinaryKind::kRemainder:  // the sign of the divisor (Python %)
      for (int64_t i = 0; i < n; ++i) {
        const T r = std::fmod(a[i], b[i]);
        a[i] = r != T(0) && ((r < T(0)) != (b[i] < T(0))) ? r + b[i] : r;
      }
      return;
    case BinaryKind::kXlogy:  // 0 where x is 0 (even for y = 0), nan where y is nan
      for (int64_t i = 0; i < n; ++i)
        a[i] = b[i] != b[i] ? b[i] : a[i] == T(0) ? T(0) : a[i] * std::log(b[i]);
      return;
    case BinaryKind::kLogAddExp:  // m + ln(1 + e^-|a-b|), m = max(a, b); equal infinities give m
    case BinaryKind::kLogAddExp2:
      for (int64_t i = 0; i < n; ++i) {
        const T m = std::max(a[i], b[i]), d = -std::fabs(a[i] - b[i]);
        if (a[i] != a[i] || b[i] != b[i])
          a[i] = a[i] + b[i];
        else if (std::isinf(m) || d != d)
          a[i] = m;
        else
          a[i] = kind == BinaryKind::kLogAddExp ? m + std::log1p(std::exp(d))
                                                : m + std::log2(T(1) + std::exp2(d));
      }
      return;
    case BinaryKind::kHeaviside:  // NaN stays NaN
      for (int64_t i = 0; i < n; ++i)
        a[i] = a[i] < T(0) ? T(0) : a[i] > T(0) ? T(1) : a[i] == T(0) ? b[i] : a[i];
      return;
    case BinaryKind::kGcd:  // not reached: integers only
    case BinaryKind::kLeftShift:
    case BinaryKind::kRightShift:
    case BinaryKind::kBitAnd:  // not reached: the bitwise operators accept integers and bool only
    case BinaryKind::kBitOr:
    case BinaryKind::kBitXor:
      return;
    default:
      for (int64_t i = 0; i < n; ++i) a[i] = predicate(kind, a[i], b[i]) ? T(1) : T(0);
      return;
  }
}

// x^e in wrapping integer arithmetic (square and multiply); a negative e gives 1/x truncated:
// 1 for x = 1, +-1 for x = -1, else 0.
uint64_t intPow(int64_t x, int64_t e) {
  if (e < 0) return x == 1 ? 1 : x == -1 ? static_cast<uint64_t>((e & 1) ? -1 : 1) : 0;
  uint64_t r = 1, b = static_cast<uint64_t>(x);
  for (uint64_t k = static_cast<uint64_t>(e); k != 0; k >>= 1, b *= b) {
    if (k & 1) r *= b;
  }
  return r;
}

// Integer arithmetic wraps (two's complement), so it is done on uint64_t.
// bits: the width of the compute type (the shifts' valid counts).
void combineInt(BinaryKind kind, int64_t* a, const int64_t* b, int64_t n, int64_t alpha, int64_t bits) {
  const uint64_t al = static_cast<uint64_t>(alpha);
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t x = static_cast<uint64_t>(a[i]), y = static_cast<uint64_t>(b[i]);
    uint64_t r = 0;
    switch (kind) {
      case BinaryKind::kAdd:
        r = x + al * y;
        break;
      case BinaryKind::kAddRelu:
        r = x + al * y;
        if (static_cast<int64_t>(r) < 0) r = 0;
        break;
      case BinaryKind::kSub:
        r = x - al * y;
        break;
      case BinaryKind::kMul:
        r = x * y;
        break;
      case BinaryKind::kDiv:  // not reached: integer division is computed in fp32
        r = y == 0 ? 0 : static_cast<uint64_t>(a[i] / b[i]);
        break;
      case BinaryKind::kMax:
        r = static_cast<uint64_t>(std::max(a[i], b[i]));
        break;
      case BinaryKind::kMin:
        r = static_cast<uint64_t>(std::min(a[i], b[i]));
        break;
      case BinaryKind::kPow:
        r = intPow(a[i], b[i]);
        break;
      case BinaryKind::kGcd:  // non-negative; gcd(0, 0) = 0
        r = static_cast<uint64_t>(std::gcd(a[i], b[i]));
        break;
      case BinaryKind::kLeftShift:  // bits shifted past the type's width are lost when stored
        r = b[i] < 0 || b[i] >= bits ? 0 : x << b[i];
        break;
      case BinaryKind::kRightShift:  // arithmetic; a count outside [0, bits) gives the sign fill
        r = static_cast<uint64_t>(b[i] < 0 || b[i] >= bits ? (a[i] < 0 ? -1 : 0) : a[i] >> b[i]);
        break;
      case BinaryKind::kHeaviside:  // not reached: floating types only
      case BinaryKind::kLogAddExp:  // not reached: computed in fp32
      case BinaryKind::kLogAddExp2:
      case BinaryKind::kAtan2:  // not reached: computed in fp32
      case BinaryKind::kXlogy:
        break;
      case BinaryKind::kFloorDiv: {  // rounds toward -inf; x / 0 gives 0 (the device raises no error)
        if (b[i] == 0) break;
        if (b[i] == -1) {  // INT64_MIN / -1 wraps
          r = 0 - x;
          break;
        }
        const int64_t q = a[i] / b[i];
        r = static_cast<uint64_t>(q - ((a[i] % b[i] != 0) && ((a[i] < 0) != (b[i] < 0)) ? 1 : 0));
        break;
      }
      case BinaryKind::kTruncDiv:  // x / 0 gives 0 as kFloorDiv; INT64_MIN / -1 wraps
        r = b[i] == 0 ? 0 : b[i] == -1 ? 0 - x : static_cast<uint64_t>(a[i] / b[i]);
        break;
      case BinaryKind::kFmod:
        r = b[i] == 0 || b[i] == -1 ? 0 : static_cast<uint64_t>(a[i] % b[i]);
        break;
      case BinaryKind::kRemainder: {
        if (b[i] == 0 || b[i] == -1) break;
        const int64_t m = a[i] % b[i];
        r = static_cast<uint64_t>(m != 0 && ((m < 0) != (b[i] < 0)) ? m + b[i] : m);
        break;
      }
      case BinaryKind::kBitAnd:
        r = x & y;
        break;
      case BinaryKind::kBitOr:
        r = x | y;
        break;
      case BinaryKind::kBitXor:
        r = x ^ y;
        break;
      default:
        r = predicate(kind, a[i], b[i]) ? 1 : 0;
        break;
    }
    a[i] = static_cast<int64_t>(r);
  }
}

template <typename T>
void runRows(const BinarySpec& spec, const HostTensor& self, const HostTensor& other, const HostTensor& out,
             T alpha) {
  forEachBroadcastPair<T>(out, self, other, spec.calcType, [&](T* a, const T* b, int64_t m) {
    if (spec.kind == BinaryKind::kCustom) {
      for (int64_t i = 0; i < m; ++i) {
        if constexpr (std::is_same_v<T, int64_t>)
          a[i] = spec.fn->i(a[i], b[i]);
        else
          a[i] = static_cast<T>(spec.fn->f(static_cast<double>(a[i]), static_cast<double>(b[i])));
      }
      return;
    }
    if constexpr (std::is_same_v<T, int64_t>) {
      combineInt(spec.kind, a, b, m, alpha, 8 * static_cast<int64_t>(dtypeSize(spec.calcType)));
    } else {
      combine<T>(spec.kind, a, b, m, alpha);
    }
  });
}

class BinaryInstance : public OpInstanceBase<BinaryInstance> {
 public:
  BinarySpec spec;
  bool scalarOther = false;
  unsigned char scalarBytes[16] = {};  // `other` as a value of spec.calcType (scalar variants)

  rt::OpWork work() const override {
    std::vector<TensorDesc> reads = inputs;
    int casts = 0;
    for (const TensorDesc& d : inputs) casts += d.dtype != spec.calcType ? 1 : 0;
    casts += outputs[0].dtype != spec.calcType ? 1 : 0;
    // pow = exp(b * ln a): ln, multiply and exp are three vector passes where the others take one.
    if (spec.kind == BinaryKind::kPow) casts += 2;
    // log-add-exp: max, difference, abs, exp, log1p and add; gcd: Euclid's remainder steps.
    if (spec.kind == BinaryKind::kLogAddExp || spec.kind == BinaryKind::kLogAddExp2) casts += 5;
    if (spec.kind == BinaryKind::kGcd) casts += 8;
    if (spec.kind == BinaryKind::kAddRelu) casts += 1;  // the max with 0 after the add
    if (spec.kind == BinaryKind::kCustom) casts += spec.fn->passes - 1;
    return vectorTiles(VectorPass{&reads, &outputs[0], outputs[0].numel(), casts});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (scalarOther) {
      HostTensor s;
      s.dtype = spec.calcType;
      s.data = const_cast<char*>(reinterpret_cast<const char*>(scalarBytes));
      binaryKernel(spec, in[0], s, out[0]);
    } else {
      binaryKernel(spec, in[0], in[1], out[0]);
    }
  }
};

// Type the device computes in. Sub widens fp16/bf16 to fp32 when alpha != 1 (ops-math
// aclnn_sub.cpp on 910B); Add/Mul compute in the promoted type.
aclDataType calcTypeFor(BinaryKind kind, aclDataType promoted, const aclScalar* alpha,
                        const BinaryFn* fn = nullptr) {
  if (kind == BinaryKind::kCustom && fn->i == nullptr && !isFloating(promoted)) return ACL_FLOAT;
  if ((kind == BinaryKind::kDiv || kind == BinaryKind::kAtan2 || kind == BinaryKind::kXlogy ||
       kind == BinaryKind::kLogAddExp || kind == BinaryKind::kLogAddExp2) &&
      !isFloating(promoted))
    return ACL_FLOAT;
  if (kind == BinaryKind::kSub && alpha != nullptr && isFloating(promoted) &&
      alpha->value.toDouble() != 1.0) {
    return promoted == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT;
  }
  return promoted;
}

// 161001 naming the first null of self, other, alpha (for the operators that take one) and out.
int32_t checkOperandsNotNull(const BinaryApi& a, const char* selfName, const aclTensor* self,
                             const void* other, const aclScalar* alpha, const aclTensor* out) {
  return a.hasAlpha
             ? checkNotNull(a.api, {{selfName, self}, {"other", other}, {"alpha", alpha}, {"out", out}})
             : checkNotNull(a.api, {{selfName, self}, {"other", other}, {"out", out}});
}

int32_t checkAlpha(const char* api, const aclScalar* alpha, aclDataType promoted) {
  if (alpha == nullptr) return kSuccess;
  const aclDataType at = alpha->value.dtype;
  const bool ok = promoted == ACL_BOOL ? isIntegral(at, true) : canCast(at, promoted);
  if (ok) return kSuccess;
  return fail(api, kErrParamInvalid,
              fmt::format("alpha of type {} cannot be cast to the promoted type {}", dtypeName(at),
                          dtypeName(promoted)));
}

int32_t checkBitwise(const char* api, BinaryKind kind, aclDataType promoted) {
  const bool bitwise = kind == BinaryKind::kBitAnd || kind == BinaryKind::kBitOr ||
                       kind == BinaryKind::kBitXor || kind == BinaryKind::kLeftShift ||
                       kind == BinaryKind::kRightShift;
  if (!bitwise || isIntegral(promoted, true)) return kSuccess;
  return fail(api, kErrParamInvalid,
              fmt::format("bitwise operators take integer or bool operands, not {}", dtypeName(promoted)));
}

int32_t checkOutCast(const char* api, BinaryKind kind, aclDataType promoted, aclDataType outType) {
  if (isPredicate(kind) || canCast(promoted, outType)) return kSuccess;
  return fail(api, kErrParamInvalid,
              fmt::format("the promoted type {} cannot be cast to out's type {}", dtypeName(promoted),
                          dtypeName(outType)));
}

std::unique_ptr<BinaryInstance> newInstance(const BinaryApi& a, const aclTensor* self, const aclTensor* out,
                                            const aclScalar* alpha, aclDataType promoted, bool inplace) {
  auto inst = std::make_unique<BinaryInstance>();
  inst->name = a.opName;
  inst->spec.kind = a.kind;
  inst->spec.fn = a.fn;
  inst->spec.calcType = calcTypeFor(a.kind, promoted, alpha, a.fn);
  if (alpha != nullptr) {
    inst->spec.alpha = alpha->value.toDouble();
    inst->spec.alphaInt = alpha->value.toInt64();
    inst->attrs = "alpha=" + alpha->value.str();
  }
  inst->inputs.push_back(self->desc);
  inst->inputNames.push_back(inplace ? "selfRef" : "self");
  inst->outputs.push_back(out->desc);
  inst->outputNames.push_back(inplace ? "selfRef" : "out");
  inst->outputAlias.push_back(inplace ? 0 : -1);
  return inst;
}

// Writes scalar `v` as one element of type `to` (integer targets via int64, others via double).
void convertScalar(const ScalarValue& v, aclDataType to, unsigned char* dst) {
  if (isIntegral(to, true)) {
    const int64_t i = v.toInt64();
    storeRow(to, reinterpret_cast<char*>(dst), 0, 1, &i);
  } else {
    const double d = v.toDouble();
    storeRow(to, reinterpret_cast<char*>(dst), 0, 1, &d);
  }
}

}  // namespace

void binaryKernel(const BinarySpec& spec, const HostTensor& self, const HostTensor& other,
                  const HostTensor& out) {
  if (out.numel() == 0) return;
  switch (calcFor(spec.calcType)) {
    case Calc::kF32:
      runRows<float>(spec, self, other, out, static_cast<float>(spec.alpha));
      break;
    case Calc::kF64:
      runRows<double>(spec, self, other, out, spec.alpha);
      break;
    case Calc::kI64:
      runRows<int64_t>(spec, self, other, out, spec.alphaInt);
      break;
  }
}

int32_t buildBinary(const BinaryApi& a, const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                    const aclTensor* out, bool inplace, uint64_t* workspaceSize, aclOpExecutor** executor) {
  rt::chargeOpPrepare(a.api);
  const char* selfName = inplace ? "selfRef" : "self";
  int32_t st = checkOperandsNotNull(a, selfName, self, other, alpha, out);
  if (st != kSuccess) return st;
  if ((st = checkTensor(a.api, selfName, self->desc)) != kSuccess) return st;
  if ((st = checkTensor(a.api, "other", other->desc)) != kSuccess) return st;
  if (!inplace && (st = checkTensor(a.api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(a.api, selfName, self->desc.dtype, *a.info)) != kSuccess) return st;
  if ((st = checkDtype(a.api, "other", other->desc.dtype, *a.info)) != kSuccess) return st;
  if (!inplace && (st = checkDtype(a.api, "out", out->desc.dtype, *a.info)) != kSuccess) return st;

  const aclDataType promoted = promoteTypes(self->desc.dtype, other->desc.dtype);
  if (promoted == ACL_DT_UNDEFINED) {
    return fail(a.api, kErrParamInvalid,
                fmt::format("{} type {} and other type {} cannot be promoted to a common type", selfName,
                            dtypeName(self->desc.dtype), dtypeName(other->desc.dtype)));
  }
  if ((st = checkAlpha(a.api, a.hasAlpha ? alpha : nullptr, promoted)) != kSuccess) return st;
  if ((st = checkBitwise(a.api, a.kind, promoted)) != kSuccess) return st;
  if ((st = checkOutCast(a.api, a.kind, calcTypeFor(a.kind, promoted, nullptr, a.fn), out->desc.dtype)) !=
      kSuccess)
    return st;

  std::vector<int64_t> shape;
  if (!broadcastShapes(self->desc.shape, other->desc.shape, &shape)) {
    return fail(a.api, kErrParamInvalid,
                fmt::format("{} shape {} and other shape {} are not broadcastable", selfName,
                            shapeString(self->desc.shape), shapeString(other->desc.shape)));
  }
  if ((st = checkShape(a.api, inplace ? "selfRef (the broadcast result)" : "out", out->desc.shape, shape)) !=
      kSuccess) {
    return st;
  }

  auto inst = newInstance(a, self, out, a.hasAlpha ? alpha : nullptr, promoted, inplace);
  inst->inputs.insert(inst->inputs.begin() + 1, other->desc);
  inst->inputNames.insert(inst->inputNames.begin() + 1, "other");
  return makeExecutor(a.api, std::move(inst), workspaceSize, executor);
}

int32_t buildBinaryScalar(const BinaryApi& a, const aclTensor* self, const aclScalar* other,
                          const aclScalar* alpha, const aclTensor* out, bool inplace, uint64_t* workspaceSize,
                          aclOpExecutor** executor) {
  rt::chargeOpPrepare(a.api);
  const char* selfName = inplace ? "selfRef" : "self";
  int32_t st = checkOperandsNotNull(a, selfName, self, other, alpha, out);
  if (st != kSuccess) return st;
  if ((st = checkTensor(a.api, selfName, self->desc)) != kSuccess) return st;
  if (!inplace && (st = checkTensor(a.api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(a.api, selfName, self->desc.dtype, *a.info)) != kSuccess) return st;
  if (!inplace && (st = checkDtype(a.api, "out", out->desc.dtype, *a.info)) != kSuccess) return st;
  const aclDataType sd = self->desc.dtype, od = other->value.dtype;
  if (isComplex(od) || dtypeSize(od) == 0) {
    return fail(a.api, kErrParamInvalid,
                fmt::format("scalar other of type {} is not supported", dtypeName(od)));
  }

  // Tensor-scalar promotion of ops-math aclnn_add.cpp (PromoteTypeScalar, non-regbase path):
  // a float tensor keeps its type; otherwise a float scalar (or a bool tensor) promotes.
  aclDataType promoted = sd;
  if (!isFloating(sd)) {
    if (od == ACL_DOUBLE && out->desc.dtype == ACL_FLOAT)
      promoted = ACL_FLOAT;
    else if (isFloating(od) || sd == ACL_BOOL)
      promoted = promoteTypes(sd, od);
  }
  if (promoted == ACL_DT_UNDEFINED) {
    return fail(a.api, kErrParamInvalid,
                fmt::format("{} type {} and scalar type {} cannot be promoted", selfName, dtypeName(sd),
                            dtypeName(od)));
  }
  if ((st = checkAlpha(a.api, a.hasAlpha ? alpha : nullptr, promoted)) != kSuccess) return st;
  if ((st = checkBitwise(a.api, a.kind, promoted)) != kSuccess) return st;
  if ((st = checkOutCast(a.api, a.kind, calcTypeFor(a.kind, promoted, nullptr, a.fn), out->desc.dtype)) !=
      kSuccess)
    return st;
  if ((st = checkShape(a.api, "out", out->desc.shape, self->desc.shape)) != kSuccess) return st;

  auto inst = newInstance(a, self, out, a.hasAlpha ? alpha : nullptr, promoted, inplace);
  inst->scalarOther = true;
  // The scalar becomes a one-element tensor: first rounded into the promoted type (the
  // device's ConvertToTensor), then widened to the compute type.
  unsigned char promotedBytes[16] = {};
  convertScalar(other->value, promoted, promotedBytes);
  ScalarValue rounded;
  rounded.dtype = promoted;
  std::memcpy(rounded.bytes, promotedBytes, sizeof promotedBytes);
  convertScalar(rounded, inst->spec.calcType, inst->scalarBytes);
  inst->attrs = fmt::format("other={}{}", other->value.str(), inst->attrs.empty() ? "" : ", " + inst->attrs);
  return makeExecutor(a.api, std::move(inst), workspaceSize, executor);
}

}  // namespace npusim::aclnn
