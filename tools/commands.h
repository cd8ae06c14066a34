#pragma once
// The npusim subcommands. Each add*Command registers its options on the parent and returns
// what to run when it is the one given on the command line.
#include <CLI/CLI.hpp>
#include <functional>

namespace npusim::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;  // returns the process exit code
};

Command addRunCommand(CLI::App& parent);
Command addPresetsCommand(CLI::App& parent);
Command addConfigShowCommand(CLI::App& parent);  // adds "config" with its "show" subcommand
Command addTopologyCommand(CLI::App& parent);
Command addBandwidthCommand(CLI::App& parent);
Command addSweepCommand(CLI::App& parent);
Command addCompareCommand(CLI::App& parent);

}  // namespace npusim::cli
