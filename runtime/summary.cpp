#include "runtime/summary.h"

#include <fmt/format.h>

#include <algorithm>

#include "runtime/checks.h"
#include "runtime/runtime.h"

namespace npusim::rt {

using json = nlohmann::json;

namespace {
double percentile(std::vector<Tick> v, double p) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return tickToUs(v[std::min(i, v.size() - 1)]);
}
}  // namespace

json buildStatistics(Runtime& rt, Tick end) {
  json out = rt.platform().statistics(end);
  out["sim_time_us"] = tickToUs(end);
  out["config"] = rt.platform().config().toJson();
  json streams = json::array();
  for (int d = 0; d < rt.platform().deviceCount(); ++d) {
    for (const auto& s : rt.platform().device(d).sched->streams()) {
      const auto& st = s->stats;
      if (st.tasks == 0) continue;
      Tick sum = 0;
      for (Tick l : st.latencies) sum += l;
      streams.push_back(
          {{"device", d},
           {"stream", s->internal ? std::string("sync copies") : fmt::format("{}", s->id)},
           {"tasks", st.tasks},
           {"busy_us", tickToUs(st.busy)},
           {"queued_us", tickToUs(st.queued)},
           {"engine_wait_us", tickToUs(st.engineWait)},
           {"event_wait_us", tickToUs(st.eventWait)},
           {"latency_us",
            {{"mean", st.latencies.empty() ? 0.0 : tickToUs(sum) / static_cast<double>(st.latencies.size())},
             {"p50", percentile(st.latencies, 0.5)},
             {"p99", percentile(st.latencies, 0.99)},
             {"max", percentile(st.latencies, 1.0)}}}});
    }
  }
  out["streams"] = streams;
  json unsupported = json::object();
  for (const auto& [name, n] : unsupportedCalls()) unsupported[name] = n;
  out["unsupported_calls"] = unsupported;
  out["findings"] = checks::findingsJson();  // misuse found by the checks (docs/checks.md)
  return out;
}

std::string formatSummary(const json& s) {
  std::string o;
  o += fmt::format("\n== npusim summary: preset {}, simulated time {:.3f} us ==\n",
                   s["config"]["preset"].get<std::string>(), s["sim_time_us"].get<double>());
  o += fmt::format("{:<22} {:>7} {:>11} {:>11} {:>11} {:>11} {:>10} {:>10}\n", "stream", "tasks",
                   "running us", "queued us", "engine us", "event us", "p50 us", "p99 us");
  for (const auto& st : s["streams"]) {
    o += fmt::format(
        "{:<22} {:>7} {:>11.2f} {:>11.2f} {:>11.2f} {:>11.2f} {:>10.2f} {:>10.2f}\n",
        fmt::format("NPU {} {}", st["device"].get<int>(),
                    st["stream"].get<std::string>() == "sync copies"
                        ? std::string("sync copies")
                        : "stream " + st["stream"].get<std::string>()),
        st["tasks"].get<uint64_t>(),
        st["busy_us"].get<double>() - st["engine_wait_us"].get<double>() - st["event_wait_us"].get<double>(),
        st["queued_us"].get<double>(), st["engine_wait_us"].get<double>(), st["event_wait_us"].get<double>(),
        st["latency_us"]["p50"].get<double>(), st["latency_us"]["p99"].get<double>());
  }
  o += "engines:\n";
  for (const auto& d : s["devices"]) {
    for (const auto& ch : d["dma"]) {
      if (ch["copies"].get<uint64_t>() == 0) continue;
      o += fmt::format("  NPU {} DMA ch {}: {} copies, {:.3f} MiB, busy {:.2f} us, {:.2f} GB/s\n",
                       d["id"].get<int>(), ch["channel"].get<int>(), ch["copies"].get<uint64_t>(),
                       static_cast<double>(ch["bytes"].get<uint64_t>()) / 1048576.0,
                       ch["busy_us"].get<double>(), ch["achieved_GBps"].get<double>());
    }
    const auto& h = d["hbm"];
    uint64_t hb = h["bytes_read"].get<uint64_t>() + h["bytes_written"].get<uint64_t>();
    if (hb)
      o += fmt::format(
          "  NPU {} HBM: read {:.3f} MiB, written {:.3f} MiB, row hits {:.1f} %, utilisation {:.2f} %\n",
          d["id"].get<int>(), static_cast<double>(h["bytes_read"].get<uint64_t>()) / 1048576.0,
          static_cast<double>(h["bytes_written"].get<uint64_t>()) / 1048576.0,
          100.0 * h["row_hit_rate"].get<double>(), 100.0 * h["utilisation"].get<double>());
    if (d["aicore"]["tiles"].get<uint64_t>())
      o +=
          fmt::format("  NPU {} AI cores: {} tiles, utilisation {:.2f} %\n", d["id"].get<int>(),
                      d["aicore"]["tiles"].get<uint64_t>(), 100.0 * d["aicore"]["utilisation"].get<double>());
  }
  o += "PCIe (payload moved, average over the run):\n";
  for (const auto& [name, l] : s["pcie"].items()) {
    if (l["payload_bytes"].get<uint64_t>() == 0) continue;
    o += fmt::format("  {:<28} {:>10.3f} MiB  busy {:>9.2f} us  utilisation {:>6.2f} %\n", name,
                     static_cast<double>(l["payload_bytes"].get<uint64_t>()) / 1048576.0,
                     l["busy_us"].get<double>(), 100.0 * l["utilisation"].get<double>());
  }
  if (!s["unsupported_calls"].empty()) o += "unsupported calls: " + s["unsupported_calls"].dump() + "\n";
  if (s.contains("findings") && !s["findings"].empty()) {
    o += "misuse findings (see docs/checks.md):\n";
    for (const auto& f : s["findings"])
      o += fmt::format("  {} [{}] {} x{}\n", f["severity"].get<std::string>(), f["check"].get<std::string>(),
                       f["call"].get<std::string>(), f["count"].get<uint64_t>());
  }
  return o;
}

}  // namespace npusim::rt
