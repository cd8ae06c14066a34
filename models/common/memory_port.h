#pragma once
// What an initiator (DMA channel, AI-core MTE) sees of a memory: an access that arrives at
// `arrival` and completes at the returned time, with the memory's contention applied.
// MemoryInitiator (memory_initiator.h) implements it as a TLM-2.0 initiator socket.
#include <cstdint>

#include "models/common/tick.h"

namespace npusim {

class MemoryPort {
 public:
  virtual ~MemoryPort() = default;
  virtual Tick access(uint64_t addr, uint64_t bytes, bool write, Tick arrival) = 0;
};

}  // namespace npusim
