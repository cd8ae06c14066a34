#include "tools/key_statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "traces/stats_summary.h"

namespace npusim::cli {

using json = nlohmann::json;
using trace::statNumber;

KeyStats keyStatistics(const json& s) {
  KeyStats k;
  k.simTimeUs = statNumber(s, "sim_time_us");
  for (const auto& d : s.value("devices", json::array())) {
    for (const auto& ch : d.value("dma", json::array())) {
      k.dmaBytes += statNumber(ch, "bytes");
      k.dmaBusyUs += statNumber(ch, "busy_us");
    }
    const json h = d.value("hbm", json::object());
    k.hbmBytes += statNumber(h, "bytes_read") + statNumber(h, "bytes_written");
    k.hbmUtilMax = std::max(k.hbmUtilMax, statNumber(h, "utilisation"));
    k.aicoreUtilMax = std::max(k.aicoreUtilMax, statNumber(d.value("aicore", json::object()), "utilisation"));
  }
  const json pcie = s.value("pcie", json::object());
  for (const auto& d : s.value("devices", json::array())) {
    const std::string link = fmt::format("NPU {} link ", d.value("id", 0));
    for (auto [dir, bytes, busy] :
         {std::tuple{"down", &k.h2dBytes, &k.h2dBusyUs}, {"up", &k.d2hBytes, &k.d2hBusyUs}}) {
      auto it = pcie.find(link + dir);
      if (it == pcie.end()) continue;
      *bytes += statNumber(*it, "payload_bytes");
      *busy += statNumber(*it, "busy_us");
    }
  }
  k.h2dGBps = k.h2dBusyUs > 0 ? k.h2dBytes / (k.h2dBusyUs * 1e-6) / 1e9 : 0.0;
  k.d2hGBps = k.d2hBusyUs > 0 ? k.d2hBytes / (k.d2hBusyUs * 1e-6) / 1e9 : 0.0;
  if (pcie.contains("Host DDR")) k.pcieHostBytes = statNumber(pcie["Host DDR"], "payload_bytes");
  for (const auto& st : s.value("streams", json::array())) {
    double busy = statNumber(st, "busy_us"), ev = statNumber(st, "event_wait_us"),
           en = statNumber(st, "engine_wait_us");
    k.streamRunningUs += std::max(0.0, busy - ev - en);
    k.streamEventWaitUs += ev;
    k.streamEngineWaitUs += en;
    k.streamQueuedUs += statNumber(st, "queued_us");
  }
  return k;
}

}  // namespace npusim::cli
