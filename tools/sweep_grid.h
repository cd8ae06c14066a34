#pragma once
// The parameter grid of `npusim sweep`. Each --set key=v1,v2,... is an axis and the points are
// the cartesian product of the axes (the first axis varies slowest). Axes of one --zip group
// vary together (their i-th values form one step). Two kinds of axis are not configuration
// parameters: "preset" (from --preset a,b) picks the preset, and "arg.NAME" (from --arg
// NAME=v1,v2) replaces {NAME} in the program's arguments.
#include <string>
#include <utility>
#include <vector>

namespace npusim::cli {

struct SweepAxis {
  std::string key;
  std::vector<std::string> values;
  int zipGroup = -1;  // axes with the same group >= 0 vary together
};

constexpr const char* kPresetAxis = "preset";
constexpr const char* kArgAxisPrefix = "arg.";

struct SweepPoint {
  int index = 0;
  std::vector<std::pair<std::string, std::string>> params;  // key, value text
  std::string setText() const;                              // "k1=v1,k2=v2" for NPUSIM_SET
  std::string label() const;                                // "k1=v1 k2=v2"
  // The preset of this point, or `fallback` when the preset is not swept.
  std::string preset(const std::string& fallback) const;
  // The program's arguments with every {NAME} replaced by this point's arg.NAME value.
  std::vector<std::string> argv(const std::vector<std::string>& templ) const;
};

bool isConfigAxis(const std::string& key);

// Parses "key=v1,v2,..." items (commas inside [] or {} do not split). Throws UsageError for a
// malformed item or a key given twice. `zipGroup` is stored in every axis parsed.
std::vector<SweepAxis> parseAxes(const std::vector<std::string>& sets, int zipGroup = -1,
                                 const std::string& prefix = "");

// Checks that the axes of each zip group have the same number of values and no key is given twice.
void checkAxes(const std::vector<SweepAxis>& axes);

std::vector<SweepPoint> expandGrid(const std::vector<SweepAxis>& axes);

}  // namespace npusim::cli
