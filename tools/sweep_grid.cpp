#include "tools/sweep_grid.h"

#include <fmt/format.h>

#include <set>

#include "npusim/config.h"
#include "tools/cli_common.h"

namespace npusim::cli {

std::string SweepPoint::setText() const {
  std::string out;
  for (const auto& [k, v] : params) out += (out.empty() ? "" : ",") + k + "=" + v;
  return out;
}

std::string SweepPoint::label() const {
  std::string out;
  for (const auto& [k, v] : params) out += (out.empty() ? "" : " ") + k + "=" + v;
  return out;
}

std::vector<SweepAxis> parseAxes(const std::vector<std::string>& sets) {
  std::vector<SweepAxis> axes;
  std::set<std::string> keys;
  for (const auto& item : sets) {
    auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError(fmt::format("--set '{}' is not of the form key=value1,value2,...", item));
    SweepAxis axis{item.substr(0, eq), Config::splitOverrides(item.substr(eq + 1))};
    if (axis.values.empty()) throw UsageError(fmt::format("--set '{}' has no values", item));
    if (!keys.insert(axis.key).second)
      throw UsageError(fmt::format("parameter '{}' is given twice; list its values in one --set", axis.key));
    axes.push_back(axis);
  }
  return axes;
}

std::vector<SweepPoint> expandGrid(const std::vector<SweepAxis>& axes) {
  std::vector<SweepPoint> points(1);
  for (const auto& axis : axes) {
    std::vector<SweepPoint> next;
    for (const auto& p : points) {
      for (const auto& v : axis.values) {
        SweepPoint q = p;
        q.params.emplace_back(axis.key, v);
        next.push_back(q);
      }
    }
    points.swap(next);
  }
  for (size_t i = 0; i < points.size(); ++i) points[i].index = static_cast<int>(i);
  return points;
}

}  // namespace npusim::cli
