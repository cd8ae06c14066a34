#pragma once
// End-of-run statistics (NPUSIM_STATS, JSON for scripts) and the one-screen human summary
// (NPUSIM_SUMMARY=1, or `npusim run`).
#include <nlohmann/json.hpp>
#include <string>

#include "models/common/tick.h"

namespace npusim::rt {

class Runtime;
nlohmann::json buildStatistics(Runtime& rt, Tick end);
std::string formatSummary(const nlohmann::json& stats);

}  // namespace npusim::rt
