#pragma once
// Helpers for the aclnn tests: tensors over host memory, element codecs independent of the
// library (IEEE fp16 via the compiler's _Float16, bf16 by explicit nearest-even search), and
// running an executor's kernel directly on host memory.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "runtime/aclnn/base/executor.h"

namespace aclnn_test {

inline size_t elemSize(aclDataType dt) {
  switch (dt) {
    case ACL_BOOL:
    case ACL_INT8:
    case ACL_UINT8:
      return 1;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
      return 4;
    case ACL_DOUBLE:
    case ACL_INT64:
    case ACL_UINT64:  // raw bits only (quantisation parameters); encode/decode do not handle it
      return 8;
    default:
      return 0;
  }
}

inline bool isFloatType(aclDataType dt) {
  return dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16 || dt == ACL_DOUBLE;
}

// Nearest bf16 value of x (ties to even), computed on doubles.
inline double roundBf16(double x) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return x;
  int e;
  std::frexp(x, &e);      // |x| in [2^(e-1), 2^e)
  e = std::max(e, -125);  // bf16 subnormals share fp32's minimum exponent
  const double ulp = std::ldexp(1.0, e - 8);
  double q = x / ulp;
  double r = std::nearbyint(q);  // default rounding mode: nearest even
  double v = r * ulp;
  if (std::fabs(v) > 3.3895313892515355e38) return x > 0 ? INFINITY : -INFINITY;
  return v;
}

inline double roundF16(double x) { return static_cast<double>(static_cast<_Float16>(x)); }

inline double roundTo(aclDataType dt, double x) {
  switch (dt) {
    case ACL_FLOAT16:
      return roundF16(x);
    case ACL_BF16:
      return roundBf16(x);
    case ACL_FLOAT:
      return static_cast<float>(x);
    default:
      return x;
  }
}

inline uint16_t bf16Bits(double v) {  // v must be representable in bf16
  float f = static_cast<float>(v);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<uint16_t>(u >> 16);
}

inline void encode(aclDataType dt, double v, unsigned char* p) {
  switch (dt) {
    case ACL_FLOAT: {
      float f = static_cast<float>(v);
      std::memcpy(p, &f, 4);
      break;
    }
    case ACL_DOUBLE:
      std::memcpy(p, &v, 8);
      break;
    case ACL_FLOAT16: {
      _Float16 h = static_cast<_Float16>(v);
      std::memcpy(p, &h, 2);
      break;
    }
    case ACL_BF16: {
      uint16_t b = bf16Bits(roundBf16(v));
      std::memcpy(p, &b, 2);
      break;
    }
    case ACL_INT8: {
      int8_t i = static_cast<int8_t>(v);
      std::memcpy(p, &i, 1);
      break;
    }
    case ACL_UINT8: {
      uint8_t i = static_cast<uint8_t>(v);
      std::memcpy(p, &i, 1);
      break;
    }
    case ACL_INT16: {
      int16_t i = static_cast<int16_t>(v);
      std::memcpy(p, &i, 2);
      break;
    }
    case ACL_INT32: {
      int32_t i = static_cast<int32_t>(v);
      std::memcpy(p, &i, 4);
      break;
    }
    case ACL_INT64: {
      int64_t i = static_cast<int64_t>(v);
      std::memcpy(p, &i, 8);
      break;
    }
    case ACL_BOOL: {
      uint8_t b = v != 0 ? 1 : 0;
      std::memcpy(p, &b, 1);
      break;
    }
    default:
      break;
  }
}

inline double decode(aclDataType dt, const unsigned char* p) {
  switch (dt) {
    case ACL_FLOAT: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    case ACL_DOUBLE: {
      double d;
      std::memcpy(&d, p, 8);
      return d;
    }
    case ACL_FLOAT16: {
      _Float16 h;
      std::memcpy(&h, p, 2);
      return static_cast<double>(h);
    }
    case ACL_BF16: {
      uint16_t b;
      std::memcpy(&b, p, 2);
      uint32_t u = static_cast<uint32_t>(b) << 16;
      float f;
      std::memcpy(&f, &u, 4);
      return f;
    }
    case ACL_INT8: {
      int8_t i;
      std::memcpy(&i, p, 1);
      return i;
    }
    case ACL_UINT8: {
      uint8_t i;
      std::memcpy(&i, p, 1);
      return i;
    }
    case ACL_INT16: {
      int16_t i;
      std::memcpy(&i, p, 2);
      return i;
    }
    case ACL_INT32: {
      int32_t i;
      std::memcpy(&i, p, 4);
      return i;
    }
    case ACL_INT64: {
      int64_t i;
      std::memcpy(&i, p, 8);
      return static_cast<double>(i);
    }
    case ACL_BOOL:
      return p[0] != 0 ? 1.0 : 0.0;
    default:
      return 0;
  }
}

inline std::vector<int64_t> denseStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) s[i - 1] = s[i] * shape[i];
  return s;
}

// A tensor whose storage is host memory. Elements are addressed by their row-major index in
// the view.
class HostTensorBuf {
 public:
  HostTensorBuf(aclDataType dt, std::vector<int64_t> shape)
      : HostTensorBuf(dt, shape, denseStrides(shape), 0) {}
  HostTensorBuf(aclDataType dt, std::vector<int64_t> shape, std::vector<int64_t> strides, int64_t offset)
      : dt_(dt), shape_(std::move(shape)), strides_(std::move(strides)), offset_(offset) {
    int64_t hi = offset_;
    for (size_t i = 0; i < shape_.size(); ++i) hi += (shape_[i] - 1) * strides_[i];
    storageElems_ = std::max<int64_t>(hi + 1, 1);
    bytes_.assign(static_cast<size_t>(storageElems_) * elemSize(dt) + 16, 0xcd);  // poison padding
    std::vector<int64_t> storageShape{storageElems_};
    tensor_ = aclCreateTensor(shape_.data(), shape_.size(), dt, strides_.data(), offset_, ACL_FORMAT_ND,
                              storageShape.data(), 1, bytes_.data());
  }
  ~HostTensorBuf() { aclDestroyTensor(tensor_); }
  HostTensorBuf(const HostTensorBuf&) = delete;
  HostTensorBuf& operator=(const HostTensorBuf&) = delete;

  aclTensor* get() const { return tensor_; }
  aclDataType dtype() const { return dt_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : shape_) n *= d;
    return n;
  }
  unsigned char* at(int64_t flat) {
    int64_t off = offset_;
    for (size_t d = shape_.size(); d-- > 0;) {
      off += (flat % shape_[d]) * strides_[d];
      flat /= shape_[d];
    }
    return bytes_.data() + off * static_cast<int64_t>(elemSize(dt_));
  }
  void set(int64_t flat, double v) { encode(dt_, v, at(flat)); }
  double get(int64_t flat) { return decode(dt_, at(flat)); }
  // The value as stored (after rounding to the element type).
  double stored(double v) {
    unsigned char b[16] = {};
    encode(dt_, v, b);
    return decode(dt_, b);
  }
  void fillRandom(std::mt19937& g, double lo, double hi) {
    std::uniform_real_distribution<double> u(lo, hi);
    for (int64_t i = 0; i < numel(); ++i) {
      double v = u(g);
      if (!isFloatType(dt_)) v = std::floor(v);
      set(i, v);
    }
  }
  std::vector<unsigned char>& raw() { return bytes_; }

 private:
  aclDataType dt_;
  std::vector<int64_t> shape_, strides_;
  int64_t offset_;
  int64_t storageElems_ = 0;
  std::vector<unsigned char> bytes_;
  aclTensor* tensor_ = nullptr;
};

// Index of `outIndex` (row-major in outShape) into a broadcast operand of shape `s`.
inline int64_t broadcastIndex(const std::vector<int64_t>& outShape, int64_t outIndex,
                              const std::vector<int64_t>& s) {
  std::vector<int64_t> idx(outShape.size());
  for (size_t d = outShape.size(); d-- > 0;) {
    idx[d] = outIndex % outShape[d];
    outIndex /= outShape[d];
  }
  int64_t flat = 0;
  const size_t lead = outShape.size() - s.size();
  for (size_t d = 0; d < s.size(); ++d) flat = flat * s[d] + (s[d] == 1 ? 0 : idx[lead + d]);
  return flat;
}

// A second handle on a dense buffer's memory, for a tensor list (aclDestroyTensorList destroys
// the tensors it holds, so the list must not hold the buffer's own handle).
inline aclTensor* listHandle(HostTensorBuf& t) {
  const std::vector<int64_t> st = denseStrides(t.shape());
  return aclCreateTensor(t.shape().data(), t.shape().size(), t.dtype(), st.data(), 0, ACL_FORMAT_ND,
                         t.shape().data(), t.shape().size(), t.raw().data());
}

// Runs the kernel of a freshly built executor on host memory and destroys the executor.
inline void runOnHost(aclOpExecutor* ex) {
  const npusim::aclnn::OpInstance* op = npusim::aclnn::executorOp(ex);
  ASSERT_NE(op, nullptr);
  npusim::aclnn::computeOnHost(*op);
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), 0);
}

// Phase 1 (given workspace size and executor out-parameters), then the kernel on host memory.
// Returns phase 1's status.
template <typename Phase1>
int run(const Phase1& p1) {
  uint64_t ws = 1;
  aclOpExecutor* ex = nullptr;
  const int st = p1(&ws, &ex);
  if (st != 0) return st;
  EXPECT_EQ(ws, 0u);
  runOnHost(ex);
  return 0;
}

// MTE bytes and cube MACs a freshly built executor's cost model charges (its tiles summed); destroys it.
struct Charged {
  uint64_t read = 0, written = 0, vector = 0, macs = 0;
  int macScale = 1;  // OpWork::cubeMacsPerCycleScale (2: the int8 rate)
};
inline Charged chargedBytes(aclOpExecutor* ex) {
  Charged c;
  const npusim::rt::OpWork work = npusim::aclnn::executorOp(ex)->work();
  for (const auto& t : work.tiles) {
    c.read += t.readBytes;
    c.written += t.writeBytes;
    c.vector += t.vectorBytes;
    c.macs += t.cubeMacs;
  }
  c.macScale = work.cubeMacsPerCycleScale;
  aclDestroyAclOpExecutor(ex);
  return c;
}

// The scale the fixpipe reads from a 64-bit quantisation parameter holding fp32 s: the 13 low
// mantissa bits cleared.
inline float fixpipeScale(float s) {
  uint32_t bits = 0;
  std::memcpy(&bits, &s, 4);
  bits &= 0xFFFFE000u;
  float r = 0;
  std::memcpy(&r, &bits, 4);
  return r;
}

// Writes the raw 64 bits v at element i of a uint64 tensor (encode does not handle uint64).
inline void setU64(HostTensorBuf& t, int64_t i, uint64_t v) { std::memcpy(t.raw().data() + i * 8, &v, 8); }

// Relative tolerance of a result stored in `dt` (a few units in its last place).
inline double tol(aclDataType dt) { return dt == ACL_FLOAT16 ? 2e-3 : dt == ACL_BF16 ? 1.6e-2 : 2e-6; }

inline void expectNear(double got, double want, aclDataType dt, const std::string& what) {
  EXPECT_NEAR(got, want, tol(dt) * std::max(1.0, std::fabs(want))) << what;
}

inline aclScalar* makeScalar(aclDataType dt, double v) {
  unsigned char b[16] = {};
  encode(dt, v, b);
  return aclCreateScalar(b, dt);
}

// Device memory for one tensor (zeros: the timing does not depend on the values).
struct DeviceBuf {
  void* dev = nullptr;
  aclTensor* t = nullptr;
  DeviceBuf(aclDataType dt, std::vector<int64_t> shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    const size_t bytes = static_cast<size_t>(n) * elemSize(dt);
    EXPECT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(dev, bytes, 0, bytes), ACL_SUCCESS);
    const std::vector<int64_t> st = denseStrides(shape);
    t = aclCreateTensor(shape.data(), shape.size(), dt, st.data(), 0, ACL_FORMAT_ND, shape.data(),
                        shape.size(), dev);
  }
  ~DeviceBuf() {
    aclDestroyTensor(t);
    aclrtFree(dev);
  }
};

// Simulated milliseconds between events recorded on `stream` before and after `launch()` (a
// phase-2 call that must return 0), once the stream has finished.
template <typename Launch>
float simulatedMs(aclrtStream stream, const Launch& launch) {
  aclrtEvent a = nullptr, b = nullptr;
  EXPECT_EQ(aclrtCreateEvent(&a), ACL_SUCCESS);
  EXPECT_EQ(aclrtCreateEvent(&b), ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordEvent(a, stream), ACL_SUCCESS);
  EXPECT_EQ(launch(), 0);
  EXPECT_EQ(aclrtRecordEvent(b, stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  float ms = 0;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_SUCCESS);
  aclrtDestroyEvent(a);
  aclrtDestroyEvent(b);
  return ms;
}

}  // namespace aclnn_test
