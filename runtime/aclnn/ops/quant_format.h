#pragma once
// The integer formats the 910B's quantisation operators write (ops-nn quant/ docs, "Atlas A2"
// rows): int8, and int4 packed eight to an int32 (value i in bits 4i..4i+3). fp8 and hifloat8
// outputs are Atlas A3 / 950 formats and are refused with 161002 by the operators.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_base.h"

namespace npusim::aclnn {

struct QuantFormat {
  aclDataType stored = ACL_INT8;  // the tensor's element type (int32 for packed int4)
  int bits = 8;
  double maxValue() const { return bits == 8 ? 127.0 : 7.0; }
  double minValue() const { return bits == 8 ? -128.0 : -8.0; }
  int64_t perElement() const { return bits == 8 ? 1 : 8; }  // values per stored element
};

// The format of a dstType / output type: ACL_INT8, or ACL_INT32 / ACL_INT4 (packed int4).
// False for any other type.
bool quantFormatOf(aclDataType dt, QuantFormat* f);

enum class RoundMode { kRint, kRound, kFloor, kCeil, kTrunc };

// "round" (half away from zero), "rint" (half to even), "floor", "ceil", "trunc"; false otherwise.
bool parseRoundMode(const char* name, RoundMode* mode);

double roundBy(RoundMode mode, double v);

// Rounds and saturates `values` to `f`, then stores them (packed for int4) as the integers
// of the tensor elements: the result has values.size() / f.perElement() entries.
std::vector<int64_t> packQuantized(const std::vector<double>& values, const QuantFormat& f, RoundMode mode);

}  // namespace npusim::aclnn
