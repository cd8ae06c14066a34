// npusim compare: what changed between two runs' statistics files. Configuration differences
// come first (they are the cause), then every numeric statistic that changed, largest relative
// difference first.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>

#include "tools/cli_common.h"
#include "tools/commands.h"
#include "tools/stats_flatten.h"

namespace npusim::cli {

namespace {

using json = nlohmann::json;

struct CompareOptions {
  std::string a, b;
  bool all = false;
  bool asJson = false;
  size_t top = 0;
};

struct Row {
  std::string key;
  json a, b;  // null when absent on that side
  double rel = 0;
};

bool isConfigKey(const std::string& k) {
  return k.rfind("config.", 0) == 0 || k.rfind("topology.", 0) == 0 || k.rfind("topology[", 0) == 0;
}

std::string show(const json& v) {
  if (v.is_null()) return "(absent)";
  if (v.is_number()) {
    double d = v.get<double>();
    if (d == std::floor(d) && std::fabs(d) < 1e15) return fmt::format("{:.0f}", d);
    return fmt::format("{:.7g}", d);
  }
  return formatValue(v);
}

std::string change(const Row& r) {
  if (!r.a.is_number() || !r.b.is_number()) return "";
  if (std::isinf(r.rel)) return "new";
  return fmt::format("{:+.2f} %", 100.0 * r.rel);
}

int compare(const CompareOptions& o) {
  json ja = readJsonFile(o.a), jb = readJsonFile(o.b);
  for (const auto* j : {&ja, &jb})
    if (!j->is_object() || !j->contains("sim_time_us"))
      throw UsageError(
          fmt::format("'{}' is not an npusim statistics file (no sim_time_us)", j == &ja ? o.a : o.b));
  auto fa = flattenJson(ja), fb = flattenJson(jb);
  std::map<std::string, json> mb(fb.begin(), fb.end());
  std::vector<Row> rows;
  std::map<std::string, bool> seen;
  for (const auto& [k, v] : fa) {
    auto it = mb.find(k);
    rows.push_back({k, v, it == mb.end() ? json() : it->second});
    seen[k] = true;
  }
  for (const auto& [k, v] : fb)
    if (!seen.count(k)) rows.push_back({k, json(), v});

  std::vector<Row> config, stats;
  size_t numeric = 0;
  for (auto& r : rows) {
    bool differ = r.a != r.b;
    if (isConfigKey(r.key)) {
      if (differ) config.push_back(r);
      continue;
    }
    if (!(r.a.is_number() || r.b.is_number())) {
      if (differ) config.push_back(r);  // text outside the configuration (rare): show with it
      continue;
    }
    ++numeric;
    if (r.a.is_number() && r.b.is_number()) {
      double a = r.a.get<double>(), b = r.b.get<double>();
      r.rel = a == b ? 0.0 : a == 0 ? std::numeric_limits<double>::infinity() : (b - a) / std::fabs(a);
    } else {
      r.rel = std::numeric_limits<double>::infinity();
    }
    if (differ || o.all) stats.push_back(r);
  }
  std::stable_sort(stats.begin(), stats.end(),
                   [](const Row& x, const Row& y) { return std::fabs(x.rel) > std::fabs(y.rel); });
  size_t changed = std::count_if(stats.begin(), stats.end(), [](const Row& r) { return r.a != r.b; });
  if (o.top && stats.size() > o.top) stats.resize(o.top);

  if (o.asJson) {
    json out = {{"a", o.a}, {"b", o.b}, {"config", json::array()}, {"stats", json::array()}};
    for (const auto& r : config) {
      std::string k = r.key.rfind("config.params.", 0) == 0 ? r.key.substr(14) : r.key;
      out["config"].push_back({{"key", k}, {"a", r.a}, {"b", r.b}});
    }
    for (const auto& r : stats)
      out["stats"].push_back({{"key", r.key},
                              {"a", r.a},
                              {"b", r.b},
                              {"relative", std::isinf(r.rel) ? json("new") : json(r.rel)}});
    std::puts(out.dump(2).c_str());
    return kExitOk;
  }
  std::printf("A: %s\nB: %s\n", o.a.c_str(), o.b.c_str());
  double ta = ja["sim_time_us"].get<double>(), tb = jb["sim_time_us"].get<double>();
  std::printf("simulated time: %.3f us -> %.3f us (%s)\n", ta, tb,
              ta > 0 ? fmt::format("{:+.2f} %", 100.0 * (tb - ta) / ta).c_str() : "-");
  std::printf("\nConfiguration differences (A -> B)%s\n", config.empty() ? ": none" : "");
  // The topology follows from the configuration: a few of its lines are enough unless --all.
  size_t topo = 0, topoShown = 0;
  for (const auto& r : config) {
    bool isTopo = !(r.key.rfind("config.", 0) == 0);
    if (isTopo && ++topo > 2 && !o.all) continue;
    topoShown += isTopo ? 1 : 0;
    std::string k = r.key.rfind("config.params.", 0) == 0 ? r.key.substr(14) : r.key;
    std::printf("  %-44s %s -> %s\n", k.c_str(), show(r.a).c_str(), show(r.b).c_str());
  }
  if (topo > topoShown)
    std::printf("  (%zu more topology differences; --all lists them)\n", topo - topoShown);
  std::printf("\nStatistics, largest relative difference first (%zu of %zu changed%s)\n", changed, numeric,
              o.top && changed > o.top ? fmt::format(", top {} shown", o.top).c_str() : "");
  if (stats.empty()) return kExitOk;
  std::printf("  %-44s %16s %16s %16s %10s\n", "key", "A", "B", "B - A", "change");
  for (const auto& r : stats) {
    std::string diff =
        r.a.is_number() && r.b.is_number() ? show(json(r.b.get<double>() - r.a.get<double>())) : "";
    std::printf("  %-44s %16s %16s %16s %10s\n", r.key.c_str(), show(r.a).c_str(), show(r.b).c_str(),
                diff.c_str(), change(r).c_str());
  }
  return kExitOk;
}

}  // namespace

Command addCompareCommand(CLI::App& parent) {
  auto o = std::make_shared<CompareOptions>();
  CLI::App* app =
      parent.add_subcommand("compare", "Side-by-side table of what changed between two statistics files");
  app->footer(
      "Statistics files come from `npusim run --stats FILE` (or NPUSIM_STATS=FILE, or a sweep's points/).\n"
      "Configuration differences are listed first, then numeric statistics by |B - A| / |A|.");
  app->add_option("a", o->a, "Statistics JSON of run A")->required()->check(CLI::ExistingFile);
  app->add_option("b", o->b, "Statistics JSON of run B")->required()->check(CLI::ExistingFile);
  app->add_flag("--all", o->all, "Also list statistics that did not change");
  app->add_option("--top", o->top, "Show only the N largest differences");
  app->add_flag("--json", o->asJson, "Print JSON");
  return {app, [o] { return compare(*o); }};
}

}  // namespace npusim::cli
