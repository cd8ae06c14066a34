#pragma once
// Closed-loop synthetic traffic for the HBM model: keeps N requests in flight and issues the
// next one when the earliest in-flight request completes. Used by bench/hbm_driver and the
// efficiency tests, so both measure the same thing.
#include <cstdint>
#include <vector>

#include "models/common/tick.h"
#include "models/hbm/hbm_model.h"

namespace npusim {

struct HbmTrafficSpec {
  bool random = false;        // false: consecutive addresses; true: uniform, request-aligned
  double readFraction = 1.0;  // each request is a read with this probability
  uint64_t requestBytes = 65536;
  uint64_t requests = 4096;
  int outstanding = 64;   // requests in flight
  uint64_t baseAddr = 0;  // first address of a sequential stream
  uint64_t seed = 1;
  Tick start = 0;       // arrival time of the first requests
  bool record = false;  // keep the issued requests (HbmTrafficResult::issued)
};

struct HbmRequest {
  uint64_t addr;
  uint64_t bytes;
  Tick arrival;
  bool write;
};

struct HbmTrafficResult {
  uint64_t bytes = 0;
  Tick elapsed = 0;  // first arrival to last completion
  double bytesPerSec = 0;
  double efficiency = 0;  // bytesPerSec / peak
  double rowHitRate = 0;
  uint64_t segments = 0;
  double wallSeconds = 0;
  std::vector<Tick> latencies;     // completion - arrival, in issue order
  std::vector<HbmRequest> issued;  // when spec.record

  // q in [0, 1]; nearest-rank percentile of the latencies.
  Tick latencyPercentile(double q) const;

 private:
  mutable std::vector<Tick> sorted_;  // latencies, sorted on first use
};

// Runs the traffic on `model` (its statistics are reset first).
HbmTrafficResult runHbmTraffic(HbmModel& model, const HbmTrafficSpec& spec);

}  // namespace npusim
