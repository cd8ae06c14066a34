#pragma once
// What an initiator (DMA channel, AI-core MTE) sees of a memory: an access that arrives at
// `arrival` and completes at the returned time, with the memory's contention applied.
// Implemented by the HBM model of each device.
#include <cstdint>

#include "models/common/tick.h"

namespace npusim {

class MemoryPort {
 public:
  virtual ~MemoryPort() = default;
  virtual Tick access(uint64_t addr, uint64_t bytes, bool write, Tick arrival) = 0;
  virtual double peakBytesPerSec() const = 0;
};

}  // namespace npusim
