#pragma once
// Child processes: the simulated programs npusim runs. Each gets the caller's environment with
// the NPUSIM_* variables replaced, optionally with its output captured in a log file.
#include <sys/types.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace npusim::cli {

struct ExitStatus {
  bool exited = true;  // false: killed by a signal
  int code = 0;        // exit code when exited
  int signal = 0;      // signal number when killed

  bool ok() const { return exited && code == 0; }
  // "exited with status 3", "killed by signal 6 (SIGABRT, Aborted)".
  std::string describe() const;
  // What a shell would report: the code, or 128 + the signal.
  int shellCode() const { return exited ? code : 128 + signal; }
  static ExitStatus fromWaitStatus(int status);
};

// Environment changes: a value sets the variable, nullopt removes it.
using EnvChanges = std::map<std::string, std::optional<std::string>>;

// Starts `argv` (argv[0] is looked up on PATH when it has no '/') with the current environment
// plus `env`. With `logPath`, stdout and stderr go to that file. Throws std::runtime_error when
// the program cannot be started.
pid_t spawnProcess(const std::vector<std::string>& argv, const EnvChanges& env,
                   const std::string& logPath = "");

// Waits for one child; retries on EINTR.
ExitStatus waitProcess(pid_t pid);

// Reaps any finished child: returns its pid, 0 when none has finished (only without `block`), or
// -1 when there are no children.
pid_t reapAnyProcess(ExitStatus* status, bool block);

// Short signal name without "SIG" ("SEGV"), or the number as text.
std::string signalName(int sig);

}  // namespace npusim::cli
