#ifndef NPUSIM_ASCENDC_TYPES_H_
#define NPUSIM_ASCENDC_TYPES_H_
// Ascend C's device keywords and number types for kernels compiled with the host compiler.
#include <cstdint>
#include <cstring>

#define __global__
#define __aicore__
#define __vector__  // a vector-core kernel (the ASC language's marker): npusim's kernels all are
#define __gm__
#define __ubuf__
#define __inline__ inline
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201  // the 910B (Ascend910B*) vector-core architecture
#endif
#define GM_ADDR __gm__ uint8_t*

// half: IEEE binary16 with hardware arithmetic semantics (each result rounded to half).
using half = _Float16;

// bfloat16_t: the upper 16 bits of a float, rounded to nearest even.
struct bfloat16_t {
  uint16_t bits = 0;
  bfloat16_t() = default;
  bfloat16_t(float f) {  // NOLINT: implicit, as on the device
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
      bits = static_cast<uint16_t>((u >> 16) | 0x40);  // quiet NaN
    } else {
      u += 0x7fffu + ((u >> 16) & 1u);
      bits = static_cast<uint16_t>(u >> 16);
    }
  }
  bfloat16_t(double d) : bfloat16_t(static_cast<float>(d)) {}
  bfloat16_t(int i) : bfloat16_t(static_cast<float>(i)) {}
  operator float() const {
    uint32_t u = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
};
static_assert(sizeof(bfloat16_t) == 2, "bfloat16_t is 16 bits");

// The core type of the running program (ASCEND_IS_AIV, g_coreType, ...), after the keywords it uses.
#include "npusim_core_type.h"

#endif  // NPUSIM_ASCENDC_TYPES_H_
