#include "tools/sweep_grid.h"

#include <fmt/format.h>

#include <map>
#include <set>

#include "npusim/config.h"
#include "tools/cli_common.h"

namespace npusim::cli {

bool isConfigAxis(const std::string& key) { return key != kPresetAxis && key.rfind(kArgAxisPrefix, 0) != 0; }

std::string SweepPoint::setText() const {
  std::string out;
  for (const auto& [k, v] : params)
    if (isConfigAxis(k)) out += (out.empty() ? "" : ",") + k + "=" + v;
  return out;
}

std::string SweepPoint::label() const {
  std::string out;
  for (const auto& [k, v] : params) out += (out.empty() ? "" : " ") + k + "=" + v;
  return out;
}

std::string SweepPoint::preset(const std::string& fallback) const {
  for (const auto& [k, v] : params)
    if (k == kPresetAxis) return v;
  return fallback;
}

std::vector<std::string> SweepPoint::argv(const std::vector<std::string>& templ) const {
  std::vector<std::string> out = templ;
  for (const auto& [k, v] : params) {
    if (k.rfind(kArgAxisPrefix, 0) != 0) continue;
    const std::string placeholder = "{" + k.substr(std::string(kArgAxisPrefix).size()) + "}";
    for (size_t i = 1; i < out.size(); ++i)
      for (size_t pos; (pos = out[i].find(placeholder)) != std::string::npos;)
        out[i].replace(pos, placeholder.size(), v);
  }
  return out;
}

std::vector<SweepAxis> parseAxes(const std::vector<std::string>& sets, int zipGroup,
                                 const std::string& prefix) {
  std::vector<SweepAxis> axes;
  for (const auto& item : sets) {
    auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError(fmt::format("'{}' is not of the form key=value1,value2,...", item));
    SweepAxis axis{prefix + item.substr(0, eq), Config::splitOverrides(item.substr(eq + 1)), zipGroup};
    if (axis.values.empty()) throw UsageError(fmt::format("'{}' has no values", item));
    axes.push_back(axis);
  }
  checkAxes(axes);
  return axes;
}

void checkAxes(const std::vector<SweepAxis>& axes) {
  std::set<std::string> keys;
  std::map<int, const SweepAxis*> firstOfGroup;
  for (const auto& a : axes) {
    if (!keys.insert(a.key).second)
      throw UsageError(fmt::format("parameter '{}' is given twice; list its values once", a.key));
    if (a.zipGroup < 0) continue;
    auto [it, fresh] = firstOfGroup.emplace(a.zipGroup, &a);
    if (!fresh && it->second->values.size() != a.values.size())
      throw UsageError(
          fmt::format("--zip {} has {} values but --zip {} has {}: zipped axes vary together and "
                      "need as many values each",
                      a.key, a.values.size(), it->second->key, it->second->values.size()));
  }
}

std::vector<SweepPoint> expandGrid(const std::vector<SweepAxis>& axes) {
  std::vector<SweepPoint> points(1);
  std::set<int> doneGroups;
  for (size_t i = 0; i < axes.size(); ++i) {
    const SweepAxis& axis = axes[i];
    if (axis.zipGroup >= 0 && !doneGroups.insert(axis.zipGroup).second) continue;
    // The axes that step with this one (itself, plus the rest of its zip group).
    std::vector<const SweepAxis*> step{&axis};
    if (axis.zipGroup >= 0)
      for (size_t j = i + 1; j < axes.size(); ++j)
        if (axes[j].zipGroup == axis.zipGroup) step.push_back(&axes[j]);
    std::vector<SweepPoint> next;
    for (const auto& p : points) {
      for (size_t v = 0; v < axis.values.size(); ++v) {
        SweepPoint q = p;
        for (const SweepAxis* a : step) q.params.emplace_back(a->key, a->values[v]);
        next.push_back(q);
      }
    }
    points.swap(next);
  }
  for (size_t i = 0; i < points.size(); ++i) points[i].index = static_cast<int>(i);
  return points;
}

}  // namespace npusim::cli
