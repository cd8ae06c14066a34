#pragma once
// Helpers shared by the HBM tests: parameter sets and addresses of chosen banks.
#include <cstdint>

#include "models/hbm/hbm_model.h"

namespace npusim::hbmtest {

// The 910B organisation with a chosen timing set; refresh off unless a test is about refresh, and
// no write queue (writes scheduled when they arrive) unless a test is about the queue.
inline HbmParams params(const char* timing = "hbm2e-3200", bool refresh = false) {
  HbmParams p;
  p.timing = hbmTimingPreset(timing);
  p.refresh = refresh;
  p.writeHigh = p.writeLow = 0;
  return p;
}

// Address of byte `byte` of row `row` in bank `bank` of group `bg` on pseudo-channel `pc`.
inline uint64_t addr(const HbmModel& m, uint32_t pc, uint32_t bg, uint32_t bank, uint64_t row,
                     uint32_t byte = 0) {
  HbmAddressMap::Location loc;
  loc.pc = pc;
  loc.bankGroup = bg;
  loc.bank = bank;
  loc.row = row;
  loc.byteInRow = byte;
  return m.addressMap().encode(loc);
}

inline Tick ns(double v) { return nsToTick(v); }

}  // namespace npusim::hbmtest
