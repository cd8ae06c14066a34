#include "tools/process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace npusim::cli {

std::string signalName(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? abbrev : std::to_string(sig);
}

std::string ExitStatus::describe() const {
  if (exited) return fmt::format("exited with status {}", code);
  const char* what = strsignal(signal);
  return fmt::format("killed by signal {} (SIG{}{}{})", signal, signalName(signal), what ? ", " : "",
                     what ? what : "");
}

ExitStatus ExitStatus::fromWaitStatus(int status) {
  ExitStatus s;
  if (WIFEXITED(status)) {
    s.exited = true;
    s.code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    s.exited = false;
    s.signal = WTERMSIG(status);
  }
  return s;
}

pid_t spawnProcess(const std::vector<std::string>& argv, const EnvChanges& env, const std::string& logPath) {
  if (argv.empty()) throw std::runtime_error("no program to run");
  // The environment: ours, minus the variables being changed, plus the new values.
  std::vector<std::string> envStrings;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    std::string key = kv.substr(0, kv.find('='));
    if (!env.count(key)) envStrings.push_back(kv);
  }
  for (const auto& [k, v] : env)
    if (v) envStrings.push_back(k + "=" + *v);
  std::vector<char*> envp, args;
  for (auto& s : envStrings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argvCopy = argv;
  for (auto& s : argvCopy) args.push_back(s.data());
  args.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!logPath.empty()) {
    posix_spawn_file_actions_addopen(&actions, 1, logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
  }
  // The child starts with default signal actions even when npusim ignores Ctrl-C while it waits.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int sig : {SIGINT, SIGQUIT, SIGPIPE}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), envp.data());
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error(fmt::format("cannot run '{}': {}", argv[0], std::strerror(rc)));
  return pid;
}

ExitStatus waitProcess(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error(fmt::format("waitpid: {}", std::strerror(errno)));
  }
  return ExitStatus::fromWaitStatus(status);
}

pid_t reapAnyProcess(ExitStatus* status, bool block) {
  int st = 0;
  pid_t pid;
  while ((pid = waitpid(-1, &st, block ? 0 : WNOHANG)) < 0) {
    if (errno == ECHILD) return -1;
    if (errno != EINTR) throw std::runtime_error(fmt::format("waitpid: {}", std::strerror(errno)));
  }
  if (pid > 0) *status = ExitStatus::fromWaitStatus(st);
  return pid;
}

}  // namespace npusim::cli
