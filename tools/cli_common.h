#pragma once
// Pieces every npusim subcommand shares: the configuration options (--preset/--config/--set),
// their validation, the error type that maps to exit code 2, and small formatting helpers.
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "npusim/config.h"
#include "tools/process.h"
#include "traces/stats_summary.h"

namespace npusim::cli {

// Exit codes of npusim itself (a program's own failure is passed through by `run`).
constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;  // a program or sweep point failed
constexpr int kExitUsage = 2;   // bad command line, configuration or input file

// A refusal before anything runs (bad key, value, preset, file): printed, exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ConfigOptions {
  std::string preset;
  std::string file;
  std::vector<std::string> sets;

  // What NPUSIM_CONFIG should say: the preset name, the configuration file, or "910b".
  std::string configName() const;
  // The overrides joined as NPUSIM_SET expects them.
  std::string setText() const;
  // Validates everything now (throws UsageError naming the key and the nearest valid one).
  Config load() const;
  // The same configuration without the --set overrides, to tell what they changed.
  Config loadBase() const;
};

// "pcie.gen: 4 -> 5" for every parameter whose value differs between the two configurations.
std::vector<std::string> describeOverrides(const Config& base, const Config& cfg);

// The environment a simulated program runs with: NPUSIM_CONFIG and NPUSIM_SET from `config`
// and `setText` (inherited values are replaced, so what was validated is what runs), the given
// output paths, and no NPUSIM_SUMMARY (npusim prints its own).
EnvChanges simulationEnv(const std::string& config, const std::string& setText, const std::string& statsPath,
                         const std::string& tracePath);

// Directory that holds the running npusim executable.
std::string selfDirectory();
// A helper executable or script next to npusim, installed beside it, or in the source tree.
std::string findHelper(const std::string& envVar, const std::vector<std::string>& candidates);

// Absolute path of a program given as on a command line ("./app" or "app" on PATH); empty when
// it cannot be found or is not executable.
std::string resolveProgram(const std::string& program);

// A fresh private directory under $TMPDIR, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

nlohmann::json readJsonFile(const std::string& path);
void writeTextFile(const std::string& path, const std::string& text);

using trace::formatBytes;  // "1.500 MiB", "128 MiB", "512 B"
// Parses "128MiB", "4k", "1048576", "1GB": binary suffixes K/Ki/KiB = 1024, KB = 1000.
uint64_t parseBytes(const std::string& text);
// A JSON scalar as a short human string (numbers without trailing zeros).
std::string formatValue(const nlohmann::json& v);

}  // namespace npusim::cli
