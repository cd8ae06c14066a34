#pragma once
// The parameter grid of `npusim sweep`: each --set key=v1,v2,... is an axis, and the points
// are their cartesian product (the first axis varies slowest).
#include <string>
#include <utility>
#include <vector>

namespace npusim::cli {

struct SweepAxis {
  std::string key;
  std::vector<std::string> values;
};

struct SweepPoint {
  int index = 0;
  std::vector<std::pair<std::string, std::string>> params;  // key, value text
  std::string setText() const;                              // "k1=v1,k2=v2" for NPUSIM_SET
  std::string label() const;                                // "k1=v1 k2=v2"
};

// Parses "key=v1,v2,..." items (commas inside [] or {} do not split). Throws UsageError for a
// malformed item or a key given twice.
std::vector<SweepAxis> parseAxes(const std::vector<std::string>& sets);

std::vector<SweepPoint> expandGrid(const std::vector<SweepAxis>& axes);

}  // namespace npusim::cli
