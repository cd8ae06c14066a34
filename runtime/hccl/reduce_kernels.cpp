// Reductions over raw bytes; the narrow floats are widened to fp32, reduced, rounded back
// (round to nearest even, as the device's conversion).
#include "runtime/hccl/reduce_kernels.h"

#include <algorithm>
#include <cstring>

#include "runtime/aclnn/base/float_bits.h"

namespace npusim::hccl {
namespace {

template <typename T>
T combine(HcclReduceOp op, T a, T b) {
  switch (op) {
    case HCCL_REDUCE_SUM:
      return static_cast<T>(a + b);
    case HCCL_REDUCE_PROD:
      return static_cast<T>(a * b);
    case HCCL_REDUCE_MAX:
      return std::max(a, b);
    default:
      return std::min(a, b);
  }
}

// Integer sums and products wrap around as on the device (computed unsigned, no UB).
template <typename T, typename U>
T combineInt(HcclReduceOp op, T a, T b) {
  if (op == HCCL_REDUCE_SUM) return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  if (op == HCCL_REDUCE_PROD) return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  return combine(op, a, b);
}

template <typename T, typename U>
void reduceInt(HcclReduceOp op, uint8_t* dst, const uint8_t* src, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    T a, b;
    std::memcpy(&a, dst + i * sizeof(T), sizeof(T));
    std::memcpy(&b, src + i * sizeof(T), sizeof(T));
    T r = combineInt<T, U>(op, a, b);
    std::memcpy(dst + i * sizeof(T), &r, sizeof(T));
  }
}

template <typename T>
void reduceFloat(HcclReduceOp op, uint8_t* dst, const uint8_t* src, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    T a, b;
    std::memcpy(&a, dst + i * sizeof(T), sizeof(T));
    std::memcpy(&b, src + i * sizeof(T), sizeof(T));
    T r = combine(op, a, b);
    std::memcpy(dst + i * sizeof(T), &r, sizeof(T));
  }
}

template <typename Widen, typename Narrow>
void reduceNarrow(HcclReduceOp op, uint8_t* dst, const uint8_t* src, size_t n, Widen widen, Narrow narrow) {
  for (size_t i = 0; i < n; ++i) {
    uint16_t a, b;
    std::memcpy(&a, dst + i * 2, 2);
    std::memcpy(&b, src + i * 2, 2);
    uint16_t r = narrow(combine(op, widen(a), widen(b)));
    std::memcpy(dst + i * 2, &r, 2);
  }
}

}  // namespace

size_t elementSize(HcclDataType type) {
  switch (type) {
    case HCCL_DATA_TYPE_INT8:
    case HCCL_DATA_TYPE_UINT8:
      return 1;
    case HCCL_DATA_TYPE_INT16:
    case HCCL_DATA_TYPE_UINT16:
    case HCCL_DATA_TYPE_FP16:
    case HCCL_DATA_TYPE_BFP16:
      return 2;
    case HCCL_DATA_TYPE_INT32:
    case HCCL_DATA_TYPE_UINT32:
    case HCCL_DATA_TYPE_FP32:
      return 4;
    case HCCL_DATA_TYPE_INT64:
    case HCCL_DATA_TYPE_UINT64:
    case HCCL_DATA_TYPE_FP64:
      return 8;
    default:
      return 0;
  }
}

bool inlineReducible(HcclDataType type, HcclReduceOp op) {
  if (op == HCCL_REDUCE_PROD) return false;
  switch (type) {
    case HCCL_DATA_TYPE_FP32:
    case HCCL_DATA_TYPE_FP16:
    case HCCL_DATA_TYPE_BFP16:
    case HCCL_DATA_TYPE_INT8:
    case HCCL_DATA_TYPE_INT16:
    case HCCL_DATA_TYPE_INT32:
      return true;
    default:
      return false;
  }
}

void reduceInto(HcclDataType type, HcclReduceOp op, uint8_t* dst, const uint8_t* src, size_t bytes) {
  const size_t n = elementSize(type) ? bytes / elementSize(type) : 0;
  switch (type) {
    case HCCL_DATA_TYPE_INT8:
      return reduceInt<int8_t, uint8_t>(op, dst, src, n);
    case HCCL_DATA_TYPE_UINT8:
      return reduceInt<uint8_t, uint32_t>(op, dst, src, n);
    case HCCL_DATA_TYPE_INT16:
      return reduceInt<int16_t, uint16_t>(op, dst, src, n);
    case HCCL_DATA_TYPE_UINT16:
      return reduceInt<uint16_t, uint32_t>(op, dst, src, n);
    case HCCL_DATA_TYPE_INT32:
      return reduceInt<int32_t, uint32_t>(op, dst, src, n);
    case HCCL_DATA_TYPE_UINT32:
      return reduceInt<uint32_t, uint32_t>(op, dst, src, n);
    case HCCL_DATA_TYPE_INT64:
      return reduceInt<int64_t, uint64_t>(op, dst, src, n);
    case HCCL_DATA_TYPE_UINT64:
      return reduceInt<uint64_t, uint64_t>(op, dst, src, n);
    case HCCL_DATA_TYPE_FP32:
      return reduceFloat<float>(op, dst, src, n);
    case HCCL_DATA_TYPE_FP64:
      return reduceFloat<double>(op, dst, src, n);
    case HCCL_DATA_TYPE_FP16:
      return reduceNarrow(op, dst, src, n, aclnn::halfToFloat, aclnn::floatToHalf);
    case HCCL_DATA_TYPE_BFP16:
      return reduceNarrow(op, dst, src, n, aclnn::bf16ToFloat, aclnn::floatToBf16);
    default:
      return;
  }
}

const char* typeName(HcclDataType type) {
  switch (type) {
    case HCCL_DATA_TYPE_INT8:
      return "int8";
    case HCCL_DATA_TYPE_INT16:
      return "int16";
    case HCCL_DATA_TYPE_INT32:
      return "int32";
    case HCCL_DATA_TYPE_FP16:
      return "fp16";
    case HCCL_DATA_TYPE_FP32:
      return "fp32";
    case HCCL_DATA_TYPE_INT64:
      return "int64";
    case HCCL_DATA_TYPE_UINT64:
      return "uint64";
    case HCCL_DATA_TYPE_UINT8:
      return "uint8";
    case HCCL_DATA_TYPE_UINT16:
      return "uint16";
    case HCCL_DATA_TYPE_UINT32:
      return "uint32";
    case HCCL_DATA_TYPE_FP64:
      return "fp64";
    case HCCL_DATA_TYPE_BFP16:
      return "bf16";
    default:
      return "unsupported type";
  }
}

const char* opName(HcclReduceOp op) {
  switch (op) {
    case HCCL_REDUCE_SUM:
      return "sum";
    case HCCL_REDUCE_PROD:
      return "prod";
    case HCCL_REDUCE_MAX:
      return "max";
    case HCCL_REDUCE_MIN:
      return "min";
    default:
      return "unknown op";
  }
}

}  // namespace npusim::hccl
