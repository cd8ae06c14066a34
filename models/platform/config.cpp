// Loads presets and user configuration files, applies overrides, and validates every value
// against the schema that the root preset declares.
#include "npusim/config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "models/platform/memory_targets.h"

namespace npusim {

const std::map<std::string, std::string>& embeddedPresets();  // generated from configs/*.json

namespace {

constexpr const char* kRootPreset = "910b";
using json = nlohmann::json;

json parseText(const std::string& text, const std::string& what) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for numbers like 9e999
    throw ConfigError(fmt::format("{}: invalid JSON: {}", what, e.what()));
  }
}

bool looksLikePath(const std::string& s) {
  return s.find('/') != std::string::npos || (s.size() > 5 && s.substr(s.size() - 5) == ".json");
}

json readPresetOrFile(const std::string& nameOrPath, std::string* displayName) {
  const auto& presets = embeddedPresets();
  auto it = presets.find(nameOrPath);
  if (it != presets.end() && !looksLikePath(nameOrPath)) {
    *displayName = nameOrPath;
    return parseText(it->second, "preset '" + nameOrPath + "'");
  }
  if (!looksLikePath(nameOrPath)) {
    std::vector<std::string> names;
    for (const auto& p : presets) names.push_back(p.first);
    std::string near = nearestKey(nameOrPath, names);
    throw ConfigError(fmt::format("unknown preset '{}'{} (presets: {})", nameOrPath,
                                  near.empty() ? "" : fmt::format(", did you mean '{}'?", near),
                                  fmt::join(names, ", ")));
  }
  std::ifstream in(nameOrPath);
  if (!in) throw ConfigError(fmt::format("cannot open configuration file '{}'", nameOrPath));
  std::stringstream ss;
  ss << in.rdbuf();
  *displayName = nameOrPath;
  return parseText(ss.str(), "configuration file '" + nameOrPath + "'");
}

std::string typeOf(const json& v) {
  if (v.is_boolean()) return "bool";
  if (v.is_number_integer()) return "int";
  if (v.is_number()) return "float";
  if (v.is_string()) return "string";
  return "other";
}

// Overrides come from the command line and NPUSIM_SET as raw bytes; the configuration is written
// back as JSON (statistics, sweeps, the trace's metadata), which holds UTF-8 text only.
void requireUtf8(const std::string& text) {
  try {
    (void)json(text).dump();
  } catch (const json::type_error&) {
    throw ConfigError(fmt::format("override '{}' is not UTF-8 text",
                                  json(text).dump(-1, ' ', false, json::error_handler_t::replace)));
  }
}

// Parses the text of an override value according to the parameter's type.
json parseValue(const ParamInfo& p, const std::string& text) {
  auto bad = [&](const char* expect) {
    return ConfigError(fmt::format("parameter '{}': '{}' is not {}", p.key, text, expect));
  };
  if (p.type == "bool") {
    if (text == "true" || text == "1" || text == "on") return true;
    if (text == "false" || text == "0" || text == "off") return false;
    throw bad("a boolean (true/false)");
  }
  if (p.type == "int") {
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(text.c_str(), &end, 0);
    if (text.empty() || *end != '\0' || errno == ERANGE) {
      // Accept integral floats such as 1e6.
      double d = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !(std::fabs(d) < 9.2e18) || d != std::trunc(d))
        throw bad("an integer");
      v = static_cast<long long>(d);
    }
    return v;
  }
  if (p.type == "float") {
    char* end = nullptr;
    double d = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0') throw bad("a number");
    return d;
  }
  return text;
}

}  // namespace

std::string nearestKey(const std::string& key, const std::vector<std::string>& candidates) {
  std::string best;
  size_t bestDist = SIZE_MAX;
  for (const auto& c : candidates) {
    std::vector<size_t> prev(c.size() + 1), cur(c.size() + 1);
    for (size_t j = 0; j <= c.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= key.size(); ++i) {
      cur[0] = i;
      for (size_t j = 1; j <= c.size(); ++j) {
        size_t sub = prev[j - 1] + (key[i - 1] == c[j - 1] ? 0 : 1);
        cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
      }
      std::swap(prev, cur);
    }
    if (prev[c.size()] < bestDist) {
      bestDist = prev[c.size()];
      best = c;
    }
  }
  // Only suggest something reasonably close.
  if (best.empty() || bestDist > std::max<size_t>(3, key.size() / 2)) return "";
  return best;
}

std::vector<std::string> Config::splitOverrides(const std::string& text) {
  std::vector<std::string> items;
  std::string cur;
  int depth = 0;
  for (char c : text) {
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
    if (c == ',' && depth <= 0) {
      // "a=1,2" is not valid here; a comma always starts a new item unless inside brackets.
      if (!cur.empty()) items.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!cur.empty()) items.push_back(cur);
  for (auto& s : items) {
    size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
    s = (b == std::string::npos) ? "" : s.substr(b, e - b + 1);
  }
  items.erase(std::remove(items.begin(), items.end(), std::string()), items.end());
  return items;
}

const ParamInfo& Config::find(const std::string& key) const {
  auto it = params_.find(key);
  if (it == params_.end()) {
    std::vector<std::string> keys;
    for (const auto& p : params_) keys.push_back(p.first);
    std::string near = nearestKey(key, keys);
    throw ConfigError(fmt::format("unknown parameter '{}'{}", key,
                                  near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near)));
  }
  return it->second;
}

namespace {
// Keys under hbm.plugin. are the memory plug-in's own (any name, text values): declared on first
// use so presets, files, overrides and sweeps can set them.
void declarePluginKey(std::map<std::string, ParamInfo>& params_, const std::string& key) {
  const size_t n = std::strlen(kPluginPrefix);
  if (key.size() <= n || key.compare(0, n, kPluginPrefix) != 0 || params_.count(key)) return;
  ParamInfo p;
  p.key = key;
  p.value = "";
  p.type = "string";
  p.doc = fmt::format("passed to the memory plug-in (hbm.model) as params[\"{}\"]", key.substr(n));
  params_[key] = p;
}
}  // namespace

void Config::set(const std::string& key, const json& value, const std::string& source) {
  declarePluginKey(params_, key);
  const ParamInfo& p = find(key);
  json v = value;
  if (p.type == "string" && key.compare(0, std::strlen(kPluginPrefix), kPluginPrefix) == 0 && !v.is_string())
    v = v.dump();  // a plug-in parameter is text whatever a JSON file wrote
  std::string t = typeOf(v);
  if (p.type == "float" && t == "int") v = v.get<double>(), t = "float";
  if (t != p.type)
    throw ConfigError(
        fmt::format("parameter '{}' must be of type {} (got {} {})", key, p.type, t, value.dump()));
  if (p.type == "int" || p.type == "float") {
    double d = v.get<double>();
    if (!std::isfinite(d))  // "nan" and "inf" overrides parse as numbers
      throw ConfigError(fmt::format("parameter '{}' = {} is not a finite number", key, v.dump()));
    if (!p.min.is_null() && d < p.min.get<double>())
      throw ConfigError(
          fmt::format("parameter '{}' = {} is below its minimum {}", key, v.dump(), p.min.dump()));
    if (!p.max.is_null() && d > p.max.get<double>())
      throw ConfigError(
          fmt::format("parameter '{}' = {} is above its maximum {}", key, v.dump(), p.max.dump()));
  }
  if (!p.choices.empty() &&
      std::find(p.choices.begin(), p.choices.end(), v.get<std::string>()) == p.choices.end()) {
    std::string near = nearestKey(v.get<std::string>(), p.choices);
    throw ConfigError(fmt::format("parameter '{}' = '{}' is not one of: {}{}", key, v.get<std::string>(),
                                  fmt::join(p.choices, ", "),
                                  near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near)));
  }
  ParamInfo& mut = params_[key];
  mut.value = v;
  mut.source = source;
}

Config Config::load(const std::string& presetOrPath, const std::vector<std::string>& overrides) {
  Config cfg;
  // Schema and defaults from the root preset.
  std::string rootName;
  json root = readPresetOrFile(kRootPreset, &rootName);
  for (const auto& [key, spec] : root.at("params").items()) {
    ParamInfo p;
    p.key = key;
    p.value = spec.at("value");
    p.type = spec.value("type", typeOf(p.value));
    p.unit = spec.value("unit", "");
    p.doc = spec.value("doc", "");
    p.source = spec.value("source", "");
    p.min = spec.value("min", json());
    p.max = spec.value("max", json());
    if (spec.contains("choices")) p.choices = spec.at("choices").get<std::vector<std::string>>();
    if (p.type == "float" && p.value.is_number_integer()) p.value = p.value.get<double>();
    cfg.params_[key] = p;
  }
  if (root.contains("topology")) cfg.topology_ = root["topology"];

  // A chain of presets/files, each "extends" the next, applied root-most first.
  std::vector<std::pair<std::string, json>> chain;
  std::set<std::string> seen;
  std::string next = presetOrPath.empty() ? kRootPreset : presetOrPath;
  while (!next.empty() && next != kRootPreset) {
    if (!seen.insert(next).second) throw ConfigError(fmt::format("configuration '{}' extends itself", next));
    std::string name;
    json j = readPresetOrFile(next, &name);
    if (!j.is_object()) throw ConfigError(fmt::format("configuration '{}' must be a JSON object", name));
    for (const auto& [k, v] : j.items()) {
      static const std::vector<std::string> allowed = {"description", "extends", "params", "topology"};
      if (std::find(allowed.begin(), allowed.end(), k) == allowed.end()) {
        std::string near = nearestKey(k, allowed);
        throw ConfigError(fmt::format("configuration '{}': unknown top-level key '{}'{}", name, k,
                                      near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near)));
      }
    }
    if (j.contains("extends") && !j["extends"].is_string())
      throw ConfigError(
          fmt::format("configuration '{}': \"extends\" must be a preset name or a file path", name));
    chain.emplace_back(name, j);
    next = j.value("extends", std::string(kRootPreset));
  }
  cfg.name_ = presetOrPath.empty() ? kRootPreset : presetOrPath;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const auto& [name, j] = *it;
    if (j.contains("params")) {
      if (!j["params"].is_object())
        throw ConfigError(fmt::format("configuration '{}': 'params' must be an object", name));
      for (const auto& [key, spec] : j["params"].items()) {
        if (spec.is_object()) {
          if (!spec.contains("value"))
            throw ConfigError(fmt::format("configuration '{}': parameter '{}' has no \"value\"", name, key));
          if (spec.contains("source") && !spec["source"].is_string())
            throw ConfigError(
                fmt::format("configuration '{}': parameter '{}': \"source\" must be text", name, key));
          cfg.set(key, spec["value"], spec.value("source", "set by " + name));
        } else {
          cfg.set(key, spec, "set by " + name);
        }
        cfg.params_[key].explicitlySet = true;
      }
    }
    if (j.contains("topology")) cfg.topology_ = j["topology"];
  }
  for (const auto& item : overrides) {
    requireUtf8(item);
    for (const auto& kv : splitOverrides(item)) {
      auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0)
        throw ConfigError(fmt::format("override '{}' is not of the form key=value", kv));
      std::string key = kv.substr(0, eq), text = kv.substr(eq + 1);
      declarePluginKey(cfg.params_, key);
      const ParamInfo& p = cfg.find(key);
      cfg.set(key, parseValue(p, text), "override");
      cfg.params_[key].explicitlySet = true;
    }
  }
  cfg.deriveDependents();
  cfg.check();
  return cfg;
}

Config Config::fromEnvironment() {
  const char* c = std::getenv("NPUSIM_CONFIG");
  const char* s = std::getenv("NPUSIM_SET");
  std::vector<std::string> ov;
  if (s && *s) ov.emplace_back(s);
  return load(c && *c ? c : kRootPreset, ov);
}

std::vector<std::string> Config::presetNames() {
  std::vector<std::string> names;
  for (const auto& p : embeddedPresets()) names.push_back(p.first);
  return names;
}

std::string Config::presetDescription(const std::string& name) {
  auto it = embeddedPresets().find(name);
  if (it == embeddedPresets().end()) return "";
  return parseText(it->second, name).value("description", "");
}

bool Config::has(const std::string& key) const { return params_.count(key) != 0; }

int64_t Config::getInt(const std::string& key) const {
  const ParamInfo& p = find(key);
  if (!p.value.is_number_integer()) throw ConfigError(fmt::format("parameter '{}' is not an integer", key));
  return p.value.get<int64_t>();
}
double Config::getFloat(const std::string& key) const {
  const ParamInfo& p = find(key);
  if (!p.value.is_number()) throw ConfigError(fmt::format("parameter '{}' is not a number", key));
  return p.value.get<double>();
}
bool Config::getBool(const std::string& key) const {
  const ParamInfo& p = find(key);
  if (!p.value.is_boolean()) throw ConfigError(fmt::format("parameter '{}' is not a boolean", key));
  return p.value.get<bool>();
}
std::string Config::getString(const std::string& key) const {
  const ParamInfo& p = find(key);
  if (!p.value.is_string()) throw ConfigError(fmt::format("parameter '{}' is not a string", key));
  return p.value.get<std::string>();
}

json Config::toJson() const {
  json out = json::object();
  out["preset"] = name_;
  json params = json::object();
  for (const auto& [k, p] : params_) params[k] = p.value;
  out["params"] = params;
  json inactiveKeys = json::array();
  for (const auto& [k, p] : params_)
    if (inactiveWithMemoryModel(*this, k)) inactiveKeys.push_back(k);
  out["inactive"] = inactiveKeys;
  if (!topology_.is_null()) out["topology"] = topology_;
  return out;
}

}  // namespace npusim
