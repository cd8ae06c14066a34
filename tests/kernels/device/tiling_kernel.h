#pragma once
// The tiling struct k_tiling_scale takes by value (tiling_kernel.cpp).
#include <cstdint>

struct ScaleTiling {
  uint32_t n;
  float factor;
};
