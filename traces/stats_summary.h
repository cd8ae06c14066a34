#pragma once
// The one-screen summary of a run, from its statistics JSON (runtime/summary.cpp writes it):
// simulated time, per-engine utilisation, bytes moved, achieved bandwidths, where each stream
// spent its time, and misuse findings. Printed at aclFinalize with NPUSIM_SUMMARY=1 and by
// `npusim run`.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace npusim::trace {

// `overrides`: "key: base -> value" lines describing what differs from the preset (may be empty).
std::string formatRunSummary(const nlohmann::json& stats, const std::vector<std::string>& overrides = {});

// "1.500 MiB", "128 MiB", "512 B": binary units for sizes.
std::string formatBytes(double bytes);

// A numeric field of a statistics object; missing or non-numeric fields read as 0, so readers
// keep working when the statistics file gains or loses a field.
double statNumber(const nlohmann::json& j, const char* key);

// "NPU 0 stream 3", "NPU 0 sync copies", "NPU 0 12 destroyed streams" for a "streams" entry.
std::string streamLabel(const nlohmann::json& stream);

}  // namespace npusim::trace
