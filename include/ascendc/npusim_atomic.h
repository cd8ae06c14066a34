#ifndef NPUSIM_ASCENDC_ATOMIC_H_
#define NPUSIM_ASCENDC_ATOMIC_H_
// The DMA atomic add of Ascend C (SetAtomicAdd<T> / SetAtomicNone): while it is set, the block's
// copies to GM (DataCopy, DataCopyPad, the Matmul's writes of C) add their elements to what GM
// holds instead of overwriting it. The mode belongs to the running block (its core's setting)
// and every block starts without one. Types: the A2's float, half, bfloat16_t (added in float,
// rounded once) and int32_t (two's-complement wrap: npusim's reading, the reference does not say);
// int8_t and int16_t do not compile. A copy of another type while a mode is set ends the kernel.
// Included by kernel_operator.h; docs/kernels.md, "The Ascend C subset".
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "npusim_ascendc_types.h"
#include "npusim_kernel_launch.h"

namespace AscendC {
namespace detail {

// The code a block's atomic mode keeps for T (0: a type the add does not take).
template <class T>
constexpr int atomicCode() {
  return std::is_same<T, float>::value        ? 1
         : std::is_same<T, half>::value       ? 2
         : std::is_same<T, bfloat16_t>::value ? 3
         : std::is_same<T, int32_t>::value    ? 4
                                              : 0;
}
// Whether a copy of T to GM adds; one of another type while a mode is set is refused.
template <class T>
inline bool atomicAddsTo() {
  const int mode = ::npusim::kernel::blockAtomicAdd;
  if (mode == 0) return false;
  if (mode != atomicCode<T>())
    npusimKernelFault(0, "SetAtomicAdd: a copy to GM writes another type than the atomic add's");
  return true;
}
template <class T>
inline T atomicSum(T a, T b) {
  if constexpr (std::is_same<T, int32_t>::value)
    return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
  else
    return static_cast<T>(static_cast<float>(a) + static_cast<float>(b));
}
// Stores n elements to GM: copies them, or adds them under SetAtomicAdd<T>.
template <class T>
inline void storeToGm(T* dst, const T* src, uint64_t n) {
  if (!atomicAddsTo<T>()) {
    std::memcpy(dst, src, n * sizeof(T));
    return;
  }
  for (uint64_t i = 0; i < n; ++i) dst[i] = atomicSum(dst[i], src[i]);
}

}  // namespace detail

template <class T>
__aicore__ inline void SetAtomicAdd() {
  static_assert(detail::atomicCode<T>() != 0,
                "SetAtomicAdd: npusim adds float, half, bfloat16_t and int32_t");
  ::npusim::kernel::blockAtomicAdd = detail::atomicCode<T>();
}
__aicore__ inline void SetAtomicNone() { ::npusim::kernel::blockAtomicAdd = 0; }
__aicore__ inline void DisableDmaAtomic() { SetAtomicNone(); }

}  // namespace AscendC

#endif  // NPUSIM_ASCENDC_ATOMIC_H_
