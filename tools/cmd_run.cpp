// npusim run: validates the configuration, runs one ACL program on the simulator and prints a
// one-screen summary of its statistics.
#include <dlfcn.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <thread>

#include "acl/acl.h"
#include "tools/cli_common.h"
#include "tools/commands.h"
#include "tools/process.h"
#include "tools/trace_close.h"
#include "traces/stats_summary.h"

namespace npusim::cli {

namespace {

struct RunOptions {
  ConfigOptions config;
  std::string trace;
  std::string stats;
  bool quiet = false;
  double timeout = 0;
  std::vector<std::string> command;
};

// Exit code of a run stopped by --timeout, as coreutils' timeout(1).
constexpr int kExitTimeout = 124;
// Seconds a timed-out program gets to write its outputs after SIGTERM before SIGKILL.
constexpr double kTermGraceSeconds = 10;

// An output file must be writable before the program starts, not found unwritable at its end.
void checkOutputPath(const std::string& path, const char* option) {
  if (path.empty()) return;
  namespace fs = std::filesystem;
  fs::path p(path);
  std::error_code ec;
  if (fs::is_directory(p, ec)) throw UsageError(fmt::format("{} {}: is a directory", option, path));
  if (fs::exists(p, ec)) {
    if (access(path.c_str(), W_OK) != 0)
      throw UsageError(fmt::format("{} {}: file is not writable", option, path));
    return;
  }
  fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec))
    throw UsageError(fmt::format("{} {}: directory '{}' does not exist", option, path, dir.string()));
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    throw UsageError(fmt::format("{} {}: directory '{}' is not writable", option, path, dir.string()));
}

// The directory of the libascendcl.so npusim itself uses: the program is run against it.
std::string simulatorLibraryDir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&aclInit), &info) == 0 || info.dli_fname == nullptr) return "";
  std::error_code ec;
  auto p = std::filesystem::canonical(info.dli_fname, ec);
  return ec ? std::string() : p.parent_path().string();
}

// Waits for the program; with a timeout, stops it with SIGTERM (the runtime then writes its
// outputs) and, if it is still running after a grace period, with SIGKILL. Long runs on a
// terminal get a progress line.
ExitStatus waitWithTimeout(pid_t pid, const RunOptions& o, bool* timedOut) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const bool progress = !o.quiet && isatty(STDERR_FILENO);
  bool termSent = false, progressShown = false;
  for (;;) {
    int st = 0;
    pid_t r = waitpid(pid, &st, WNOHANG);
    if (r == pid) {
      if (progressShown) std::fputs("\r\033[K", stderr);
      return ExitStatus::fromWaitStatus(st);
    }
    if (r < 0 && errno != EINTR) return waitProcess(pid);
    const double s = std::chrono::duration<double>(Clock::now() - start).count();
    if (o.timeout > 0 && !termSent && s > o.timeout) {
      kill(pid, SIGTERM);
      termSent = *timedOut = true;
    } else if (termSent && s > o.timeout + kTermGraceSeconds) {
      kill(pid, SIGKILL);
    }
    if (progress && s >= 2) {
      std::error_code ec;
      auto bytes = o.trace.empty() ? 0 : std::filesystem::file_size(o.trace, ec);
      std::fprintf(stderr, "\r\033[Knpusim run: %.0f s%s%s", s,
                   o.trace.empty() || ec
                       ? ""
                       : fmt::format(", trace {}", formatBytes(static_cast<double>(bytes))).c_str(),
                   o.timeout > 0 ? fmt::format(" (timeout {:.0f} s)", o.timeout).c_str() : "");
      progressShown = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

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

  checkOutputPath(o.stats, "--stats");
  checkOutputPath(o.trace, "--trace");

  TempDir tmp;
  std::string stats = o.stats.empty() ? tmp.path() + "/stats.json" : o.stats;
  std::error_code ec;
  std::filesystem::remove(stats, ec);  // a stale file must not pass for this run's statistics
  if (!o.trace.empty()) std::filesystem::remove(o.trace, ec);  // nor a stale trace for this run's

  EnvChanges env = simulationEnv(o.config.configName(), o.config.setText(), stats, o.trace);
  // The program runs against the simulator's libascendcl.so, wherever it was built or installed.
  const std::string libDir = simulatorLibraryDir();
  if (!libDir.empty()) {
    const char* old = std::getenv("LD_LIBRARY_PATH");
    env["LD_LIBRARY_PATH"] = libDir + (old && *old ? std::string(":") + old : std::string());
  }

  ExitStatus status;
  bool timedOut = false;
  {
    IgnoreInterrupts guard;
    pid_t pid = spawnProcess(o.command, env);
    status = waitWithTimeout(pid, o, &timedOut);
  }
  std::fflush(stdout);

  // How the program ended, in words.
  std::string how = timedOut
                        ? fmt::format("timed out after {:.0f} s and was {}", o.timeout,
                                      status.exited ? "stopped" : "killed by SIG" + signalName(status.signal))
                        : status.describe();
  bool haveStats = std::filesystem::exists(stats);
  if (haveStats && !o.quiet) {
    try {
      std::fputs(trace::formatRunSummary(readJsonFile(stats), overrides).c_str(), stderr);
    } catch (const UsageError& e) {
      std::fprintf(stderr, "npusim run: cannot read the statistics: %s\n", e.what());
    }
  }
  if (haveStats && !o.stats.empty() && !o.quiet) std::fprintf(stderr, "statistics: %s\n", o.stats.c_str());
  if (!o.trace.empty()) {
    TraceState t = closeTrace(o.trace, status.ok() ? "program ended without closing the trace" : how);
    if (t == TraceState::Missing) {
      std::fprintf(stderr, "npusim run: no trace was written to %s\n", o.trace.c_str());
    } else if (!o.quiet) {
      std::fprintf(stderr, "trace: %s%s (open in https://ui.perfetto.dev)\n", o.trace.c_str(),
                   t == TraceState::Closed ? " (cut at the program's end, then closed by npusim)" : "");
    }
  }
  if (timedOut) {
    std::fprintf(stderr, "npusim run: program '%s' %s%s\n", o.command[0].c_str(), how.c_str(),
                 haveStats ? "" : " before writing statistics");
    return kExitTimeout;
  }
  if (!status.ok()) {
    std::fprintf(stderr, "npusim run: program '%s' %s%s\n", o.command[0].c_str(), how.c_str(),
                 haveStats ? "" : " before writing statistics");
    if (status.exited && status.code == 127 && !haveStats)
      std::fprintf(
          stderr,
          "npusim run: exit status 127 usually means a shared library was not found; the program ran "
          "with LD_LIBRARY_PATH=%s (where npusim's libascendcl.so is); check `ldd %s`\n",
          libDir.c_str(), o.command[0].c_str());
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
      "Exit status: the program's own when it fails (128 + signal when it is killed), 124 when --timeout\n"
      "stopped it, else 0. A program that ends abnormally still leaves its trace (closed) and statistics.\n"
      "The summary goes to stderr, after the program's own output.\n"
      "Example: npusim run --set pcie.gen=5 --stats gen5.json -- ./app --size 1024");
  addConfigOptions(*app, o->config);
  app->add_option("--trace,-t", o->trace, "Write a Chrome/Perfetto trace to this file")->type_name("FILE");
  app->add_option("--stats", o->stats, "Keep the statistics JSON in this file (for `npusim compare`)")
      ->type_name("FILE");
  app->add_flag("--quiet,-q", o->quiet, "Print nothing but errors (no summary, no output paths)");
  app->add_option("--timeout", o->timeout,
                  "Stop the program after this many seconds (SIGTERM, then SIGKILL after 10 s); exit 124")
      ->type_name("SECONDS")
      ->check(CLI::NonNegativeNumber);
  addCommandArgument(*app, o->command);
  return {app, [o] { return runProgram(*o); }};
}

}  // namespace npusim::cli
