#pragma once
// The host CPU as the simulator sees it: what each kind of runtime call costs the calling
// thread in simulated time, and the host-side latencies around the device (doorbell,
// completion report, wake-up). The host's DDR, as a target of device DMA, is part of the
// PCIe fabric's root complex (models/pcie/fabric.h).
#include <cstdint>

#include "models/common/tick.h"

namespace npusim {

class Config;

struct HostCosts {
  Tick apiCall;     // a call that launches nothing
  Tick launch;      // an async task launch, before the doorbell
  Tick syncCopy;    // extra setup of a synchronous copy
  Tick doorbell;    // MMIO doorbell: host clock -> task visible to the device
  Tick wakeup;      // thread wake-up after a completion it waited for
  Tick alloc;       // device or pinned allocation / free
  Tick opPrepare;   // aclnn phase 1 (GetWorkspaceSize)
  Tick opLaunch;    // aclnn phase 2 (kernel launch)
  Tick completion;  // device completion report reaching the host
  double memcpyBytesPerSec;  // CPU memcpy (H2H, pageable staging)
  uint64_t pageableChunk;    // pinned staging buffer for pageable copies
  uint64_t sqDepth;          // tasks per stream before a launch blocks
  double timestampHz;        // device event timestamp clock
  int maxStreams, maxEvents;
};

HostCosts hostCostsFromConfig(const Config& cfg);

}  // namespace npusim
