#ifndef NPUSIM_TILING_PLATFORM_ASCENDC_H_
#define NPUSIM_TILING_PLATFORM_ASCENDC_H_
// CANN's other path to PlatformAscendC (the KernelLaunch samples include it from here).
#include "platform/platform_ascendc.h"
#endif  // NPUSIM_TILING_PLATFORM_ASCENDC_H_
