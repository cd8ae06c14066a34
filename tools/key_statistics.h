#pragma once
// Aggregates of a run's statistics over all devices: the columns of sweep rows and plots.
#include <nlohmann/json.hpp>

namespace npusim::cli {

struct KeyStats {
  double simTimeUs = 0;
  double dmaBytes = 0;
  double dmaBusyUs = 0;
  // Per direction over the devices' PCIe links (host to device = "down", device to host = "up"):
  // payload bytes, and bytes / link-busy time = the bandwidth achieved while copying.
  double h2dBytes = 0, h2dBusyUs = 0, h2dGBps = 0;
  double d2hBytes = 0, d2hBusyUs = 0, d2hGBps = 0;
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
