#pragma once
// One row per sweep point (its parameters, exit status, simulated time and key statistics),
// written as CSV and JSON for scripts/plot, and printed as a table.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/process.h"
#include "tools/sweep_grid.h"

namespace npusim::cli {

struct PointResult {
  SweepPoint point;
  nlohmann::json typedParams;  // key -> value with the parameter's type (from the validated config)
  bool ran = false;            // false: not started (the sweep was interrupted)
  ExitStatus status;
  std::string error;  // the program could not be started, or the runner failed
  double wallSeconds = 0;
  std::string statsPath, logPath, tracePath, worker;
  std::optional<nlohmann::json> stats;
  nlohmann::json metrics = nlohmann::json::object();  // name -> value the program printed

  bool ok() const { return ran && error.empty() && status.ok(); }
  std::string statusText() const;  // "ok", "exited with status 3", "killed by signal 6 (...)", ...
};

struct SweepInfo {
  std::vector<std::string> command;
  std::string config;
  std::vector<SweepAxis> axes;
  std::string runner;  // "local (N jobs)" or the Dask scheduler address
};

// Reads a point's statistics file if it is there (missing or unreadable: no statistics).
void loadPointStats(PointResult& r);

// A metric the program prints: a regular expression whose first group is the value.
struct MetricPattern {
  std::string name;
  std::string regex;
};
// "NAME=REGEX" -> pattern; throws UsageError when the regex is invalid or has no group.
MetricPattern parseMetricPattern(const std::string& text);
// Collects the program's metrics from its log: every "NPUSIM_METRIC name=value" line, and the
// first match of each pattern (the last value wins when a name repeats).
void loadPointMetrics(PointResult& r, const std::vector<MetricPattern>& patterns);

// Writes sweep.csv and sweep.json into `dir`; returns their paths.
std::vector<std::string> writeSweepOutputs(const std::string& dir, const SweepInfo& info,
                                           const std::vector<PointResult>& results);

// A table of the points for the terminal: parameters, status, simulated time, DMA bandwidth.
std::string formatSweepTable(const SweepInfo& info, const std::vector<PointResult>& results);

}  // namespace npusim::cli
