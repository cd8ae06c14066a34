#pragma once
// Reading the 64-bit quantisation parameter the cube's fixpipe takes (the format
// aclnnTransQuantParam writes, trans_quant_param.cpp): the fp32 scale in the low 32 bits with
// its 13 lowest mantissa bits cleared, a 9-bit signed offset in bits 37..45.
#include <cstdint>
#include <cstring>

namespace npusim::aclnn {

inline float quantParamScale(uint64_t param) {
  const auto bits = static_cast<uint32_t>(param & 0xFFFFE000u);
  float s;
  std::memcpy(&s, &bits, 4);
  return s;
}

inline int quantParamOffset(uint64_t param) {
  const auto o = static_cast<int>((param >> 37) & 0x1FF);
  return o >= 256 ? o - 512 : o;
}

}  // namespace npusim::aclnn
