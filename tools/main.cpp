// npusim: runs ACL programs on the simulated NPU system and answers "what if" questions
// (configurations, sweeps, comparisons) without glue code. One file per subcommand.
#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tools/cli_common.h"
#include "tools/commands.h"

namespace {
// "config show" for the nested subcommand, for error messages.
std::string commandName(const CLI::App* app) {
  std::string name;
  for (; app && app->get_parent(); app = app->get_parent())
    name = app->get_name() + (name.empty() ? "" : " " + name);
  return name;
}
}  // namespace

int main(int argc, char** argv) {
  using namespace npusim::cli;
  CLI::App app{
      "npusim: run unmodified ACL programs on a simulated NPU system, sweep its parameters and\n"
      "compare runs. `npusim COMMAND --help` describes each command."};
  app.name("npusim");
  app.require_subcommand(1);
  std::vector<Command> commands = {
      addRunCommand(app),        addSweepCommand(app),    addCompareCommand(app), addBandwidthCommand(app),
      addConfigShowCommand(app), addTopologyCommand(app), addPresetsCommand(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  }
  for (const auto& c : commands) {
    if (!c.app->parsed()) continue;
    try {
      return c.run();
    } catch (const UsageError& e) {
      std::fprintf(stderr, "npusim %s: error: %s\n", commandName(c.app).c_str(), e.what());
      return kExitUsage;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "npusim %s: %s\n", commandName(c.app).c_str(), e.what());
      return kExitFailed;
    }
  }
  return kExitUsage;
}
