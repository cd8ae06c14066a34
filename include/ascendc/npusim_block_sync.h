#ifndef NPUSIM_BLOCK_SYNC_H_
#define NPUSIM_BLOCK_SYNC_H_
// Synchronisation between the blocks of a kernel through global memory (IBSet, IBWait;
// docs/kernels.md, "Blocks that wait for each other"). Each flag is the first int32 of its own
// 32-byte block of gmWorkspace, at flag (eventID x blockNum + blockIdx), which is why the
// documentation asks for blockNum x 32 B x eventID_max + blockIdx_max x 32 B + 32 B of workspace,
// initialised to 0. IBSet waits until the flag is 0 and writes 1; IBWait waits until it is 1 and
// writes 0 back, so each set is seen by one wait. Included by kernel_operator.h.
#include <cstdint>

#include "npusim_kernel_abi.h"

namespace AscendC {

namespace detail {
constexpr uint32_t kFlagInts = 8;  // one flag per 32-byte block
inline int32_t* syncFlag(const GlobalTensor<int32_t>& gm, const LocalTensor<int32_t>& ub, int32_t blockIdx,
                         int32_t eventID) {
  if (blockIdx < 0 || blockIdx >= vectorBlocks()) fault("IBSet/IBWait: blockIdx outside 0..blockNum-1");
  if (eventID < 0) fault("IBSet/IBWait: negative eventID");
  checkCount(kFlagInts, ub.GetSize(), "IBSet/IBWait: ubWorkspace smaller than 32 bytes");
  return gm.GetPhyAddr() + (static_cast<uint64_t>(eventID) * static_cast<uint64_t>(vectorBlocks()) +
                            static_cast<uint64_t>(blockIdx)) *
                               kFlagInts;
}
}  // namespace detail

template <bool isAIVOnly = true>
__aicore__ inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace,
                             const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx, int32_t eventID) {
  npusimKernelFlagExchange(detail::syncFlag(gmWorkspace, ubWorkspace, blockIdx, eventID), 0, 1);
  ubWorkspace.SetValue(0, 1);
}

template <bool isAIVOnly = true>
__aicore__ inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace,
                              const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx, int32_t eventID) {
  npusimKernelFlagExchange(detail::syncFlag(gmWorkspace, ubWorkspace, blockIdx, eventID), 1, 0);
  ubWorkspace.SetValue(0, 0);
}

}  // namespace AscendC

#endif  // NPUSIM_BLOCK_SYNC_H_
