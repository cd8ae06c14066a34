#pragma once
// Flattens a statistics JSON into "path = leaf" pairs so two runs can be compared key by key.
// Array elements are named by what identifies them (a stream by device and id, a DMA channel
// by its number, a device by its id, a topology node by its name), not by their position, so
// runs with different numbers of streams still line up.
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace npusim::cli {

// Leaves in document order: numbers, strings, booleans and nulls.
std::vector<std::pair<std::string, nlohmann::json>> flattenJson(const nlohmann::json& j);

}  // namespace npusim::cli
