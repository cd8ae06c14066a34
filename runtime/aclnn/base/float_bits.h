#pragma once
// Bit-exact conversions between fp32/fp64 and the narrow float formats the NPU uses:
// IEEE binary16 (fp16), bfloat16 and HF32 (fp32 range, 11 stored mantissa bits; the cube's
// reduced-precision fp32 mode, see CANN ATC "--allow_hf32"). Narrowing rounds to nearest,
// ties to even (the device default); NaN stays NaN and overflow gives infinity.
#include <cstdint>
#include <cstring>

namespace npusim::aclnn {

inline uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// v >> s rounded to nearest, ties to even (1 <= s <= 31).
inline uint32_t shiftRoundEven(uint32_t v, unsigned s) {
  const uint32_t q = v >> s;
  const uint32_t rem = v & ((1u << s) - 1u);
  const uint32_t half = 1u << (s - 1u);
  return q + ((rem > half || (rem == half && (q & 1u))) ? 1u : 0u);
}

inline float halfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t man = h & 0x3ffu;
  if (exp - 1u < 30u) return bitsFloat(sign | ((exp + 112u) << 23) | (man << 13));  // normal: rebias
  if (exp == 0) {
    // Zero or subnormal: man * 2^-24 is exact in fp32.
    const float mag = static_cast<float>(man) * 5.9604644775390625e-08f;
    return bitsFloat(floatBits(mag) | sign);
  }
  return bitsFloat(sign | 0x7f800000u | (man << 13));  // inf or NaN
}

inline uint16_t floatToHalf(float f) {
  const uint32_t x = floatBits(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t mag = x & 0x7fffffffu;
  if (mag >= 0x7f800000u) {  // inf or NaN (keep NaN quiet and non-zero)
    return mag == 0x7f800000u ? static_cast<uint16_t>(sign | 0x7c00u)
                              : static_cast<uint16_t>(sign | 0x7e00u | ((mag >> 13) & 0x3ffu));
  }
  const int e = static_cast<int>(mag >> 23);  // biased fp32 exponent
  if (e > 127 + 15) return static_cast<uint16_t>(sign | 0x7c00u);
  if (e >= 127 - 14) {
    // Normal range: rebias and round to nearest even without a data-dependent branch (adding
    // 0xfff plus the kept lowest bit carries exactly when the dropped part is above half, or half
    // with an odd result); a carry out of the mantissa bumps the exponent (maybe to inf).
    const uint32_t rebased = mag - (static_cast<uint32_t>(127 - 15) << 23);
    return static_cast<uint16_t>(sign | ((rebased + 0xfffu + ((rebased >> 13) & 1u)) >> 13));
  }
  // Subnormal half: count units of 2^-24; value = m * 2^(e-150) so count = m >> (126 - e).
  // Anything below 2^-25 (including fp32 subnormals, e == 0) rounds to zero.
  const unsigned shift = static_cast<unsigned>(126 - e);
  if (shift > 24) return sign;
  const uint32_t m = (mag & 0x7fffffu) | 0x800000u;
  return static_cast<uint16_t>(sign | shiftRoundEven(m, shift));
}

inline float bf16ToFloat(uint16_t b) { return bitsFloat(static_cast<uint32_t>(b) << 16); }

inline uint16_t floatToBf16(float f) {
  const uint32_t x = floatBits(f);
  const uint32_t sign = x & 0x80000000u;
  const uint32_t mag = x & 0x7fffffffu;
  if (mag > 0x7f800000u) return static_cast<uint16_t>((sign >> 16) | 0x7fc0u | ((mag >> 16) & 0x7fu));
  return static_cast<uint16_t>((sign >> 16) | shiftRoundEven(mag, 16));
}

// Rounds an fp32 value to HF32 precision (the result is still an fp32 value).
inline float roundToHf32(float f) {
  const uint32_t x = floatBits(f);
  const uint32_t sign = x & 0x80000000u;
  const uint32_t mag = x & 0x7fffffffu;
  if (mag >= 0x7f800000u) return f;
  return bitsFloat(sign | (shiftRoundEven(mag, 12) << 12));
}

// fp64 -> fp32 rounded to odd: narrowing that afterwards to fp16/bf16 (<= 22 bits) is then
// correctly rounded, with no double-rounding error.
inline float doubleToFloatOdd(double d) {
  float r = static_cast<float>(d);
  const double back = static_cast<double>(r);
  if (back == d || d != d) return r;
  uint32_t u = floatBits(r);
  if ((back > d) == (d > 0)) u -= 1;  // rounded away from zero: step back towards zero
  return bitsFloat(u | 1u);
}

inline uint16_t doubleToHalf(double d) { return floatToHalf(doubleToFloatOdd(d)); }
inline uint16_t doubleToBf16(double d) { return floatToBf16(doubleToFloatOdd(d)); }

}  // namespace npusim::aclnn
