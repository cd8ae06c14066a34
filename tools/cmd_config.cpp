// npusim config show: the resolved configuration, each value with its unit and where it comes
// from (the root preset's source text, a preset or file that changed it, or an override).
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "models/platform/memory_targets.h"
#include "tools/cli_common.h"
#include "tools/commands.h"

namespace npusim::cli {

namespace {

struct ShowOptions {
  ConfigOptions config;
  bool asJson = false;
  bool docs = false;
};

nlohmann::json paramJson(const ParamInfo& p, const ParamInfo* base) {
  nlohmann::json j = {
      {"value", p.value}, {"type", p.type}, {"unit", p.unit}, {"source", p.source}, {"doc", p.doc}};
  if (!p.min.is_null()) j["min"] = p.min;
  if (!p.max.is_null()) j["max"] = p.max;
  if (!p.choices.empty()) j["choices"] = p.choices;
  if (base && base->value != p.value) j["preset_value"] = base->value;
  return j;
}

int show(const ShowOptions& o) {
  Config cfg = o.config.load();
  Config base = o.config.loadBase();
  auto baseOf = [&](const std::string& key) -> const ParamInfo* {
    auto it = base.params().find(key);
    return it == base.params().end() ? nullptr : &it->second;
  };
  if (o.asJson) {
    nlohmann::json params = nlohmann::json::object();
    for (const auto& [key, p] : cfg.params()) {
      params[key] = paramJson(p, baseOf(key));
      if (inactiveWithMemoryModel(cfg, key)) params[key]["inactive"] = true;
    }
    nlohmann::json out = {{"config", cfg.name()}, {"params", params}};
    if (!cfg.topology().is_null()) out["topology"] = cfg.topology();
    std::puts(out.dump(2).c_str());
    return kExitOk;
  }
  auto overrides = describeOverrides(base, cfg);
  std::printf("configuration %s%s\n", cfg.name().c_str(),
              overrides.empty() ? "" : fmt::format(", {} overridden", overrides.size()).c_str());
  std::string section;
  for (const auto& [key, p] : cfg.params()) {
    std::string sec = key.substr(0, key.find('.'));
    if (sec != section) {
      std::printf("\n[%s]\n", sec.c_str());
      section = sec;
    }
    std::string source = p.source;
    if (const ParamInfo* b = baseOf(key); b && b->value != p.value)
      source += fmt::format(" (was {})", formatValue(b->value));
    if (inactiveWithMemoryModel(cfg, key))
      source += fmt::format(" [inactive with hbm.model={}]", cfg.getString("hbm.model"));
    std::string value = formatValue(p.value);
    if (value.empty()) value = "\"\"";
    std::printf("  %-32s %-14s %-10s %s\n", key.c_str(), value.c_str(), p.unit.c_str(), source.c_str());
    if (o.docs) {
      std::string range;
      if (!p.min.is_null() || !p.max.is_null())
        range = fmt::format(" [{} .. {}]", p.min.is_null() ? "" : formatValue(p.min),
                            p.max.is_null() ? "" : formatValue(p.max));
      if (!p.choices.empty()) range = fmt::format(" [{}]", fmt::join(p.choices, " | "));
      std::printf("      %s (%s%s)\n", p.doc.c_str(), p.type.c_str(), range.c_str());
    }
  }
  return kExitOk;
}

}  // namespace

Command addConfigShowCommand(CLI::App& parent) {
  auto o = std::make_shared<ShowOptions>();
  CLI::App* config =
      parent.add_subcommand("config", "Inspect configurations (see `npusim config show --help`)");
  config->require_subcommand(1);
  CLI::App* app = config->add_subcommand(
      "show", "Print the resolved configuration: every parameter with its value, unit and source");
  app->footer(
      "Columns: key, value, unit, source. \"override\" marks a --set value; (was X) is the preset's.");
  addConfigOptions(*app, o->config);
  app->add_flag("--json", o->asJson, "Print JSON (value, type, unit, source, doc, range per key)");
  app->add_flag("--doc,-d", o->docs, "Also print each parameter's description and range");
  return {app, [o] { return show(*o); }};
}

}  // namespace npusim::cli
