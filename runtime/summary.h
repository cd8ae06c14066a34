#pragma once
// End-of-run statistics (NPUSIM_STATS, JSON for scripts; traces/stats_summary.h turns them into
// the one-screen summary).
#include <nlohmann/json.hpp>
#include <string>

#include "models/common/tick.h"

namespace npusim::rt {

class Runtime;
nlohmann::json buildStatistics(Runtime& rt, Tick end);

}  // namespace npusim::rt
