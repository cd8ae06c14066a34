#pragma once
// The one-screen summary `npusim run` prints from a statistics file (NPUSIM_STATS JSON, written
// by runtime/summary.cpp): simulated time, per-engine utilisation, bytes moved, achieved
// bandwidths, and where each stream spent its time.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace npusim::cli {

// `overrides`: "key: base -> value" lines describing what differs from the preset (may be empty).
std::string formatRunSummary(const nlohmann::json& stats, const std::vector<std::string>& overrides);

// Aggregates over all devices, for sweep rows and plots.
struct KeyStats {
  double simTimeUs = 0;
  double dmaBytes = 0;
  double dmaBusyUs = 0;
  double dmaGBps = 0;  // bytes / channel-busy time: bandwidth achieved while copying
  double pcieHostBytes = 0;
  double hbmBytes = 0;
  double hbmUtilMax = 0;
  double aicoreUtilMax = 0;
  double streamRunningUs = 0;
  double streamEventWaitUs = 0;
  double streamEngineWaitUs = 0;
  double streamQueuedUs = 0;
};
KeyStats keyStatistics(const nlohmann::json& stats);

}  // namespace npusim::cli
