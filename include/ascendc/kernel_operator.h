#ifndef NPUSIM_KERNEL_OPERATOR_H_
#define NPUSIM_KERNEL_OPERATOR_H_
// The Ascend C vector-programming subset, for kernels compiled with the host compiler and run
// by npusim (docs/kernels.md lists what is supported). Each call does the work on the host and
// tells the runtime what it would cost on an AI core (copies through the MTE engines, vector
// instructions). Calls outside the subset do not exist here, so a kernel using them does not
// compile; misuse that hardware would not catch cleanly (a DataCopy of a length that is not
// whole 32-byte blocks, a queue popped while empty, a unified buffer overflow) ends the kernel
// with an AI-core exception reported at the next synchronisation.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <type_traits>

#include "npusim_ascendc_types.h"
#include "npusim_atomic.h"
#include "npusim_cce_intrinsics.h"
#include "npusim_kernel_abi.h"

using event_t = int32_t;

#define block_idx (::AscendC::GetBlockIdx())
#define block_num (::AscendC::GetBlockNum())

namespace AscendC {

constexpr uint32_t ONE_BLK_SIZE = 32;  // bytes in one data block (the unit of DataCopy)

enum class QuePosition { GM, VECIN, VECOUT, VECCALC, A1, A2, B1, B2, CO1, CO2 };
using TPosition = QuePosition;
enum class RoundMode { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };
enum class HardEvent {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3
};

inline int64_t GetBlockIdx() { return npusimKernelBlockIdx(); }
inline int64_t GetBlockNum() { return npusimKernelBlockNum(); }

namespace detail {
[[noreturn]] inline void fault(const char* why) { npusimKernelFault(0, why); }
template <class T>
void checkBlocks(uint64_t count) {
  if (count * sizeof(T) % ONE_BLK_SIZE != 0)
    fault("DataCopy length is not a whole number of 32-byte blocks (DataCopyPad copies any length)");
}
inline void checkCount(uint64_t count, uint64_t have, const char* what) {
  if (count > have) fault(what);
}
// The core buffer a position's queues and buffers live in (the cube's: docs/kernels.md).
constexpr int memoryOf(TPosition pos) {
  return pos == TPosition::A1 || pos == TPosition::B1 ? NPUSIM_KERNEL_MEM_L1
         : pos == TPosition::A2                       ? NPUSIM_KERNEL_MEM_L0A
         : pos == TPosition::B2                       ? NPUSIM_KERNEL_MEM_L0B
         : pos == TPosition::CO1                      ? NPUSIM_KERNEL_MEM_L0C
                                                      : NPUSIM_KERNEL_MEM_UB;
}
}  // namespace detail

template <class T>
class GlobalTensor {
 public:
  __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize = 0) {
    addr_ = buffer;
    size_ = bufferSize;
  }
  __aicore__ inline GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor g;
    g.addr_ = addr_ + offset;
    g.size_ = size_ > offset ? size_ - offset : 0;
    return g;
  }
  __aicore__ inline T GetValue(uint64_t i) const { return addr_[i]; }
  __aicore__ inline void SetValue(uint64_t i, T v) const { addr_[i] = v; }
  __aicore__ inline T& operator()(uint64_t i) const { return addr_[i]; }
  __aicore__ inline __gm__ T* GetPhyAddr() const { return addr_; }
  __aicore__ inline __gm__ T* GetPhyAddr(uint64_t offset) const { return addr_ + offset; }
  __aicore__ inline uint64_t GetSize() const { return size_; }

 private:
  T* addr_ = nullptr;
  uint64_t size_ = 0;
};

template <class T>
class LocalTensor {
 public:
  LocalTensor() = default;
  LocalTensor(T* p, uint32_t n) : addr_(p), size_(n) {}
  __aicore__ inline LocalTensor operator[](uint32_t offset) const {
    detail::checkCount(offset, size_, "LocalTensor offset beyond its buffer");
    return LocalTensor(addr_ + offset, size_ - offset);
  }
  __aicore__ inline T GetValue(uint32_t i) const {
    detail::checkCount(i + 1, size_, "LocalTensor::GetValue beyond its buffer");
    return addr_[i];
  }
  __aicore__ inline void SetValue(uint32_t i, T v) const {
    detail::checkCount(i + 1, size_, "LocalTensor::SetValue beyond its buffer");
    addr_[i] = v;
  }
  __aicore__ inline T& operator()(uint32_t i) const {
    detail::checkCount(i + 1, size_, "LocalTensor element beyond its buffer");
    return addr_[i];
  }
  __aicore__ inline uint32_t GetSize() const { return size_; }
  __aicore__ inline void SetSize(uint32_t n) { size_ = n; }
  __aicore__ inline T* GetPhyAddr() const { return addr_; }
  // dst = src0 + src1 (-, *, /): computes into this tensor's elements, as Ascend C's operator
  // overloads do (its assignment returns nothing); see SymbolOverride below.
  template <class E, class = typename E::IsTensorExpression>
  __aicore__ inline void operator=(const E& expression) const {
    expression.Process(*this);
  }
  template <class U>
  __aicore__ inline LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>(reinterpret_cast<U*>(addr_), static_cast<uint32_t>(size_ * sizeof(T) / sizeof(U)));
  }

 private:
  T* addr_ = nullptr;
  uint32_t size_ = 0;  // elements
};

// A queue of unified-buffer slots: AllocTensor takes a free slot, EnQue/DeQue pass it between
// the copy-in, compute and copy-out stages in order, FreeTensor gives it back.
template <TPosition pos, int32_t depth = 1, int32_t mask = 0>
class TQue {
 public:
  static constexpr int kMaxSlots = 16;
  template <class T>
  __aicore__ inline LocalTensor<T> AllocTensor() {
    for (int i = 0; i < slots_; ++i) {
      if (!(used_ & (1u << i))) {
        used_ |= 1u << i;
        return LocalTensor<T>(reinterpret_cast<T*>(slot_[i]), static_cast<uint32_t>(len_ / sizeof(T)));
      }
    }
    detail::fault("TQue::AllocTensor with every buffer in use (the kernel would hang on hardware)");
  }
  template <class T>
  __aicore__ inline void FreeTensor(const LocalTensor<T>& t) {
    used_ &= ~(1u << slotOf(t.GetPhyAddr()));
  }
  template <class T>
  __aicore__ inline bool EnQue(const LocalTensor<T>& t) {
    if (count_ == kMaxSlots) detail::fault("TQue::EnQue on a full queue");
    fifo_[(head_ + count_++) % kMaxSlots] = slotOf(t.GetPhyAddr());
    return true;
  }
  template <class T>
  __aicore__ inline LocalTensor<T> DeQue() {
    if (count_ == 0) detail::fault("TQue::DeQue on an empty queue (the kernel would hang on hardware)");
    const int s = fifo_[head_];
    head_ = (head_ + 1) % kMaxSlots;
    --count_;
    return LocalTensor<T>(reinterpret_cast<T*>(slot_[s]), static_cast<uint32_t>(len_ / sizeof(T)));
  }
  __aicore__ inline bool VacantInQue() const { return count_ < depth; }
  __aicore__ inline bool HasTensorInQue() const { return count_ > 0; }

  void npusimInit(int num, uint32_t len) {
    if (num < 1 || num > kMaxSlots) detail::fault("TPipe::InitBuffer: buffer count outside 1..16");
    slots_ = num;
    len_ = len;
    if (pos == TPosition::VECIN || pos == TPosition::VECOUT)
      npusimKernelQueueBuffers(pos == TPosition::VECOUT, num);
    for (int i = 0; i < num; ++i)
      slot_[i] = static_cast<uint8_t*>(npusimKernelLocalAlloc(detail::memoryOf(pos), len));
  }

 private:
  int slotOf(const void* p) const {
    for (int i = 0; i < slots_; ++i)
      if (static_cast<const uint8_t*>(p) >= slot_[i] && static_cast<const uint8_t*>(p) < slot_[i] + len_)
        return i;
    detail::fault("TQue: tensor does not belong to this queue");
  }
  uint8_t* slot_[kMaxSlots] = {};
  int fifo_[kMaxSlots] = {};
  int slots_ = 0, head_ = 0, count_ = 0;
  uint32_t used_ = 0;
  uint32_t len_ = 0;
};

template <TPosition pos = TPosition::VECCALC>
class TBuf {
 public:
  template <class T>
  __aicore__ inline LocalTensor<T> Get() const {
    return LocalTensor<T>(reinterpret_cast<T*>(addr_), static_cast<uint32_t>(len_ / sizeof(T)));
  }
  template <class T>
  __aicore__ inline LocalTensor<T> Get(uint32_t count) const {
    detail::checkCount(count * sizeof(T), len_, "TBuf::Get beyond the buffer");
    return LocalTensor<T>(reinterpret_cast<T*>(addr_), count);
  }
  void npusimInit(uint32_t len) {
    len_ = len;
    addr_ = static_cast<uint8_t*>(npusimKernelLocalAlloc(detail::memoryOf(pos), len));
  }

 private:
  uint8_t* addr_ = nullptr;
  uint32_t len_ = 0;
};

class TPipe {
 public:
  // The kernel's pipe, which GetTPipePtr() answers: the last one constructed on this block's
  // thread (a kernel builds one per block).
  TPipe() { Current() = this; }
  ~TPipe() {
    if (Current() == this) Current() = nullptr;
  }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;
  static TPipe*& Current() {
    thread_local TPipe* pipe = nullptr;
    return pipe;
  }
  template <TPosition pos, int32_t depth, int32_t mask>
  __aicore__ inline bool InitBuffer(TQue<pos, depth, mask>& que, uint8_t num, uint32_t len) {
    que.npusimInit(num, len);
    return true;
  }
  template <TPosition pos>
  __aicore__ inline bool InitBuffer(TBuf<pos>& buf, uint32_t len) {
    buf.npusimInit(len);
    return true;
  }
  template <HardEvent evt>
  __aicore__ inline event_t FetchEventID() {
    return 0;
  }
  __aicore__ inline event_t FetchEventID(HardEvent) { return 0; }
  template <HardEvent evt>
  __aicore__ inline event_t AllocEventID() {
    return 0;
  }
  template <HardEvent evt>
  __aicore__ inline void ReleaseEventID(event_t) {}
  __aicore__ inline void Reset() {}
  __aicore__ inline void Destroy() {}
};

__aicore__ inline TPipe* GetTPipePtr() {
  if (TPipe::Current() == nullptr) detail::fault("GetTPipePtr: the kernel has constructed no TPipe");
  return TPipe::Current();
}

// Blocks run their instructions in program order, so the pipeline synchronisation the hardware
// needs is already satisfied: these only exist so kernels compile.
template <pipe_t pipe = PIPE_ALL>
__aicore__ inline void PipeBarrier() {}
template <HardEvent evt>
__aicore__ inline void SetFlag(event_t) {}
template <HardEvent evt>
__aicore__ inline void WaitFlag(event_t) {}

// ---- data movement ----------------------------------------------------------------------------

struct DataCopyParams {
  uint16_t blockCount = 1;  // blocks to move
  uint16_t blockLen = 0;    // each block's length, in 32-byte units
  uint16_t srcStride = 0;   // gap between source blocks, in 32-byte units
  uint16_t dstStride = 0;   // gap between destination blocks, in 32-byte units
  DataCopyParams() = default;
  DataCopyParams(uint16_t count, uint16_t len, uint16_t srcGap, uint16_t dstGap)
      : blockCount(count), blockLen(len), srcStride(srcGap), dstStride(dstGap) {}
};

template <class T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count) {
  detail::checkBlocks<T>(count);
  detail::checkCount(count, dst.GetSize(), "DataCopy beyond the destination LocalTensor");
  npusimKernelRecord(NPUSIM_KERNEL_COPY_IN, count * sizeof(T), src.GetPhyAddr());
  std::memcpy(dst.GetPhyAddr(), src.GetPhyAddr(), count * sizeof(T));
}
template <class T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::checkBlocks<T>(count);
  detail::checkCount(count, src.GetSize(), "DataCopy beyond the source LocalTensor");
  npusimKernelRecord(NPUSIM_KERNEL_COPY_OUT, count * sizeof(T), dst.GetPhyAddr());
  detail::storeToGm(dst.GetPhyAddr(), src.GetPhyAddr(), count);
}
template <class T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::checkBlocks<T>(count);
  detail::checkCount(count, dst.GetSize(), "DataCopy beyond the destination LocalTensor");
  detail::checkCount(count, src.GetSize(), "DataCopy beyond the source LocalTensor");
  npusimKernelRecord(NPUSIM_KERNEL_VECTOR, count * sizeof(T), nullptr);
  std::memmove(dst.GetPhyAddr(), src.GetPhyAddr(), count * sizeof(T));
}

namespace detail {
// Strided block copy: blockCount blocks of blockLen x 32 bytes, gaps of the strides between them.
template <class T>
uint64_t stridedCopy(T* dst, const T* src, const DataCopyParams& p, uint64_t dstLimitBytes,
                     uint64_t srcLimitBytes, bool dstLocal) {
  const uint64_t len = uint64_t{p.blockLen} * ONE_BLK_SIZE;
  const uint64_t sstep = (uint64_t{p.blockLen} + p.srcStride) * ONE_BLK_SIZE;
  const uint64_t dstep = (uint64_t{p.blockLen} + p.dstStride) * ONE_BLK_SIZE;
  if (p.blockCount == 0) return 0;
  const uint64_t dEnd = (p.blockCount - 1) * dstep + len, sEnd = (p.blockCount - 1) * sstep + len;
  if (dstLocal)
    checkCount(dEnd, dstLimitBytes, "DataCopy beyond the destination LocalTensor");
  else
    checkCount(sEnd, srcLimitBytes, "DataCopy beyond the source LocalTensor");
  auto* d = reinterpret_cast<uint8_t*>(dst);
  auto* s = reinterpret_cast<const uint8_t*>(src);
  for (uint16_t i = 0; i < p.blockCount; ++i) {
    if (dstLocal)
      std::memcpy(d + i * dstep, s + i * sstep, len);
    else
      storeToGm(reinterpret_cast<T*>(d + i * dstep), reinterpret_cast<const T*>(s + i * sstep),
                len / sizeof(T));
  }
  return len * p.blockCount;
}
}  // namespace detail

template <class T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                const DataCopyParams& p) {
  uint64_t bytes =
      detail::stridedCopy(dst.GetPhyAddr(), src.GetPhyAddr(), p, dst.GetSize() * sizeof(T), 0, true);
  npusimKernelRecord(NPUSIM_KERNEL_COPY_IN, bytes, src.GetPhyAddr());
}
template <class T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                const DataCopyParams& p) {
  uint64_t bytes =
      detail::stridedCopy(dst.GetPhyAddr(), src.GetPhyAddr(), p, 0, src.GetSize() * sizeof(T), false);
  npusimKernelRecord(NPUSIM_KERNEL_COPY_OUT, bytes, dst.GetPhyAddr());
}

// ---- copies of any length (DataCopyPad) -------------------------------------------------------

// blockCount rows of blockLen bytes. Copying in, srcStride is the gap between GM rows in bytes and
// dstStride the gap between unified-buffer rows in 32-byte blocks; copying out, the other way round.
struct DataCopyExtParams {
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
  DataCopyExtParams() = default;
  DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcGap, uint32_t dstGap, uint32_t reserved)
      : blockCount(count), blockLen(len), srcStride(srcGap), dstStride(dstGap), rsv(reserved) {}
};
// Copying in: each unified-buffer row is leftPadding elements, the row's data, rightPadding
// elements, up to a whole 32-byte block; with isPad the padding elements hold paddingValue.
template <class T>
struct DataCopyPadExtParams {
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = 0;
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
      : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

namespace detail {
inline uint64_t roundUpBlock(uint64_t bytes) {
  return (bytes + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
}
}  // namespace detail

template <class T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                   const DataCopyExtParams& p, const DataCopyPadExtParams<T>& pad) {
  const uint64_t left = uint64_t{pad.leftPadding} * sizeof(T), right = uint64_t{pad.rightPadding} * sizeof(T);
  if (left > ONE_BLK_SIZE || right > ONE_BLK_SIZE)
    detail::fault("DataCopyPad: leftPadding/rightPadding beyond one 32-byte block");
  const uint64_t row = detail::roundUpBlock(left + p.blockLen + right);
  const uint64_t dstep = row + uint64_t{p.dstStride} * ONE_BLK_SIZE,
                 sstep = uint64_t{p.blockLen} + p.srcStride;
  if (p.blockCount == 0 || p.blockLen == 0) return;
  detail::checkCount((p.blockCount - 1) * dstep + row, uint64_t{dst.GetSize()} * sizeof(T),
                     "DataCopyPad beyond the destination LocalTensor");
  auto* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  const auto* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  for (uint16_t i = 0; i < p.blockCount; ++i) {
    uint8_t* r = d + i * dstep;
    std::memcpy(r + left, s + i * sstep, p.blockLen);
    if (pad.isPad) {
      for (uint64_t e = 0; e < pad.leftPadding; ++e)
        std::memcpy(r + e * sizeof(T), &pad.paddingValue, sizeof(T));
      for (uint64_t off = left + p.blockLen; off + sizeof(T) <= row; off += sizeof(T))
        std::memcpy(r + off, &pad.paddingValue, sizeof(T));
    }
  }
  npusimKernelRecord(NPUSIM_KERNEL_COPY_IN, uint64_t{p.blockCount} * p.blockLen, src.GetPhyAddr());
}
template <class T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                   const DataCopyExtParams& p) {
  const uint64_t sstep = detail::roundUpBlock(p.blockLen) + uint64_t{p.srcStride} * ONE_BLK_SIZE;
  const uint64_t dstep = uint64_t{p.blockLen} + p.dstStride;
  if (p.blockCount == 0 || p.blockLen == 0) return;
  detail::checkCount((p.blockCount - 1) * sstep + p.blockLen, uint64_t{src.GetSize()} * sizeof(T),
                     "DataCopyPad beyond the source LocalTensor");
  auto* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  const auto* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  if (p.blockLen % sizeof(T) != 0 && detail::atomicAddsTo<T>())
    detail::fault("DataCopyPad: an atomic add needs rows of whole elements");
  for (uint16_t i = 0; i < p.blockCount; ++i) {
    if (p.blockLen % sizeof(T) == 0)
      detail::storeToGm(reinterpret_cast<T*>(d + i * dstep), reinterpret_cast<const T*>(s + i * sstep),
                        p.blockLen / sizeof(T));
    else
      std::memcpy(d + i * dstep, s + i * sstep, p.blockLen);
  }
  npusimKernelRecord(NPUSIM_KERNEL_COPY_OUT, uint64_t{p.blockCount} * p.blockLen, dst.GetPhyAddr());
}

// ---- vector instructions ----------------------------------------------------------------------

namespace detail {
template <class T>
using Wide = std::conditional_t<std::is_floating_point<T>::value || std::is_same<T, half>::value ||
                                    std::is_same<T, bfloat16_t>::value,
                                float, T>;
template <class T, class F>
void unary(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count, F f) {
  checkCount(static_cast<uint64_t>(count), dst.GetSize(),
             "vector instruction beyond the destination LocalTensor");
  checkCount(static_cast<uint64_t>(count), src.GetSize(), "vector instruction beyond the source LocalTensor");
  npusimKernelRecord(NPUSIM_KERNEL_VECTOR, static_cast<uint64_t>(count) * sizeof(T), nullptr);
  T* d = dst.GetPhyAddr();
  const T* s = src.GetPhyAddr();
  for (int32_t i = 0; i < count; ++i) d[i] = static_cast<T>(f(static_cast<Wide<T>>(s[i])));
}
template <class T, class F>
void binary(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b, int32_t count, F f) {
  checkCount(static_cast<uint64_t>(count), dst.GetSize(),
             "vector instruction beyond the destination LocalTensor");
  checkCount(static_cast<uint64_t>(count), a.GetSize(), "vector instruction beyond a source LocalTensor");
  checkCount(static_cast<uint64_t>(count), b.GetSize(), "vector instruction beyond a source LocalTensor");
  npusimKernelRecord(NPUSIM_KERNEL_VECTOR, static_cast<uint64_t>(count) * sizeof(T), nullptr);
  T* d = dst.GetPhyAddr();
  const T *x = a.GetPhyAddr(), *y = b.GetPhyAddr();
  for (int32_t i = 0; i < count; ++i)
    d[i] = static_cast<T>(f(static_cast<Wide<T>>(x[i]), static_cast<Wide<T>>(y[i])));
}
}  // namespace detail

#define NPUSIM_ASCENDC_BINARY(Name, expr)                                            \
  template <class T>                                                                 \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, \
                              const LocalTensor<T>& src1, const int32_t& count) {    \
    detail::binary(dst, src0, src1, count, [](auto a, auto b) { return expr; });     \
  }
NPUSIM_ASCENDC_BINARY(Add, a + b)
NPUSIM_ASCENDC_BINARY(Sub, a - b)
NPUSIM_ASCENDC_BINARY(Mul, a* b)
NPUSIM_ASCENDC_BINARY(Div, a / b)
NPUSIM_ASCENDC_BINARY(Max, a > b ? a : b)
NPUSIM_ASCENDC_BINARY(Min, a < b ? a : b)
#undef NPUSIM_ASCENDC_BINARY

// The operands of `dst = src0 op src1`; the assignment runs the instruction over dst.GetSize()
// elements, which each source must have.
template <class T>
struct SymbolOverride {
  using IsTensorExpression = void;
  char op;
  LocalTensor<T> src0, src1;
  __aicore__ inline void Process(const LocalTensor<T>& dst) const {
    const int32_t count = static_cast<int32_t>(dst.GetSize());
    switch (op) {
      case '+':
        Add(dst, src0, src1, count);
        break;
      case '-':
        Sub(dst, src0, src1, count);
        break;
      case '*':
        Mul(dst, src0, src1, count);
        break;
      default:
        Div(dst, src0, src1, count);
        break;
    }
  }
};
#define NPUSIM_ASCENDC_OPERATOR(op)                                                                   \
  template <class T>                                                                                  \
  __aicore__ inline SymbolOverride<T> operator op(const LocalTensor<T>& a, const LocalTensor<T>& b) { \
    return SymbolOverride<T>{(#op)[0], a, b};                                                         \
  }
NPUSIM_ASCENDC_OPERATOR(+)
NPUSIM_ASCENDC_OPERATOR(-)
NPUSIM_ASCENDC_OPERATOR(*)
NPUSIM_ASCENDC_OPERATOR(/)
#undef NPUSIM_ASCENDC_OPERATOR

#define NPUSIM_ASCENDC_UNARY(Name, expr)                                                                    \
  template <class T>                                                                                        \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) { \
    detail::unary(dst, src, count, [](auto a) { return expr; });                                            \
  }
NPUSIM_ASCENDC_UNARY(Exp, std::exp(a))
NPUSIM_ASCENDC_UNARY(Ln, std::log(a))
NPUSIM_ASCENDC_UNARY(Abs, a < 0 ? -a : a)
NPUSIM_ASCENDC_UNARY(Relu, a > 0 ? a : decltype(a)(0))
NPUSIM_ASCENDC_UNARY(Sqrt, std::sqrt(a))
#undef NPUSIM_ASCENDC_UNARY

// Element and scalar: the scalar is converted to the element type first, as the instruction
// takes it. Maxs / Mins give LeakyRelu's max(x, 0) + slope * min(x, 0).
#define NPUSIM_ASCENDC_SCALAR(Name, expr)                                                            \
  template <class T, class S>                                                                        \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const S& scalar, \
                              const int32_t& count) {                                                \
    const detail::Wide<T> k = static_cast<detail::Wide<T>>(static_cast<T>(scalar));                  \
    detail::unary(dst, src, count, [k](auto a) { return expr; });                                    \
  }
NPUSIM_ASCENDC_SCALAR(Adds, a + k)
NPUSIM_ASCENDC_SCALAR(Muls, a* k)
NPUSIM_ASCENDC_SCALAR(Maxs, a > k ? a : k)
NPUSIM_ASCENDC_SCALAR(Mins, a < k ? a : k)
NPUSIM_ASCENDC_SCALAR(LeakyRelu, a >= 0 ? a : a * k)  // x, or scalar * x below 0
#undef NPUSIM_ASCENDC_SCALAR

template <class T, class S>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const S& scalar, const int32_t& count) {
  detail::checkCount(static_cast<uint64_t>(count), dst.GetSize(),
                     "Duplicate beyond the destination LocalTensor");
  npusimKernelRecord(NPUSIM_KERNEL_VECTOR, static_cast<uint64_t>(count) * sizeof(T), nullptr);
  const T v = static_cast<T>(scalar);
  for (int32_t i = 0; i < count; ++i) dst.GetPhyAddr()[i] = v;
}

// Cast: to an integer type with the rounding the mode names; to a floating type rounded to
// nearest even (CAST_NONE, CAST_RINT) or exactly. A directed rounding that would change a
// floating result is not modelled and ends the kernel with an exception, never a wrong value.
template <class D, class S>
__aicore__ inline void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& mode,
                            const uint32_t& count) {
  detail::checkCount(count, dst.GetSize(), "Cast beyond the destination LocalTensor");
  detail::checkCount(count, src.GetSize(), "Cast beyond the source LocalTensor");
  npusimKernelRecord(NPUSIM_KERNEL_VECTOR, uint64_t{count} * (sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S)),
                     nullptr);
  for (uint32_t i = 0; i < count; ++i) {
    const double v = static_cast<double>(static_cast<detail::Wide<S>>(src.GetPhyAddr()[i]));
    if constexpr (std::is_integral<D>::value) {
      double r = v;
      switch (mode) {
        case RoundMode::CAST_FLOOR:
          r = std::floor(v);
          break;
        case RoundMode::CAST_CEIL:
          r = std::ceil(v);
          break;
        case RoundMode::CAST_ROUND:
          r = std::round(v);
          break;
        case RoundMode::CAST_TRUNC:
          r = std::trunc(v);
          break;
        case RoundMode::CAST_NONE:
        case RoundMode::CAST_RINT:
          r = std::nearbyint(v);
          break;
        case RoundMode::CAST_ODD:
          detail::fault("Cast: CAST_ODD to an integer type is not supported");
      }
      const double lo = static_cast<double>(std::numeric_limits<D>::min());
      const double hi = static_cast<double>(std::numeric_limits<D>::max());
      dst.GetPhyAddr()[i] = static_cast<D>(r < lo ? lo : (r > hi ? hi : r));  // saturating
    } else {
      const D r = static_cast<D>(static_cast<float>(v));
      if (mode != RoundMode::CAST_NONE && mode != RoundMode::CAST_RINT &&
          static_cast<double>(static_cast<float>(r)) != v)
        detail::fault("Cast: directed rounding to a floating type is not supported for inexact values");
      dst.GetPhyAddr()[i] = r;
    }
  }
}

// Reductions leave the result in dst[0]; ReduceMax with calIndex puts the index's bits in dst[1].
template <class T>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& work, const int32_t count) {
  detail::checkCount(static_cast<uint64_t>(count), src.GetSize(), "ReduceSum beyond the source LocalTensor");
  detail::checkCount(1, dst.GetSize(), "ReduceSum: empty destination");
  npusimKernelRecord(NPUSIM_KERNEL_VECTOR, static_cast<uint64_t>(count) * sizeof(T), nullptr);
  detail::Wide<T> acc = 0;
  for (int32_t i = 0; i < count; ++i) acc += static_cast<detail::Wide<T>>(src.GetPhyAddr()[i]);
  dst.GetPhyAddr()[0] = static_cast<T>(acc);
}
template <class T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& work, const int32_t count, bool calIndex = false) {
  detail::checkCount(static_cast<uint64_t>(count), src.GetSize(), "ReduceMax beyond the source LocalTensor");
  detail::checkCount(calIndex ? 2 : 1, dst.GetSize(), "ReduceMax: destination too small");
  if (count < 1) detail::fault("ReduceMax of no elements");
  npusimKernelRecord(NPUSIM_KERNEL_VECTOR, static_cast<uint64_t>(count) * sizeof(T), nullptr);
  int32_t best = 0;
  for (int32_t i = 1; i < count; ++i)
    if (static_cast<detail::Wide<T>>(src.GetPhyAddr()[i]) >
        static_cast<detail::Wide<T>>(src.GetPhyAddr()[best]))
      best = i;
  const T m = src.GetPhyAddr()[best];
  dst.GetPhyAddr()[0] = m;
  if (calIndex) {
    using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
    const Bits idx = static_cast<Bits>(best);
    std::memcpy(&dst.GetPhyAddr()[1], &idx, sizeof(Bits) < sizeof(T) ? sizeof(Bits) : sizeof(T));
  }
}

// Kernel printf: formatted on the device, shown by the host at the next synchronisation.
namespace detail {
template <class A>
A printArg(A a) {
  return a;
}
inline double printArg(half a) { return static_cast<double>(a); }
inline double printArg(bfloat16_t a) { return static_cast<double>(static_cast<float>(a)); }
}  // namespace detail

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
template <class... Args>
__aicore__ inline void printf(const char* fmt, Args... args) {
  char buf[1024];
  int n = std::snprintf(buf, sizeof buf, fmt, detail::printArg(args)...);
  if (n > 0)
    npusimKernelPrint(buf, static_cast<size_t>(n) < sizeof buf ? static_cast<size_t>(n) : sizeof buf - 1);
}
template <class... Args>
__aicore__ inline void PRINTF(const char* fmt, Args... args) {
  ::AscendC::printf(fmt, args...);
}
#pragma GCC diagnostic pop

}  // namespace AscendC

#include "npusim_block_sync.h"
#include "npusim_proposal_sort.h"
#include "npusim_sort32.h"
#include "npusim_sync_all.h"
#include "npusim_vector_repeat.h"

namespace AscendC {

// ---- workspace and checks ----------------------------------------------------------------------

// The system workspace that CANN reserves at the start of a kernel's workspace (16 MiB), before
// the user's part. In the CPU debug mode there is none: the user's part is the whole workspace.
constexpr uint64_t RESERVED_WORKSPACE = 16 * 1024 * 1024;
#if defined(__CCE_KT_TEST__) || defined(ASCENDC_CPU_DEBUG)
constexpr bool kCpuDebugWorkspace = true;
#else
constexpr bool kCpuDebugWorkspace = false;
#endif
namespace detail {
inline thread_local GM_ADDR sysWorkspace = nullptr;  // what SetSysWorkspace last set on this thread
}
__aicore__ inline void SetSysWorkspace(GM_ADDR workspace) {
  if (workspace == nullptr) detail::fault("SetSysWorkspace: workspace can not be nullptr");
  detail::sysWorkspace = workspace;
}
// The workspace SetSysWorkspace set (nullptr before any): the Matmul objects take it, npusim's
// do not use it.
__aicore__ inline GM_ADDR GetSysWorkSpacePtr() { return detail::sysWorkspace; }
__aicore__ inline void SetSysWorkspaceForce(GM_ADDR workspace) { SetSysWorkspace(workspace); }
// npusim's system workspace is always the start of the workspace argument (what every kernel
// hands SetSysWorkspace), so the user's part follows it.
__aicore__ inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
  if (workspace == nullptr) detail::fault("GetUserWorkspace: workspace can not be nullptr");
  return kCpuDebugWorkspace ? workspace : workspace + RESERVED_WORKSPACE;
}

// The first Ascend C releases' name for the offset of this block's share of a tensor.
template <class T>
__aicore__ inline GM_ADDR ParamOffset(GM_ADDR gm, int64_t blockLength) {
  return gm + blockLength * static_cast<int64_t>(sizeof(T)) * GetBlockIdx();
}

}  // namespace AscendC

#include "npusim_ascendc_cube.h"

// The first Ascend C releases called the namespace tik2 (a namespace, not an alias: their
// samples reopen it).
namespace tik2 {
using namespace AscendC;
}

#ifndef PRINTF
#define PRINTF ::AscendC::PRINTF
#endif

// ASSERT(condition): a kernel whose condition fails stops there with an AI-core exception naming
// it (in the CPU debug mode ICPU_RUN_KF prints it and returns -1), where hardware would trap.
#ifndef ASSERT
#define ASSERT(cond) ((cond) ? static_cast<void>(0) : ::npusimKernelFault(1, "ASSERT failed: " #cond))
#endif

#endif  // NPUSIM_KERNEL_OPERATOR_H_
