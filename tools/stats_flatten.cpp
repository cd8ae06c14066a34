#include "tools/stats_flatten.h"

#include <fmt/format.h>

#include "traces/stats_summary.h"

namespace npusim::cli {

using json = nlohmann::json;

namespace {

std::string elementName(const json& e, size_t index) {
  if (e.is_object()) {
    if (e.contains("device") && e.contains("stream") && e["stream"].is_string()) return trace::streamLabel(e);
    for (const char* k : {"name", "id", "channel"})
      if (e.contains(k)) return e[k].is_string() ? e[k].get<std::string>() : e[k].dump();
  }
  return std::to_string(index);
}

void walk(const json& j, const std::string& path, std::vector<std::pair<std::string, json>>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) walk(v, path.empty() ? k : path + "." + k, out);
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) walk(j[i], path + "[" + elementName(j[i], i) + "]", out);
  } else {
    out.emplace_back(path, j);
  }
}

}  // namespace

std::vector<std::pair<std::string, json>> flattenJson(const json& j) {
  std::vector<std::pair<std::string, json>> out;
  walk(j, "", out);
  return out;
}

}  // namespace npusim::cli
