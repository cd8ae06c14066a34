#include "models/hbm/hbm_traffic.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <queue>

namespace npusim {

namespace {

// splitmix64: small, fast and identical on every platform (std distributions are not).
uint64_t nextRandom(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace

Tick HbmTrafficResult::latencyPercentile(double q) const {
  if (latencies.empty()) return 0;
  if (sorted_.size() != latencies.size()) {
    sorted_ = latencies;
    std::sort(sorted_.begin(), sorted_.end());
  }
  size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted_.size())));
  rank = std::min(std::max<size_t>(rank, 1), sorted_.size());
  return sorted_[rank - 1];
}

HbmTrafficResult runHbmTraffic(HbmModel& model, const HbmTrafficSpec& spec) {
  HbmTrafficResult r;
  model.resetStats();
  const uint64_t capacity = model.params().capacityBytes;
  const uint64_t size = std::max<uint64_t>(spec.requestBytes, 1);
  const uint64_t slots = std::max<uint64_t>(capacity / size, 1);
  uint64_t rng = spec.seed;
  uint64_t nextAddr = spec.baseAddr;
  const uint64_t readThreshold =
      spec.readFraction >= 1.0
          ? UINT64_MAX
          : static_cast<uint64_t>(std::min(std::max(0.0, spec.readFraction) * 18446744073709551616.0,
                                           18446744073709549568.0));  // largest double below 2^64
  r.latencies.reserve(spec.requests);
  if (spec.record) r.issued.reserve(spec.requests);

  auto issue = [&](Tick arrival) {
    uint64_t addr;
    if (spec.random) {
      addr = (nextRandom(&rng) % slots) * size;
    } else {
      addr = nextAddr;
      nextAddr = (nextAddr + size) % capacity;
    }
    bool write = spec.readFraction < 1.0 && nextRandom(&rng) >= readThreshold;
    model.setHorizon(arrival);  // requests are issued in time order
    Tick done = model.access(addr, size, write, arrival);
    if (spec.record) r.issued.push_back(HbmRequest{addr, size, arrival, write});
    r.latencies.push_back(done - arrival);
    r.bytes += size;
    return done;
  };

  auto wall0 = std::chrono::steady_clock::now();
  std::priority_queue<Tick, std::vector<Tick>, std::greater<Tick>> inflight;
  Tick end = spec.start;
  uint64_t issued = 0;
  const uint64_t window = static_cast<uint64_t>(std::max(spec.outstanding, 1));
  for (; issued < spec.requests && issued < window; ++issued) {
    Tick d = issue(spec.start);
    inflight.push(d);
    end = std::max(end, d);
  }
  for (; issued < spec.requests; ++issued) {
    Tick now = inflight.top();
    inflight.pop();
    Tick d = issue(now);
    inflight.push(d);
    end = std::max(end, d);
  }
  if (model.params().writeHigh > 0) end = std::max(end, model.drainWrites());  // posted writes still queued
  r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();

  r.elapsed = end - spec.start;
  r.bytesPerSec = r.elapsed ? static_cast<double>(r.bytes) / tickToSec(r.elapsed) : 0.0;
  r.efficiency = r.bytesPerSec / model.peakBytesPerSec();
  r.rowHitRate = model.stats().rowHitRate();
  r.segments = model.stats().segments;
  return r;
}

}  // namespace npusim
