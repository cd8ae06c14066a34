#pragma once
// Roofline bounds of an operator on the configured device, from the models' own figures: the
// rate the HBM model streams a read/write mix at (measured on a fresh HbmModel, no number
// assumed), the cube peak and the vector peak. Header-only; used by the cost tests and by
// bench/op_roofline.
#include <algorithm>
#include <cstdint>

#include "models/hbm/hbm_params.h"
#include "models/hbm/hbm_traffic.h"
#include "npusim/config.h"

namespace roofline {

// Closed-loop sequential streaming of `bytes` in 64 KiB requests (the DMA burst size), 64 in
// flight, `readFraction` of them reads.
inline double hbmBytesPerSec(const npusim::Config& cfg, uint64_t bytes, double readFraction) {
  npusim::HbmModel m(npusim::hbmParamsFromConfig(cfg));
  npusim::HbmTrafficSpec spec;
  spec.readFraction = readFraction;
  spec.requestBytes = 65536;
  spec.requests = std::max<uint64_t>(16, std::min<uint64_t>(bytes, 256ull << 20) / spec.requestBytes);
  spec.outstanding = 64;
  return npusim::runHbmTraffic(m, spec).bytesPerSec;
}

inline double cubeMacsPerSec(const npusim::Config& cfg) {
  return static_cast<double>(cfg.getInt("aicore.cube_cores")) * cfg.getFloat("aicore.cube_macs_per_cycle") *
         cfg.getFloat("aicore.freq_ghz") * 1e9;
}

// Seconds to move `readBytes` + `writeBytes` through HBM at the streaming rate of that mix.
inline double memorySec(const npusim::Config& cfg, uint64_t readBytes, uint64_t writeBytes) {
  const uint64_t total = readBytes + writeBytes;
  if (total == 0) return 0;
  return static_cast<double>(total) /
         hbmBytesPerSec(cfg, total, static_cast<double>(readBytes) / static_cast<double>(total));
}

}  // namespace roofline
