// Repeat-addressed vector instructions and Sort32 (docs/kernels.md, "Instructions by repeats"),
// for repeat_vector_test.cpp. Each kernel loads its inputs whole into the unified buffer, runs one
// instruction and stores the whole destination, so the test sees what was and was not written.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t kMaxBytes = 32768;  // each of a kernel's unified-buffer tensors

// A kernel's pipe and its three unified-buffer tensors of kMaxBytes.
struct Buffers {
  TPipe pipe;
  TBuf<QuePosition::VECCALC> a, b, c;
  Buffers() {
    pipe.InitBuffer(a, kMaxBytes);
    pipe.InitBuffer(b, kMaxBytes);
    pipe.InitBuffer(c, kMaxBytes);
  }
};

template <class T>
LocalTensor<T> loaded(TBuf<QuePosition::VECCALC>& buf, GM_ADDR gm, uint32_t count) {
  LocalTensor<T> t = buf.Get<T>();
  GlobalTensor<T> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm));
  if (count > 0) DataCopy(t, g, count);
  return t;
}
template <class T>
void store(GM_ADDR gm, const LocalTensor<T>& t, uint32_t count) {
  GlobalTensor<T> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm));
  DataCopy(g, t, count);
}
void storeCount(GM_ADDR gm, uint64_t n) {
  GlobalTensor<uint64_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(gm));
  g.SetValue(0, n);
}

template <class T>
void sort32(GM_ADDR scores, GM_ADDR indices, GM_ADDR out, uint32_t repeats, uint32_t calls) {
  Buffers u;
  const uint32_t n = 32 * repeats;
  LocalTensor<T> s = loaded<T>(u.a, scores, n);
  LocalTensor<uint32_t> i = loaded<uint32_t>(u.b, indices, n);
  LocalTensor<T> d = u.c.Get<T>();
  for (uint32_t k = 0; k < calls; ++k) Sort32(d, s, i, static_cast<int32_t>(repeats));
  store(out, d, n * 8 / sizeof(T));
}
}  // namespace

// out = Sort32 of `repeats` x 32 scores with their indices, `calls` times over (for its cost).
extern "C" __global__ __aicore__ void k_sort32_float(GM_ADDR scores, GM_ADDR indices, GM_ADDR out,
                                                     uint32_t repeats, uint32_t calls) {
  sort32<float>(scores, indices, out, repeats, calls);
}
extern "C" __global__ __aicore__ void k_sort32_half(GM_ADDR scores, GM_ADDR indices, GM_ADDR out,
                                                    uint32_t repeats, uint32_t calls) {
  sort32<half>(scores, indices, out, repeats, calls);
}

// dst (loaded from out first, n elements) = Copy of src with a contiguous mask, or with the bit mask
// {bits0, bits1} when mask is 0; `calls` times over (for its cost).
extern "C" __global__ __aicore__ void k_copy_repeat(GM_ADDR src, GM_ADDR out, uint32_t n, uint32_t mask,
                                                    uint64_t bits0, uint64_t bits1, uint32_t repeats,
                                                    uint32_t dstStride, uint32_t srcStride,
                                                    uint32_t dstRepeat, uint32_t srcRepeat, uint32_t calls) {
  Buffers u;
  LocalTensor<float> s = loaded<float>(u.a, src, n);
  LocalTensor<float> d = loaded<float>(u.b, out, n);
  const CopyRepeatParams p(static_cast<uint16_t>(dstStride), static_cast<uint16_t>(srcStride),
                           static_cast<uint16_t>(dstRepeat), static_cast<uint16_t>(srcRepeat));
  const uint64_t bits[2] = {bits0, bits1};
  for (uint32_t k = 0; k < calls; ++k) {
    if (mask != 0)
      Copy(d, s, mask, static_cast<uint8_t>(repeats), p);
    else
      Copy(d, s, bits, static_cast<uint8_t>(repeats), p);
  }
  store(out, d, n);
}

// Half elements: two mask words cover a repeat's 128 elements.
extern "C" __global__ __aicore__ void k_copy_repeat_half(GM_ADDR src, GM_ADDR out, uint32_t n, uint64_t bits0,
                                                         uint64_t bits1, uint32_t repeats) {
  Buffers u;
  LocalTensor<half> s = loaded<half>(u.a, src, n);
  LocalTensor<half> d = loaded<half>(u.b, out, n);
  const uint64_t bits[2] = {bits0, bits1};
  Copy(d, s, bits, static_cast<uint8_t>(repeats), {1, 1, 8, 8});
  store(out, d, n);
}

// out (loaded first, outN floats) = WholeReduceSum of src (n floats), contiguous or bit mask.
extern "C" __global__ __aicore__ void k_whole_reduce_sum(GM_ADDR src, GM_ADDR out, uint32_t n, uint32_t outN,
                                                         uint32_t mask, uint64_t bits0, uint32_t repeats,
                                                         uint32_t dstRepStride, uint32_t srcBlkStride,
                                                         uint32_t srcRepStride) {
  Buffers u;
  LocalTensor<float> s = loaded<float>(u.a, src, n);
  LocalTensor<float> d = loaded<float>(u.b, out, outN);
  if (mask != 0) {
    WholeReduceSum(d, s, static_cast<int32_t>(mask), static_cast<int32_t>(repeats),
                   static_cast<int32_t>(dstRepStride), static_cast<int32_t>(srcBlkStride),
                   static_cast<int32_t>(srcRepStride));
  } else {
    const uint64_t bits[1] = {bits0};
    WholeReduceSum(d, s, bits, static_cast<int32_t>(repeats), static_cast<int32_t>(dstRepStride),
                   static_cast<int32_t>(srcBlkStride), static_cast<int32_t>(srcRepStride));
  }
  store(out, d, outN);
}

// out (zeroed first, n floats) = GatherMask of src (n floats) by the uint32 pattern tensor
// (patternN words), or by built-in pattern `builtin` when it is not 0; count = rsvdCnt.
extern "C" __global__ __aicore__ void k_gather_mask(GM_ADDR src, GM_ADDR pattern, GM_ADDR out, GM_ADDR count,
                                                    uint32_t n, uint32_t patternN, uint32_t builtin,
                                                    uint32_t reduceMode, uint32_t mask, uint32_t repeats,
                                                    uint32_t blockStride, uint32_t repeatStride,
                                                    uint32_t patternStride) {
  Buffers u;
  LocalTensor<float> s = loaded<float>(u.a, src, n);
  LocalTensor<uint32_t> p = loaded<uint32_t>(u.b, pattern, patternN);
  LocalTensor<float> d = u.c.Get<float>();
  Duplicate(d, 0.0f, static_cast<int32_t>(n));
  const GatherMaskParams params(static_cast<uint8_t>(blockStride), static_cast<uint16_t>(repeats),
                                static_cast<uint16_t>(repeatStride), static_cast<uint8_t>(patternStride));
  uint64_t got = 0;
  if (builtin != 0)
    GatherMask(d, s, static_cast<uint8_t>(builtin), reduceMode != 0, mask, params, got);
  else
    GatherMask(d, s, p, reduceMode != 0, mask, params, got);
  store(out, d, n);
  storeCount(count, got);
}

// The same with half elements and a uint16 pattern, normal mode, one repeat's pattern for all.
extern "C" __global__ __aicore__ void k_gather_mask_half(GM_ADDR src, GM_ADDR pattern, GM_ADDR out,
                                                         GM_ADDR count, uint32_t n, uint32_t repeats) {
  Buffers u;
  LocalTensor<half> s = loaded<half>(u.a, src, n);
  LocalTensor<uint16_t> p = loaded<uint16_t>(u.b, pattern, 16);
  LocalTensor<half> d = u.c.Get<half>();
  Duplicate(d, half(0.0f), static_cast<int32_t>(n));
  uint64_t got = 0;
  GatherMask(d, s, p, false, 0, GatherMaskParams(1, static_cast<uint16_t>(repeats), 8, 0), got);
  store(out, d, n);
  storeCount(count, got);
}
