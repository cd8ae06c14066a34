#pragma once
// The tiling struct launch_kernel.cpp takes by value; the host fills it and hands the generated
// aclrtlaunch_leaky_launch a pointer to it, as CANN's KernelLaunch tiling samples do.
#include <cstdint>

struct LeakyTiling {
  uint32_t totalLength;  // floats in x and z
  uint32_t tileLength;   // floats per tile
  float slope;           // z = x for x > 0, slope * x otherwise
};
