#include "tools/sweep_results.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <sstream>

#include "tools/cli_common.h"
#include "tools/key_statistics.h"

namespace npusim::cli {

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct StatColumn {
  const char* name;
  std::function<double(const KeyStats&)> get;
};

// The key statistics of every row (all summed or maximised over devices).
const std::vector<StatColumn>& statColumns() {
  static const std::vector<StatColumn> cols = {
      {"sim_time_us", [](const KeyStats& k) { return k.simTimeUs; }},
      {"dma_bytes", [](const KeyStats& k) { return k.dmaBytes; }},
      {"h2d_bytes", [](const KeyStats& k) { return k.h2dBytes; }},
      {"h2d_GBps", [](const KeyStats& k) { return k.h2dGBps; }},
      {"d2h_bytes", [](const KeyStats& k) { return k.d2hBytes; }},
      {"d2h_GBps", [](const KeyStats& k) { return k.d2hGBps; }},
      {"pcie_host_bytes", [](const KeyStats& k) { return k.pcieHostBytes; }},
      {"hbm_bytes", [](const KeyStats& k) { return k.hbmBytes; }},
      {"hbm_util_max", [](const KeyStats& k) { return k.hbmUtilMax; }},
      {"aicore_util_max", [](const KeyStats& k) { return k.aicoreUtilMax; }},
      {"stream_running_us", [](const KeyStats& k) { return k.streamRunningUs; }},
      {"stream_event_wait_us", [](const KeyStats& k) { return k.streamEventWaitUs; }},
      {"stream_engine_wait_us", [](const KeyStats& k) { return k.streamEngineWaitUs; }},
      {"stream_queued_us", [](const KeyStats& k) { return k.streamQueuedUs; }},
  };
  return cols;
}

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string number(double v) { return fmt::format("{:.10g}", v); }

std::string relativeTo(const std::string& path, const std::string& dir) {
  if (path.empty()) return "";
  std::error_code ec;
  auto rel = fs::relative(path, dir, ec);
  return ec ? path : rel.string();
}

}  // namespace

std::string PointResult::statusText() const {
  if (!ran) return "not run";
  if (!error.empty()) return error;
  return status.ok() ? "ok" : status.describe();
}

void loadPointStats(PointResult& r) {
  r.stats.reset();
  std::error_code ec;
  if (r.statsPath.empty() || !fs::exists(r.statsPath, ec)) return;
  try {
    r.stats = readJsonFile(r.statsPath);
  } catch (const std::exception&) {
    // A program killed while writing leaves a partial file: the row has no statistics.
  }
}

MetricPattern parseMetricPattern(const std::string& text) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError(fmt::format("--metric '{}' is not of the form NAME=REGEX", text));
  MetricPattern m{text.substr(0, eq), text.substr(eq + 1)};
  try {
    std::regex re(m.regex);
    if (re.mark_count() < 1)
      throw UsageError(fmt::format("--metric {}: the regex needs a group (...) around the value", m.name));
  } catch (const std::regex_error& e) {
    throw UsageError(fmt::format("--metric {}: bad regex '{}': {}", m.name, m.regex, e.what()));
  }
  return m;
}

namespace {
json metricValue(const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (!text.empty() && end == text.c_str() + text.size()) return v;
  return text;
}
}  // namespace

void loadPointMetrics(PointResult& r, const std::vector<MetricPattern>& patterns) {
  std::ifstream in(r.logPath);
  if (!in) return;
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string log = ss.str();
  static const std::regex line(R"((?:^|\n)NPUSIM_METRIC ([A-Za-z0-9_.\-]+)=([^\s]*))");
  for (std::sregex_iterator it(log.begin(), log.end(), line), end; it != end; ++it)
    r.metrics[(*it)[1].str()] = metricValue((*it)[2].str());
  for (const auto& p : patterns) {
    std::smatch m;
    if (std::regex_search(log, m, std::regex(p.regex))) r.metrics[p.name] = metricValue(m[1].str());
  }
}

std::vector<std::string> writeSweepOutputs(const std::string& dir, const SweepInfo& info,
                                           const std::vector<PointResult>& results) {
  json axes = json::object();
  json swept = json::array();
  for (const auto& a : info.axes) {
    axes[a.key] = a.values;
    if (a.values.size() > 1) swept.push_back(a.key);
  }
  // Metric columns: every name any point printed, in name order.
  std::set<std::string> metricNames;
  for (const auto& r : results)
    for (const auto& [k, v] : r.metrics.items()) metricNames.insert(k);
  json rows = json::array();
  std::string csv = "index";
  for (const auto& a : info.axes) csv += "," + csvField(a.key);
  csv += ",status,exit_code,signal";
  for (const auto& c : statColumns()) csv += std::string(",") + c.name;
  for (const auto& m : metricNames) csv += "," + csvField("metric." + m);
  csv += ",wall_s,worker,stats_file,log_file\n";

  for (const auto& r : results) {
    json row = {{"index", r.point.index},
                {"params", r.typedParams},
                {"ok", r.ok()},
                {"status", r.statusText()},
                {"exit_code", r.ran && r.error.empty() && r.status.exited ? json(r.status.code) : json()},
                {"signal", r.ran && !r.status.exited ? json(signalName(r.status.signal)) : json()},
                {"wall_s", r.wallSeconds},
                {"worker", r.worker},
                {"stats_file", r.stats ? json(relativeTo(r.statsPath, dir)) : json()},
                {"log_file", relativeTo(r.logPath, dir)}};
    if (!r.tracePath.empty()) row["trace_file"] = relativeTo(r.tracePath, dir);
    KeyStats k;
    if (r.stats) k = keyStatistics(*r.stats);
    for (const auto& c : statColumns()) row[c.name] = r.stats ? json(c.get(k)) : json();
    row["metrics"] = r.metrics;
    rows.push_back(row);

    csv += std::to_string(r.point.index);
    for (const auto& [key, v] : r.point.params) csv += "," + csvField(v);
    csv += "," + csvField(r.statusText()) + "," +
           (row["exit_code"].is_null() ? "" : row["exit_code"].dump()) + "," +
           (row["signal"].is_null() ? "" : row["signal"].get<std::string>());
    for (const auto& c : statColumns()) csv += "," + (r.stats ? number(c.get(k)) : std::string());
    for (const auto& m : metricNames) {
      const json v = r.metrics.value(m, json());
      csv += "," + (v.is_number()   ? number(v.get<double>())
                    : v.is_string() ? csvField(v.get<std::string>())
                                    : "");
    }
    csv += "," + number(r.wallSeconds) + "," + csvField(r.worker) + "," +
           csvField(row["stats_file"].is_null() ? "" : row["stats_file"].get<std::string>()) + "," +
           csvField(row["log_file"].get<std::string>()) + "\n";
  }
  json doc = {{"npusim_sweep", 1}, {"command", info.command}, {"config", info.config}, {"axes", axes},
              {"swept", swept},    {"runner", info.runner},   {"points", rows}};
  std::string csvPath = dir + "/sweep.csv", jsonPath = dir + "/sweep.json";
  writeTextFile(csvPath, csv);
  writeTextFile(jsonPath, doc.dump(1) + "\n");
  return {csvPath, jsonPath};
}

std::string formatSweepTable(const SweepInfo& info, const std::vector<PointResult>& results) {
  std::vector<size_t> widths;
  for (const auto& a : info.axes) {
    size_t w = a.key.size();
    for (const auto& v : a.values) w = std::max(w, v.size());
    widths.push_back(w);
  }
  std::string o = fmt::format("  {:>4}", "#");
  for (size_t i = 0; i < info.axes.size(); ++i) o += fmt::format("  {:>{}}", info.axes[i].key, widths[i]);
  o += fmt::format("  {:>16}  {:>10}  {:>10}  {}\n", "sim time us", "H2D GB/s", "D2H GB/s", "status");
  for (const auto& r : results) {
    o += fmt::format("  {:>4}", r.point.index);
    for (size_t i = 0; i < r.point.params.size(); ++i)
      o += fmt::format("  {:>{}}", r.point.params[i].second, widths[i]);
    KeyStats k;
    if (r.stats) k = keyStatistics(*r.stats);
    auto gbps = [&](double v) { return r.stats && v > 0 ? fmt::format("{:.2f}", v) : std::string("-"); };
    o += fmt::format("  {:>16}  {:>10}  {:>10}  {}\n", r.stats ? fmt::format("{:.3f}", k.simTimeUs) : "-",
                     gbps(k.h2dGBps), gbps(k.d2hGBps), r.statusText());
  }
  return o;
}

}  // namespace npusim::cli
