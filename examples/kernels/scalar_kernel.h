#pragma once
#include <cstdint>

// Launches scale_and_count (scalar_kernel.cpp): data[i] *= factor, negatives[b] = how many of
// block b's results are negative.
uint32_t ScaleAndCount(uint32_t blocks, void* stream, float* data, float factor, uint32_t n,
                       uint32_t* negatives);
