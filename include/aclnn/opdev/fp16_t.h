/*
 * npusim: op::fp16_t, the IEEE 754 binary16 value type of CANN's operator development headers
 * (aclnn/opdev/fp16_t.h), as the public operator examples use it: built from any arithmetic
 * value (rounded to nearest, ties to even), converted back with static_cast, arithmetic and
 * comparisons through float, the 16-bit pattern in the public member `val` (sizeof == 2, so a
 * std::vector<op::fp16_t> is an fp16 tensor's host buffer). Header-only.
 */
#ifndef NPUSIM_INCLUDE_ACLNN_OPDEV_FP16_T_H_
#define NPUSIM_INCLUDE_ACLNN_OPDEV_FP16_T_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace op {

struct fp16_t {
  uint16_t val = 0;  // the binary16 bit pattern: 1 sign, 5 exponent (bias 15), 10 mantissa bits

  fp16_t() = default;
  template <typename T, typename = std::enable_if_t<std::is_arithmetic<T>::value>>
  fp16_t(T value) : val(FromFloat(static_cast<float>(value))) {}  // NOLINT: implicit, as CANN's

  float ToFloat() const { return ToFloat(val); }
  double ToDouble() const { return static_cast<double>(ToFloat(val)); }
  template <typename T, typename = std::enable_if_t<std::is_arithmetic<T>::value>>
  explicit operator T() const {
    return static_cast<T>(ToFloat(val));
  }

  bool IsInf() const { return (val & 0x7FFFu) == 0x7C00u; }
  bool IsNan() const { return (val & 0x7C00u) == 0x7C00u && (val & 0x03FFu) != 0; }

  fp16_t operator-() const {
    fp16_t r;
    r.val = static_cast<uint16_t>(val ^ 0x8000u);
    return r;
  }
  fp16_t& operator+=(fp16_t o) { return *this = fp16_t(ToFloat() + o.ToFloat()); }
  fp16_t& operator-=(fp16_t o) { return *this = fp16_t(ToFloat() - o.ToFloat()); }
  fp16_t& operator*=(fp16_t o) { return *this = fp16_t(ToFloat() * o.ToFloat()); }
  fp16_t& operator/=(fp16_t o) { return *this = fp16_t(ToFloat() / o.ToFloat()); }
  friend fp16_t operator+(fp16_t a, fp16_t b) { return a += b; }
  friend fp16_t operator-(fp16_t a, fp16_t b) { return a -= b; }
  friend fp16_t operator*(fp16_t a, fp16_t b) { return a *= b; }
  friend fp16_t operator/(fp16_t a, fp16_t b) { return a /= b; }
  friend bool operator==(fp16_t a, fp16_t b) { return a.ToFloat() == b.ToFloat(); }
  friend bool operator!=(fp16_t a, fp16_t b) { return a.ToFloat() != b.ToFloat(); }
  friend bool operator<(fp16_t a, fp16_t b) { return a.ToFloat() < b.ToFloat(); }
  friend bool operator<=(fp16_t a, fp16_t b) { return a.ToFloat() <= b.ToFloat(); }
  friend bool operator>(fp16_t a, fp16_t b) { return a.ToFloat() > b.ToFloat(); }
  friend bool operator>=(fp16_t a, fp16_t b) { return a.ToFloat() >= b.ToFloat(); }

  // binary32 -> binary16, round to nearest even; overflow gives infinity, NaN stays NaN.
  static uint16_t FromFloat(float f) {
    uint32_t x = 0;
    std::memcpy(&x, &f, sizeof x);
    const auto sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    const uint32_t absBits = x & 0x7FFFFFFFu;
    if (absBits >= 0x7F800000u) {  // infinity or NaN
      return static_cast<uint16_t>(sign | 0x7C00u | (absBits > 0x7F800000u ? 0x0200u : 0u));
    }
    const int exp = static_cast<int>(absBits >> 23) - 127 + 15;
    uint32_t mant = absBits & 0x007FFFFFu;
    if (exp >= 31) return static_cast<uint16_t>(sign | 0x7C00u);
    int shift = 13;  // drop 13 of the 23 mantissa bits
    uint32_t base = 0;
    if (exp <= 0) {  // subnormal half (or zero): the implicit 1 joins the shifted mantissa
      if (exp < -10) return sign;
      mant |= 0x00800000u;
      shift = 14 - exp;
    } else {
      base = static_cast<uint32_t>(exp) << 10;
    }
    uint32_t half = base + (mant >> shift);
    const uint32_t rest = mant & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u) != 0)) ++half;  // may carry into the exponent
    return static_cast<uint16_t>(sign | half);
  }

  // binary16 -> binary32 (exact).
  static float ToFloat(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1Fu, mant = h & 0x03FFu, bits = 0;
    if (exp == 0x1Fu) {
      bits = sign | 0x7F800000u | (mant << 13);
    } else if (exp != 0) {
      bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
    } else if (mant == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      exp = 127 - 15 + 1;
      while ((mant & 0x0400u) == 0) {
        mant <<= 1;
        --exp;
      }
      bits = sign | (exp << 23) | ((mant & 0x03FFu) << 13);
    }
    float f = 0;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
};

static_assert(sizeof(fp16_t) == 2, "fp16_t is the 16-bit storage of an fp16 element");

}  // namespace op

#endif /* NPUSIM_INCLUDE_ACLNN_OPDEV_FP16_T_H_ */
