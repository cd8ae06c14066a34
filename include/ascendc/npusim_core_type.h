#ifndef NPUSIM_CORE_TYPE_H_
#define NPUSIM_CORE_TYPE_H_
// The A2's separate cube (AIC) and vector (AIV) cores as an Ascend C kernel sees them: its type
// (KERNEL_TASK_TYPE_DEFAULT), the core type of the running program (g_coreType, ASCEND_IS_AIC,
// ASCEND_IS_AIV), its place among its AI core's programs and the cross-core flags
// (docs/kernels.md, "Mixed kernels"). Kernel code is host code, so the core type is asked of the
// runtime: a vector kernel that never declares a type answers AIV everywhere, as before.
// Included by kernel_operator.h.
#include <cstdint>

#include "npusim_cce_intrinsics.h"
#include "npusim_kernel_abi.h"

// What a kernel that has not declared its type answers: a vector kernel's AIV (2); the first
// Matmul samples' cube kernels (lib/matrix/matmul/matmul.h alone) make it AIC (1).
#ifndef NPUSIM_DEFAULT_CORE_TYPE
#define NPUSIM_DEFAULT_CORE_TYPE 2
#endif
#undef ASCEND_IS_AIV
#undef ASCEND_IS_AIC
#define ASCEND_IS_AIV (::npusimKernelCoreType(NPUSIM_DEFAULT_CORE_TYPE) == 2)
#define ASCEND_IS_AIC (::npusimKernelCoreType(NPUSIM_DEFAULT_CORE_TYPE) == 1)
#define g_coreType (::npusimKernelCoreType(NPUSIM_DEFAULT_CORE_TYPE))

// KERNEL_TASK_TYPE_DEFAULT(type), the kernel body's first statement: a mixed type makes the
// launch run blockDim cube programs and blockDim x ratio vector programs.
enum KernelMetaType {
  KERNEL_TYPE_AIV_ONLY = NPUSIM_KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY = NPUSIM_KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0 = NPUSIM_KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0 = NPUSIM_KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1 = NPUSIM_KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2 = NPUSIM_KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_MIX_VECTOR_CORE = NPUSIM_KERNEL_TYPE_MIX_VECTOR_CORE
};
#undef KERNEL_TASK_TYPE_DEFAULT
#define KERNEL_TASK_TYPE_DEFAULT(type) ::npusimKernelDeclareType(static_cast<int>(type))

namespace AscendC {

// The core types g_coreType answers.
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;

// On an AIV, its index among its AI core's vector programs (0 .. ratio - 1); 0 on an AIC.
__aicore__ inline int64_t GetSubBlockIdx() { return npusimKernelSubBlockIdx(); }
// Programs of the running program's type per AI core: 2 on an AIV of a 1:2 mixed kernel, else 1.
__aicore__ inline int64_t GetSubBlockNum() { return npusimKernelSubBlockNum(); }
__aicore__ inline int64_t GetTaskRation() { return npusimKernelSubBlockNum(); }

namespace detail {
// The vector programs of the launch, which SyncAll and IBSet/IBWait count: blockNum in a vector
// kernel, blockNum x 2 in a 1:2 mixed kernel.
inline int32_t vectorBlocks() {
  return static_cast<int32_t>(npusimKernelBlockNum() * npusimKernelSubBlockNum());
}
}  // namespace detail

// modeId 0: every program of the setter's core type meets; 1: the vector programs of one AI
// core meet; 2: an AIC's set reaches both of its AIVs, both AIVs' sets reach their AIC. The
// pipe names the unit whose earlier work the set follows; npusim's programs run in order.
template <uint8_t modeId, pipe_t pipe>
__aicore__ inline void CrossCoreSetFlag(uint16_t flagId) {
  static_assert(modeId <= 2, "CrossCoreSetFlag: modeId is 0, 1 or 2");
  static_assert(pipe != PIPE_S && pipe != PIPE_ALL,
                "CrossCoreSetFlag: PIPE_S and PIPE_ALL are not supported");
  npusimKernelCrossSet(modeId, flagId);
}
// Blocks until the program's counter of flagId is not 0, then lowers it.
__aicore__ inline void CrossCoreWaitFlag(uint16_t flagId) { npusimKernelCrossWait(flagId); }
template <uint8_t modeId, pipe_t pipe>
__aicore__ inline void CrossCoreWaitFlag(uint16_t flagId) {
  static_assert(modeId <= 2, "CrossCoreWaitFlag: modeId is 0, 1 or 2");
  npusimKernelCrossWait(flagId);
}

}  // namespace AscendC

#endif  // NPUSIM_CORE_TYPE_H_
