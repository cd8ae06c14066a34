#pragma once
// The npusim subcommands. Each add*Command registers its options on the parent and returns
// what to run when it is the one given on the command line.
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "tools/cli_common.h"

namespace npusim::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;  // returns the process exit code
};

// Adds --preset, --config and --set to a subcommand. `setHelp` replaces the --set description
// (the sweep uses comma lists there).
void addConfigOptions(CLI::App& app, ConfigOptions& opts, const std::string& setHelp = "");

// The program to run and its arguments, given after "--".
void addCommandArgument(CLI::App& app, std::vector<std::string>& command);

Command addRunCommand(CLI::App& parent);
Command addPresetsCommand(CLI::App& parent);
Command addConfigShowCommand(CLI::App& parent);  // adds "config" with its "show" subcommand
Command addTopologyCommand(CLI::App& parent);
Command addBandwidthCommand(CLI::App& parent);
Command addSweepCommand(CLI::App& parent);
Command addCompareCommand(CLI::App& parent);

}  // namespace npusim::cli
