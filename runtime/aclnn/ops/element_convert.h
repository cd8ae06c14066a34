#pragma once
// Row conversions between tensor element types and the types kernels compute in, as the
// vector unit's Cast does: fp16/bf16/fp32 compute in fp32, fp64 in fp64, integers and bool
// in int64 with two's-complement wrap-around. Narrowing float conversions round to nearest
// even; float-to-integer conversions truncate toward zero and saturate (NaN gives 0).
#include <cstdint>

#include "acl/acl_base.h"

namespace npusim::aclnn {

enum class Calc { kF32, kF64, kI64 };

// The compute type for values of element type `dt`.
Calc calcFor(aclDataType dt);

// Load n elements of type dt, `stride` bytes apart, converting to the compute type.
void loadRow(aclDataType dt, const char* src, int64_t stride, int64_t n, float* dst);
void loadRow(aclDataType dt, const char* src, int64_t stride, int64_t n, double* dst);
void loadRow(aclDataType dt, const char* src, int64_t stride, int64_t n, int64_t* dst);

// Store n values converted to element type dt, `stride` bytes apart.
void storeRow(aclDataType dt, char* dst, int64_t stride, int64_t n, const float* src);
void storeRow(aclDataType dt, char* dst, int64_t stride, int64_t n, const double* src);
void storeRow(aclDataType dt, char* dst, int64_t stride, int64_t n, const int64_t* src);

// Round values in place to what element type dt can hold (fp16/bf16/fp32 precision, integer
// width, bool 0/1): models an intermediate result stored in that type on the device.
void quantizeRow(aclDataType dt, float* v, int64_t n);
void quantizeRow(aclDataType dt, double* v, int64_t n);
void quantizeRow(aclDataType dt, int64_t* v, int64_t n);

}  // namespace npusim::aclnn
