#include "tools/cli_common.h"

#include <fmt/format.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace npusim::cli {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string ConfigOptions::configName() const {
  if (!file.empty()) return file;
  if (!preset.empty()) return preset;
  return "910b";
}

std::string ConfigOptions::setText() const {
  std::string out;
  for (const auto& s : sets) out += (out.empty() ? "" : ",") + s;
  return out;
}

Config ConfigOptions::load() const {
  try {
    return Config::load(configName(), sets);
  } catch (const ConfigError& e) {
    throw UsageError(e.what());
  }
}

Config ConfigOptions::loadBase() const {
  try {
    return Config::load(configName());
  } catch (const ConfigError& e) {
    throw UsageError(e.what());
  }
}

std::vector<std::string> describeOverrides(const Config& base, const Config& cfg) {
  std::vector<std::string> out;
  for (const auto& [key, p] : cfg.params()) {
    auto it = base.params().find(key);
    if (it == base.params().end() || it->second.value != p.value)
      out.push_back(fmt::format("{}: {} -> {}", key,
                                it == base.params().end() ? "?" : formatValue(it->second.value),
                                formatValue(p.value)));
  }
  return out;
}

EnvChanges simulationEnv(const std::string& config, const std::string& setText, const std::string& statsPath,
                         const std::string& tracePath) {
  EnvChanges env;
  env["NPUSIM_CONFIG"] = config;
  env["NPUSIM_SET"] = setText.empty() ? std::nullopt : std::optional<std::string>(setText);
  env["NPUSIM_STATS"] = statsPath.empty() ? std::nullopt : std::optional<std::string>(statsPath);
  env["NPUSIM_TRACE"] = tracePath.empty() ? std::nullopt : std::optional<std::string>(tracePath);
  env["NPUSIM_SUMMARY"] = std::nullopt;
  return env;
}

std::string selfDirectory() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  buf[n] = '\0';
  return fs::path(buf).parent_path().string();
}

std::string findHelper(const std::string& envVar, const std::vector<std::string>& candidates) {
  if (const char* e = std::getenv(envVar.c_str()); e && *e) return e;
  for (const auto& c : candidates)
    if (access(c.c_str(), X_OK) == 0) return c;
  return "";
}

std::string resolveProgram(const std::string& program) {
  if (program.empty()) return "";
  auto executable = [](const std::string& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
  };
  if (program.find('/') != std::string::npos) {
    if (!executable(program)) return "";
    std::error_code ec;
    fs::path abs = fs::absolute(program, ec);
    return ec ? program : abs.lexically_normal().string();
  }
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    std::string cand = (dir.empty() ? std::string(".") : dir) + "/" + program;
    if (executable(cand)) return cand;
  }
  return "";
}

TempDir::TempDir() {
  const char* t = std::getenv("TMPDIR");
  std::string tmpl = std::string(t && *t ? t : "/tmp") + "/npusim.XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) throw std::runtime_error("cannot create a temporary directory in " + tmpl);
  path_ = buf.data();
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

json readJsonFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UsageError(fmt::format("cannot open '{}'", path));
  try {
    return json::parse(in);
  } catch (const json::parse_error& e) {
    throw UsageError(fmt::format("'{}' is not valid JSON: {}", path, e.what()));
  }
}

void writeTextFile(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error(fmt::format("cannot write '{}'", path));
}

uint64_t parseBytes(const std::string& text) {
  size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  if (i == 0) throw UsageError(fmt::format("'{}' is not a size (examples: 1048576, 64KiB, 128MiB)", text));
  double n = std::stod(text.substr(0, i));
  std::string suffix = text.substr(i);
  for (auto& c : suffix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  double mult = 1.0;
  if (suffix.empty() || suffix == "b") {
    mult = 1.0;
  } else {
    static const std::string prefixes = "kmgt";
    size_t p = prefixes.find(suffix[0]);
    std::string rest = suffix.substr(1);
    if (p == std::string::npos || !(rest.empty() || rest == "i" || rest == "ib" || rest == "b"))
      throw UsageError(
          fmt::format("'{}' has an unknown size suffix (use B, KiB, MiB, GiB, KB, MB, GB)", text));
    mult = std::pow(rest == "b" ? 1000.0 : 1024.0, static_cast<double>(p + 1));
  }
  double v = n * mult;
  if (v < 1.0 || v > 1e15) throw UsageError(fmt::format("size '{}' is out of range", text));
  return static_cast<uint64_t>(v);
}

std::string formatValue(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) {
    std::string s = fmt::format("{:.6g}", v.get<double>());
    return s;
  }
  return v.dump();
}

}  // namespace npusim::cli
