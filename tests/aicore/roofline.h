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

// What `cores` AI cores can move to and from global memory together: each core's MTE port
// (aicore.mte_bytes_per_cycle, the CANN ini's ddr_rate) at the core clock. With the 910b's 24
// cube cores this (1.38 TB/s) is below the HBM's streaming rate: cube-core operators that only
// stream (a decode GEMV) are bound by the ports, not by the HBM.
inline double gmPortBytesPerSec(const npusim::Config& cfg, int64_t cores) {
  return static_cast<double>(cores) * cfg.getFloat("aicore.mte_bytes_per_cycle") *
         cfg.getFloat("aicore.freq_ghz") * 1e9;
}

// Seconds to move `readBytes` + `writeBytes` through HBM at the streaming rate of that mix.
inline double memorySec(const npusim::Config& cfg, uint64_t readBytes, uint64_t writeBytes) {
  const uint64_t total = readBytes + writeBytes;
  if (total == 0) return 0;
  return static_cast<double>(total) /
         hbmBytesPerSec(cfg, total, static_cast<double>(readBytes) / static_cast<double>(total));
}

// The same traffic moved by the cube cores: no faster than their MTE ports allow.
inline double cubeMemorySec(const npusim::Config& cfg, uint64_t readBytes, uint64_t writeBytes) {
  const double ports =
      static_cast<double>(readBytes + writeBytes) / gmPortBytesPerSec(cfg, cfg.getInt("aicore.cube_cores"));
  return std::max(memorySec(cfg, readBytes, writeBytes), ports);
}

// Whether the cube cores' ports, not the HBM, bound that traffic.
inline bool cubePortsBound(const npusim::Config& cfg, uint64_t readBytes, uint64_t writeBytes) {
  return cubeMemorySec(cfg, readBytes, writeBytes) > memorySec(cfg, readBytes, writeBytes);
}

}  // namespace roofline
