#ifndef NPUSIM_SYNC_ALL_H_
#define NPUSIM_SYNC_ALL_H_
// SyncAll: every block of the kernel (or the first usedCores) meets before any goes on
// (docs/kernels.md, "Blocks that wait for each other"). The hardware form takes no arguments; the
// software form keeps each block's flag in its own 32-byte block of gmWorkspace (at least
// usedCores x 32 bytes, zeroed before the first use) and needs as much of ubWorkspace. Blocks run
// one at a time in npusim, so a block that arrives first parks until the last one arrives; a
// barrier that some participant never reaches ends the kernel with an exception instead of
// hanging. Included by kernel_operator.h.
#include <cstdint>

#include "npusim_kernel_abi.h"

namespace AscendC {

namespace detail {
inline int32_t syncAllParticipants(int32_t usedCores) {
  if (usedCores < 0 || usedCores > vectorBlocks())
    fault("SyncAll: usedCores outside 0..blockNum (0: every block)");
  return usedCores == 0 ? vectorBlocks() : usedCores;
}
}  // namespace detail

template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace,
                               const LocalTensor<int32_t>& ubWorkspace, const int32_t usedCores = 0) {
  const int32_t n = detail::syncAllParticipants(usedCores);
  const uint64_t flagInts = uint64_t{static_cast<uint32_t>(n)} * detail::kFlagInts;
  if (gmWorkspace.GetSize() != 0)
    detail::checkCount(flagInts, gmWorkspace.GetSize(),
                       "SyncAll: gmWorkspace smaller than usedCores x 32 bytes");
  detail::checkCount(flagInts, ubWorkspace.GetSize(),
                     "SyncAll: ubWorkspace smaller than usedCores x 32 bytes");
  npusimKernelSyncAll(n, gmWorkspace.GetPhyAddr());
  // The block's copy of its flag, as the software barrier leaves it.
  ubWorkspace.SetValue(0, gmWorkspace.GetPhyAddr()[GetBlockIdx() * detail::kFlagInts]);
}

template <bool isAIVOnly = true>
__aicore__ inline void SyncAll() {
  npusimKernelSyncAll(detail::vectorBlocks(), nullptr);
}

}  // namespace AscendC

#endif  // NPUSIM_SYNC_ALL_H_
