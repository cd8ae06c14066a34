#pragma once
// The simulator's configuration: a preset (configs/<name>.json, embedded in the library) or a
// JSON file, plus "dotted.key=value" overrides. The root preset (910b) declares every parameter
// with its type, range, unit, documentation and source; other presets and user files only
// change values. Unknown keys, wrong types and out-of-range values are refused with a
// ConfigError that names the key and the nearest valid one. Values that follow from another
// (pcie.gen -> completion size and posted credits, hbm.timing -> organisation) are derived
// unless set explicitly (config_rules.cpp), and every cross-key and topology rule is checked by
// Config::check(), which load() calls: a Config that exists is one the platform can build.
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace npusim {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ParamInfo {
  std::string key;
  nlohmann::json value;  // the resolved value
  std::string type;      // "int", "float", "bool", "string"
  std::string unit;
  std::string doc;
  std::string source;                // where the value comes from (preset text, "override", ...)
  std::string derivedFrom;           // the key this value was derived from ("" = not derived)
  bool explicitlySet = false;        // set by a preset other than the root, a file or an override
  nlohmann::json min, max;           // null when unbounded
  std::vector<std::string> choices;  // for strings with a fixed set of values
};

class Config {
 public:
  // `presetOrPath`: a preset name ("910b") or a path to a JSON file. `overrides`: "key=value"
  // items (each item may itself be a comma-separated list as in NPUSIM_SET).
  static Config load(const std::string& presetOrPath, const std::vector<std::string>& overrides = {});
  // NPUSIM_CONFIG (default "910b") and NPUSIM_SET.
  static Config fromEnvironment();
  static std::vector<std::string> presetNames();
  static std::string presetDescription(const std::string& name);

  int64_t getInt(const std::string& key) const;
  double getFloat(const std::string& key) const;  // ints are accepted
  bool getBool(const std::string& key) const;
  std::string getString(const std::string& key) const;
  bool has(const std::string& key) const;

  const std::string& name() const { return name_; }
  const nlohmann::json& topology() const { return topology_; }  // null when the preset has none
  const std::map<std::string, ParamInfo>& params() const { return params_; }
  nlohmann::json toJson() const;  // resolved values, for stats files and `npusim config show`
  // Every cross-key constraint and topology rule (config_rules.cpp); throws a ConfigError that
  // names the key. load() calls it, so `npusim config show`, `run`, `sweep` and aclInit share it.
  void check() const;

  // Splits "a=1,b=2" into items, honouring brackets; exposed for tests.
  static std::vector<std::string> splitOverrides(const std::string& text);

 private:
  const ParamInfo& find(const std::string& key) const;
  void set(const std::string& key, const nlohmann::json& value, const std::string& source);
  // Sets the values that follow from another key and were not set explicitly (config_rules.cpp).
  void deriveDependents();
  std::string name_;
  std::map<std::string, ParamInfo> params_;
  nlohmann::json topology_;
};

// Levenshtein-nearest candidate, used in error messages ("did you mean 'pcie.gen'?").
std::string nearestKey(const std::string& key, const std::vector<std::string>& candidates);

}  // namespace npusim
