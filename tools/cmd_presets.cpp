// npusim presets: the platform presets built into the simulator.
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "tools/cli_common.h"
#include "tools/commands.h"

namespace npusim::cli {

namespace {
int listPresets(bool asJson) {
  if (asJson) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& name : Config::presetNames())
      out.push_back({{"name", name}, {"description", Config::presetDescription(name)}});
    std::puts(out.dump(2).c_str());
    return kExitOk;
  }
  for (const auto& name : Config::presetNames())
    std::printf("%s\n    %s\n", name.c_str(), Config::presetDescription(name).c_str());
  return kExitOk;
}
}  // namespace

Command addPresetsCommand(CLI::App& parent) {
  auto asJson = std::make_shared<bool>(false);
  CLI::App* app = parent.add_subcommand("presets", "List the platform presets (use one with --preset NAME)");
  app->add_flag("--json", *asJson, "Print JSON");
  return {app, [asJson] { return listPresets(*asJson); }};
}

}  // namespace npusim::cli
