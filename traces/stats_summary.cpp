#include "traces/stats_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace npusim::trace {

using json = nlohmann::json;

namespace {

double num(const json& j, const char* key) { return statNumber(j, key); }

std::string percent(double frac) { return fmt::format("{:.2f} %", 100.0 * frac); }

std::string rate(double bytes, double us) {
  return us > 0 ? fmt::format("{:.2f} GB/s", bytes / (us * 1e-6) / 1e9) : std::string("-");
}

// "1-3, 5" from a sorted list of ids.
std::string ranges(const std::vector<int>& ids) {
  std::string out;
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") +
           (j > i ? fmt::format("{}-{}", ids[i], ids[j]) : fmt::format("{}", ids[i]));
    i = j + 1;
  }
  return out;
}

}  // namespace

double statNumber(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::string streamLabel(const json& st) {
  std::string s = st.value("stream", std::string("?"));
  bool id = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
  return fmt::format("NPU {} {}", st.value("device", 0), id ? "stream " + s : s);
}

std::string formatBytes(double bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (std::fabs(bytes) >= 1024.0 && u < 4) bytes /= 1024.0, ++u;
  if (u == 0) return fmt::format("{:.0f} B", bytes);
  if (bytes == std::floor(bytes)) return fmt::format("{:.0f} {}", bytes, units[u]);
  return fmt::format("{:.3f} {}", bytes, units[u]);
}

std::string formatRunSummary(const json& s, const std::vector<std::string>& overrides) {
  const double simUs = num(s, "sim_time_us");
  std::string preset = s.contains("config") ? s["config"].value("preset", std::string("?")) : "?";
  std::string o = fmt::format("== npusim summary: simulated time {:.3f} us (preset {}) ==\n", simUs, preset);
  for (const auto& line : overrides) o += "   override " + line + "\n";
  if (s.contains("end") && !s["end"].value("normal", true))
    o +=
        fmt::format("   the program ended abnormally ({}): these statistics cover the run up to that point\n",
                    s["end"].value("reason", std::string("?")));

  o += "\nEngines: busy % = busy time / simulated time; achieved = bytes / busy time; peak = the engine's "
       "limit\n";
  o += fmt::format("  {:<30} {:>9} {:>12} {:>13} {:>12} {:>12}  {}\n", "engine", "busy %", "busy us", "moved",
                   "achieved", "peak", "detail");
  auto gbps = [](double v) { return v > 0 ? fmt::format("{:.2f} GB/s", v) : std::string("-"); };
  std::vector<int> idle;
  for (const auto& d : s.value("devices", json::array())) {
    int id = d.value("id", 0);
    bool active = false;
    // DMA: one line per channel that moved data (each is its own engine), then their total.
    double dmaBytes = 0, dmaBusy = 0, copies = 0;
    int used = 0, nch = 0;
    for (const auto& ch : d.value("dma", json::array())) {
      ++nch;
      if (num(ch, "copies") <= 0) continue;
      ++used;
      dmaBytes += num(ch, "bytes");
      dmaBusy += num(ch, "busy_us");
      copies += num(ch, "copies");
      o += fmt::format("  {:<30} {:>9} {:>12.2f} {:>13} {:>12} {:>12}  {:.0f} copies\n",
                       fmt::format("NPU {} DMA ch {}", id, ch.value("channel", 0)),
                       percent(simUs > 0 ? num(ch, "busy_us") / simUs : 0.0), num(ch, "busy_us"),
                       formatBytes(num(ch, "bytes")), rate(num(ch, "bytes"), num(ch, "busy_us")),
                       gbps(num(ch, "peak_GBps")), num(ch, "copies"));
    }
    if (copies > 0) {
      active = true;
      o += fmt::format(
          "  {:<30} {:>9} {:>12.2f} {:>13} {:>12} {:>12}  {:.0f} copies; busy us summed over channels\n",
          fmt::format("NPU {} DMA total ({}/{} ch used)", id, used, nch), "-", dmaBusy, formatBytes(dmaBytes),
          "-", "-", copies);
    }
    const json h = d.value("hbm", json::object());
    double hr = num(h, "bytes_read"), hw = num(h, "bytes_written");
    if (hr + hw > 0 && h.contains("model")) {  // a plug-in: npusim knows the traffic, not the banks
      active = true;
      o += fmt::format(
          "  {:<30} {:>9} {:>12} {:>13} {:>12} {:>12}  read {}, written {}, {:.0f} accesses{}; "
          "memory model '{}' (busy and peak are the model's own)\n",
          fmt::format("NPU {} HBM", id), "-", "-", formatBytes(hr + hw), rate(hr + hw, simUs), "-",
          formatBytes(hr), formatBytes(hw), num(h, "accesses"),
          h.contains("model_transactions")
              ? fmt::format(" as {:.0f} model transactions", num(h, "model_transactions"))
              : std::string(),
          h.value("model", std::string()));
    } else if (hr + hw > 0) {
      active = true;
      o += fmt::format(
          "  {:<30} {:>9} {:>12} {:>13} {:>12} {:>12}  read {}, written {}, row hits {:.1f} %; busy % = "
          "mean over {:.0f} pseudo-channels, achieved = over the whole run\n",
          fmt::format("NPU {} HBM", id), percent(num(h, "utilisation")), "-", formatBytes(hr + hw),
          rate(hr + hw, simUs), gbps(num(h, "peak_GBps")), formatBytes(hr), formatBytes(hw),
          100.0 * num(h, "row_hit_rate"), num(h, "pseudo_channels"));
    }
    const json c = d.value("aicore", json::object());
    for (const char* kind : {"cube", "vector"}) {
      const json k = c.value(kind, json::object());
      if (num(k, "tiles") <= 0) continue;
      active = true;
      o += fmt::format(
          "  {:<30} {:>9} {:>12.2f} {:>13} {:>12} {:>12}  busy % = mean over all {:.0f} {} cores; "
          "busy us summed over cores\n",
          fmt::format("NPU {} {} cores ({:.0f}/{:.0f} used)", id, kind, num(k, "cores_used"),
                      num(k, "cores")),
          percent(num(k, "utilisation")), num(k, "busy_us"), fmt::format("{:.0f} tiles", num(k, "tiles")),
          "-", "-", num(k, "cores"), kind);
    }
    if (!active) idle.push_back(id);
  }
  if (!idle.empty()) o += fmt::format("  NPU {}: idle\n", ranges(idle));

  // One table per kind of link (PCIe with host memory; HCCS when the topology has links), the
  // directions that moved data.
  auto linkTable = [&](const char* title, const json& links) {
    o += fmt::format("\n{} (payload bytes; average = over the whole run, while busy = over the busy time)\n",
                     title);
    o += fmt::format("  {:<30} {:>9} {:>12} {:>13} {:>12} {:>12} {:>12}\n", "link direction", "busy %",
                     "busy us", "moved", "average", "while busy", "peak");
    for (const auto& [name, l] : links.items()) {
      double bytes = num(l, "payload_bytes");
      if (bytes <= 0) continue;
      o += fmt::format("  {:<30} {:>9} {:>12.2f} {:>13} {:>12} {:>12} {:>12}\n", name,
                       percent(num(l, "utilisation")), num(l, "busy_us"), formatBytes(bytes),
                       rate(bytes, simUs), rate(bytes, num(l, "busy_us")), gbps(num(l, "peak_GBps")));
    }
  };
  linkTable("PCIe and host memory", s.value("pcie", json::object()));
  if (s.contains("hccs")) linkTable("HCCS links", s["hccs"]);

  o += "\nStreams: where the time went (us)\n";
  o += fmt::format("  {:<22} {:>6} {:>11} {:>14} {:>14} {:>11} {:>9} {:>9}\n", "stream", "tasks", "running",
                   "event wait", "engine wait", "queued", "p50 lat", "p99 lat");
  for (const auto& st : s.value("streams", json::array())) {
    double busy = num(st, "busy_us"), ev = num(st, "event_wait_us"), en = num(st, "engine_wait_us");
    const json lat = st.value("latency_us", json::object());
    o += fmt::format("  {:<22} {:>6.0f} {:>11.2f} {:>14.2f} {:>14.2f} {:>11.2f} {:>9.2f} {:>9.2f}\n",
                     streamLabel(st), num(st, "tasks"), std::max(0.0, busy - ev - en), ev, en,
                     num(st, "queued_us"), num(lat, "p50"), num(lat, "p99"));
  }
  o += "  running: executing on its engine; event wait: blocked on an event; engine wait: queued behind a\n"
       "  busy DMA channel or AI cores; queued: behind earlier tasks of the same stream, summed over the\n"
       "  stream's tasks (tasks queue at the same time, so it can exceed the simulated time)\n";
  if (s.contains("unsupported_calls") && !s["unsupported_calls"].empty())
    o += "\nunsupported calls (returned ACL_ERROR_API_NOT_SUPPORT): " + s["unsupported_calls"].dump() + "\n";
  const json findings = s.value("findings", json::array());
  if (!findings.empty()) {
    o += "\nmisuse findings (docs/checks.md)\n";
    for (const auto& f : findings)
      o +=
          fmt::format("  {} [{}] {} x{:.0f}\n", f.value("severity", std::string("?")),
                      f.value("check", std::string("?")), f.value("call", std::string("?")), num(f, "count"));
  }
  return o;
}

}  // namespace npusim::trace
