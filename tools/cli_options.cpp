// Command-line options shared by the subcommands that configure or run a simulation.
#include "tools/commands.h"

namespace npusim::cli {

void addConfigOptions(CLI::App& app, ConfigOptions& opts, const std::string& setHelp) {
  auto* p =
      app.add_option("--preset,-p", opts.preset, "Platform preset (see `npusim presets`); default 910b");
  auto* f = app.add_option("--config,-c", opts.file, "JSON configuration file (may \"extends\" a preset)");
  p->excludes(f);
  app.add_option(
         "--set,-s", opts.sets,
         setHelp.empty() ? "Override a parameter, key=value (repeatable; \"a=1,b=2\" sets several)" : setHelp)
      ->allow_extra_args(false)
      ->type_name("KEY=VALUE");
}

void addCommandArgument(CLI::App& app, std::vector<std::string>& command) {
  app.add_option("program", command, "-- PROGRAM [ARGS...]: the ACL program to run, and its arguments")
      ->required()
      ->type_name("");
}

}  // namespace npusim::cli
