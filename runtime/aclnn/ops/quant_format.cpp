// Rounding, saturation and int4 packing of the quantisation operators (quant_format.h).
#include "runtime/aclnn/ops/quant_format.h"

#include <algorithm>
#include <cstring>

namespace npusim::aclnn {

bool quantFormatOf(aclDataType dt, QuantFormat* f) {
  if (dt == ACL_INT8) {
    *f = {ACL_INT8, 8};
    return true;
  }
  if (dt == ACL_INT32 || dt == ACL_INT4) {
    *f = {ACL_INT32, 4};
    return true;
  }
  return false;
}

bool parseRoundMode(const char* name, RoundMode* mode) {
  if (name == nullptr) return false;
  const std::string s(name);
  if (s == "round") {
    *mode = RoundMode::kRound;
  } else if (s == "rint") {
    *mode = RoundMode::kRint;
  } else if (s == "floor") {
    *mode = RoundMode::kFloor;
  } else if (s == "ceil") {
    *mode = RoundMode::kCeil;
  } else if (s == "trunc") {
    *mode = RoundMode::kTrunc;
  } else {
    return false;
  }
  return true;
}

double roundBy(RoundMode mode, double v) {
  switch (mode) {
    case RoundMode::kRint:
      return std::nearbyint(v);
    case RoundMode::kRound:
      return std::round(v);
    case RoundMode::kFloor:
      return std::floor(v);
    case RoundMode::kCeil:
      return std::ceil(v);
    case RoundMode::kTrunc:
      return std::trunc(v);
  }
  return v;
}

std::vector<int64_t> packQuantized(const std::vector<double>& values, const QuantFormat& f, RoundMode mode) {
  std::vector<int64_t> q(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const double v = std::isnan(values[i]) ? 0.0 : roundBy(mode, values[i]);
    q[i] = static_cast<int64_t>(std::clamp(v, f.minValue(), f.maxValue()));
  }
  if (f.bits == 8) return q;
  std::vector<int64_t> packed(q.size() / 8);
  for (size_t w = 0; w < packed.size(); ++w) {
    uint32_t word = 0;
    for (size_t i = 0; i < 8; ++i) word |= (static_cast<uint32_t>(q[w * 8 + i]) & 0xFu) << (4 * i);
    int32_t s;
    std::memcpy(&s, &word, 4);
    packed[w] = s;
  }
  return packed;
}

}  // namespace npusim::aclnn
