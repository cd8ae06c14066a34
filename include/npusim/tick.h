#pragma once
// Simulated time: integer picoseconds. Models and traces compute in Ticks; models
// convert to sc_time only where a SystemC process waits.
#include <cstdint>
#include <limits>

namespace npusim {

using Tick = uint64_t;  // picoseconds

constexpr Tick kTickMax = std::numeric_limits<Tick>::max();
constexpr Tick kPs = 1;
constexpr Tick kNs = 1000;
constexpr Tick kUs = 1000 * kNs;
constexpr Tick kMs = 1000 * kUs;

constexpr Tick nsToTick(double ns) { return static_cast<Tick>(ns * 1000.0 + 0.5); }
constexpr double tickToNs(Tick t) { return static_cast<double>(t) / 1000.0; }
constexpr double tickToUs(Tick t) { return static_cast<double>(t) / 1.0e6; }
constexpr double tickToSec(Tick t) { return static_cast<double>(t) / 1.0e12; }

// Time to move `bytes` at `bytesPerSec`, rounded up to a whole picosecond.
inline Tick transferTicks(uint64_t bytes, double bytesPerSec) {
  double ps = static_cast<double>(bytes) * 1.0e12 / bytesPerSec;
  Tick t = static_cast<Tick>(ps);
  return (static_cast<double>(t) < ps) ? t + 1 : t;
}

// Cycles of a clock at `hz`, in ticks.
inline Tick cyclesToTicks(double cycles, double hz) { return static_cast<Tick>(cycles * 1.0e12 / hz + 0.5); }

}  // namespace npusim
