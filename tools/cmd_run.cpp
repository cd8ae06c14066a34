// npusim run: validates the configuration, runs one ACL program on the simulator and prints a
// one-screen summary of its statistics.
#include <fmt/format.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "tools/cli_common.h"
#include "tools/commands.h"
#include "tools/process.h"
#include "traces/stats_summary.h"

namespace npusim::cli {

namespace {

struct RunOptions {
  ConfigOptions config;
  std::string trace;
  std::string stats;
  bool quiet = false;
  std::vector<std::string> command;
};

// While the program runs, Ctrl-C belongs to it (it shares our process group): npusim waits and
// reports how it ended, as system() does.
class IgnoreInterrupts {
 public:
  IgnoreInterrupts() {
    struct sigaction ign {};
    ign.sa_handler = SIG_IGN;
    sigaction(SIGINT, &ign, &oldInt_);
    sigaction(SIGQUIT, &ign, &oldQuit_);
  }
  ~IgnoreInterrupts() {
    sigaction(SIGINT, &oldInt_, nullptr);
    sigaction(SIGQUIT, &oldQuit_, nullptr);
  }

 private:
  struct sigaction oldInt_ {
  }, oldQuit_{};
};

int runProgram(const RunOptions& o) {
  Config cfg = o.config.load();  // refuse bad keys, values and presets before anything runs
  std::vector<std::string> overrides = describeOverrides(o.config.loadBase(), cfg);
  std::string program = resolveProgram(o.command[0]);
  if (program.empty())
    throw UsageError(fmt::format("program '{}' not found or not executable", o.command[0]));

  TempDir tmp;
  std::string stats = o.stats.empty() ? tmp.path() + "/stats.json" : o.stats;
  std::error_code ec;
  std::filesystem::remove(stats, ec);  // a stale file must not pass for this run's statistics

  ExitStatus status;
  {
    IgnoreInterrupts guard;
    pid_t pid =
        spawnProcess(o.command, simulationEnv(o.config.configName(), o.config.setText(), stats, o.trace));
    status = waitProcess(pid);
  }
  std::fflush(stdout);

  bool haveStats = std::filesystem::exists(stats);
  if (haveStats && !o.quiet) {
    try {
      std::fputs(trace::formatRunSummary(readJsonFile(stats), overrides).c_str(), stderr);
    } catch (const UsageError& e) {
      std::fprintf(stderr, "npusim run: cannot read the statistics: %s\n", e.what());
    }
  }
  if (haveStats && !o.stats.empty()) std::fprintf(stderr, "statistics: %s\n", o.stats.c_str());
  if (!o.trace.empty() && std::filesystem::exists(o.trace))
    std::fprintf(stderr, "trace: %s (open in https://ui.perfetto.dev)\n", o.trace.c_str());
  if (!status.ok()) {
    std::fprintf(stderr, "npusim run: program '%s' %s%s\n", o.command[0].c_str(), status.describe().c_str(),
                 haveStats ? "" : " before writing statistics");
    return status.shellCode();
  }
  if (!haveStats)
    std::fprintf(stderr, "npusim run: '%s' made no ACL calls, so nothing was simulated\n",
                 o.command[0].c_str());
  return kExitOk;
}

}  // namespace

Command addRunCommand(CLI::App& parent) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* app = parent.add_subcommand(
      "run",
      "Run an ACL program on the simulator and print a summary of simulated time, engine utilisation, "
      "bytes moved, bandwidths and where each stream spent its time");
  app->footer(
      "The configuration is validated before the program starts (bad key, value or preset: exit 2).\n"
      "Exit status: the program's own when it fails (128 + signal when it is killed), else 0.\n"
      "The summary goes to stderr, after the program's own output.\n"
      "Example: npusim run --set pcie.gen=5 --stats gen5.json -- ./app --size 1024");
  addConfigOptions(*app, o->config);
  app->add_option("--trace,-t", o->trace, "Write a Chrome/Perfetto trace to this file")->type_name("FILE");
  app->add_option("--stats", o->stats, "Keep the statistics JSON in this file (for `npusim compare`)")
      ->type_name("FILE");
  app->add_flag("--quiet,-q", o->quiet, "Do not print the summary");
  addCommandArgument(*app, o->command);
  return {app, [o] { return runProgram(*o); }};
}

}  // namespace npusim::cli
