#include "runtime/summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "runtime/checks.h"
#include "runtime/runtime.h"

namespace npusim::rt {

using json = nlohmann::json;

json buildStatistics(Runtime& rt, Tick end) {
  json out = rt.platform().statistics(end);
  out["sim_time_us"] = tickToUs(end);
  out["config"] = rt.platform().config().toJson();
  json streams = json::array();
  for (int d = 0; d < rt.platform().deviceCount(); ++d) {
    for (const auto& r : rt.platform().device(d).sched->streamStatistics()) {
      const auto& st = r.stats;
      std::string name = r.foldedStreams ? fmt::format("{} more destroyed streams", r.foldedStreams)
                         : r.internal    ? std::string("sync copies")
                                         : fmt::format("{}", r.id);
      streams.push_back({{"device", d},
                         {"stream", name},
                         {"tasks", st.tasks},
                         {"busy_us", tickToUs(st.busy)},
                         {"queued_us", tickToUs(st.queued)},
                         {"engine_wait_us", tickToUs(st.engineWait)},
                         {"event_wait_us", tickToUs(st.eventWait)},
                         {"latency_us",
                          {{"mean", st.latency.mean() / 1.0e6},
                           {"p50", tickToUs(st.latency.percentile(0.5))},
                           {"p99", tickToUs(st.latency.percentile(0.99))},
                           {"max", tickToUs(st.latency.max())}}}});
    }
  }
  out["streams"] = streams;
  json unsupported = json::object();
  for (const auto& [name, n] : unsupportedCalls()) unsupported[name] = n;
  out["unsupported_calls"] = unsupported;
  // How the run ended: "normal", or the signal that ended it (the statistics are then partial).
  if (int sig = rt.abnormalSignal()) {
    const char* abbrev = sigabbrev_np(sig);
    out["end"] = {
        {"normal", false}, {"signal", sig}, {"reason", fmt::format("SIG{}", abbrev ? abbrev : "?")}};
  } else {
    out["end"] = {{"normal", true}};
  }
  out["findings"] = checks::findingsJson();  // misuse found by the checks (docs/checks.md)
  return out;
}

}  // namespace npusim::rt
