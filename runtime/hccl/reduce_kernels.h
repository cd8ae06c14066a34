#pragma once
// Element-wise reductions of HCCL data types, the functional half of an inline-reduce copy or of
// a vector-core reduce task: dst[i] = dst[i] op src[i].
#include <cstddef>
#include <cstdint>

#include "hccl/hccl_types.h"

namespace npusim::hccl {

// Bytes per element, 0 for a type npusim does not move (INT128, the fp8 family).
size_t elementSize(HcclDataType type);
// Whether the 910B SDMA engine reduces this type and op on the fly (fp32, fp16, bf16, int8,
// int16, int32 with SUM/MAX/MIN; hcomm device_capacity.cc). Other cases copy, then reduce on
// the vector cores.
bool inlineReducible(HcclDataType type, HcclReduceOp op);
// dst = dst op src over `bytes` bytes (a whole number of elements).
void reduceInto(HcclDataType type, HcclReduceOp op, uint8_t* dst, const uint8_t* src, size_t bytes);
const char* typeName(HcclDataType type);
const char* opName(HcclReduceOp op);

}  // namespace npusim::hccl
