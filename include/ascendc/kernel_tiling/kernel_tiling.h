#ifndef NPUSIM_KERNEL_TILING_H_
#define NPUSIM_KERNEL_TILING_H_
// The kernel's view of the matmul tiling (CANN's kernel_tiling/kernel_tiling.h): a plain struct
// of int32_t fields, laid out as optiling::TCubeTiling::SaveToBuffer writes them, so a kernel
// copies it word by word out of its tiling argument.
#include <cstdint>

// The fields, in CANN's order: one list for this struct and the host's optiling::TCubeTiling
// (tiling/tiling_api.h), so the buffer the host writes and the struct the kernel reads cannot
// disagree. These are the 48 fields (192 bytes) the KernelLaunch samples copy
// (`48 * sizeof(uint32_t)`); CANN's newer releases append BatchNum and mxTypePara, which
// npusim's Matmul does not use.
#define NPUSIM_TCUBE_TILING_FIELDS(X) \
  X(usedCoreNum)                      \
  X(M)                                \
  X(N)                                \
  X(Ka)                               \
  X(Kb)                               \
  X(singleCoreM)                      \
  X(singleCoreN)                      \
  X(singleCoreK)                      \
  X(baseM)                            \
  X(baseN)                            \
  X(baseK)                            \
  X(depthA1)                          \
  X(depthB1)                          \
  X(stepM)                            \
  X(stepN)                            \
  X(isBias)                           \
  X(transLength)                      \
  X(iterateOrder)                     \
  X(shareMode)                        \
  X(shareL1Size)                      \
  X(shareL0CSize)                     \
  X(shareUbSize)                      \
  X(batchM)                           \
  X(batchN)                           \
  X(singleBatchM)                     \
  X(singleBatchN)                     \
  X(stepKa)                           \
  X(stepKb)                           \
  X(depthAL1CacheUB)                  \
  X(depthBL1CacheUB)                  \
  X(dbL0A)                            \
  X(dbL0B)                            \
  X(dbL0C)                            \
  X(ALayoutInfoB)                     \
  X(ALayoutInfoS)                     \
  X(ALayoutInfoN)                     \
  X(ALayoutInfoG)                     \
  X(ALayoutInfoD)                     \
  X(BLayoutInfoB)                     \
  X(BLayoutInfoS)                     \
  X(BLayoutInfoN)                     \
  X(BLayoutInfoG)                     \
  X(BLayoutInfoD)                     \
  X(CLayoutInfoB)                     \
  X(CLayoutInfoS1)                    \
  X(CLayoutInfoN)                     \
  X(CLayoutInfoG)                     \
  X(CLayoutInfoS2)

struct TCubeTiling {
#define NPUSIM_TCUBE_FIELD(name) int32_t name = 0;
  NPUSIM_TCUBE_TILING_FIELDS(NPUSIM_TCUBE_FIELD)
#undef NPUSIM_TCUBE_FIELD
};
static_assert(sizeof(TCubeTiling) == 48 * sizeof(int32_t), "TCubeTiling is the 48 words the samples copy");

namespace AscendC::tiling {
using ::TCubeTiling;
}

#endif  // NPUSIM_KERNEL_TILING_H_
