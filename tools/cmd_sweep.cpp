// npusim sweep: runs a program at every point of a parameter grid, in parallel processes on this
// machine or on an existing Dask cluster (scripts/sweep), and writes one row per point.
#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <thread>

#include "tools/cli_common.h"
#include "tools/commands.h"
#include "tools/key_statistics.h"
#include "tools/process.h"
#include "tools/progress.h"
#include "tools/sweep_grid.h"
#include "tools/sweep_results.h"

namespace npusim::cli {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

struct SweepOptions {
  ConfigOptions config;  // config.sets holds the axes
  std::vector<std::string> command;
  unsigned jobs = 0;
  std::string out = "npusim-sweep";
  std::string dask;
  bool trace = false;
  double timeout = 0;
  std::vector<std::string> zips;     // axes that vary together
  std::vector<std::string> args;     // NAME=v1,v2: {NAME} in the program's arguments
  std::vector<std::string> metrics;  // NAME=REGEX
  std::string basePreset;            // the configuration when the preset is not swept
};

volatile sig_atomic_t g_interrupted = 0;
extern "C" void onInterrupt(int) { g_interrupted = 1; }

// Every value of every axis, then every point, is validated before anything runs.
std::vector<PointResult> preparePoints(const SweepOptions& o, const std::vector<SweepAxis>& axes,
                                       const std::string& dir) {
  const std::string name = o.basePreset;
  for (const auto& a : axes) {
    for (const auto& v : a.values) {
      try {
        if (a.key == kPresetAxis)
          Config::load(v, {});
        else if (isConfigAxis(a.key))
          Config::load(name, {a.key + "=" + v});
      } catch (const ConfigError& e) {
        throw UsageError(e.what());
      }
    }
  }
  std::vector<PointResult> results;
  for (const auto& p : expandGrid(axes)) {
    PointResult r;
    r.point = p;
    try {
      Config cfg = Config::load(p.preset(name), {p.setText()});
      r.typedParams = json::object();
      for (const auto& [k, v] : p.params)
        r.typedParams[k] = isConfigAxis(k) ? cfg.params().at(k).value : json(v);
    } catch (const ConfigError& e) {
      throw UsageError(fmt::format("point {} ({}): {}", p.index, p.label(), e.what()));
    }
    std::string stem = fmt::format("{}/points/{:03d}", dir, p.index);
    r.statsPath = stem + ".stats.json";
    r.logPath = stem + ".log";
    if (o.trace) r.tracePath = stem + ".trace.json";
    results.push_back(r);
  }
  return results;
}

std::string finishedLine(const PointResult& r) {
  std::string s = fmt::format("point {} {}: {}", r.point.index, r.point.label(), r.statusText());
  if (r.stats) s += fmt::format(", simulated {:.3f} us", keyStatistics(*r.stats).simTimeUs);
  s += fmt::format(" ({:.2f} s)", r.wallSeconds);
  if (!r.ok()) s += " - log: " + r.logPath;
  return s;
}

void runLocal(const SweepOptions& o, size_t jobs, const std::vector<std::string>& argv,
              const std::vector<MetricPattern>& patterns, std::vector<PointResult>& results) {
  struct Running {
    size_t index;
    Clock::time_point start;
    bool killed = false;
  };
  std::map<pid_t, Running> running;
  Progress progress(results.size(), stderr);
  struct sigaction sa {
  }, oldInt{};
  sa.sa_handler = onInterrupt;
  sigaction(SIGINT, &sa, &oldInt);
  g_interrupted = 0;

  size_t next = 0, idle = 0;
  while (true) {
    // Ctrl-C reaches the running programs too (same process group); no new point starts.
    while (!g_interrupted && next < results.size() && running.size() < jobs) {
      PointResult& r = results[next];
      std::error_code ec;
      fs::remove(r.statsPath, ec);
      r.ran = true;
      try {
        pid_t pid = spawnProcess(
            r.point.argv(argv),
            simulationEnv(r.point.preset(o.basePreset), r.point.setText(), r.statsPath, r.tracePath),
            r.logPath);
        running[pid] = {next, Clock::now()};
      } catch (const std::exception& e) {
        r.error = e.what();
        progress.finished(finishedLine(r), true, running.size());
      }
      ++next;
      progress.update(running.size());
    }
    if (running.empty()) break;
    ExitStatus st;
    pid_t pid = reapAnyProcess(&st, false);
    if (pid < 0) break;
    if (pid == 0) {
      if (o.timeout > 0) {
        // SIGTERM first: the runtime then writes the point's trace and statistics so far.
        for (auto& [p, run] : running) {
          const double s = std::chrono::duration<double>(Clock::now() - run.start).count();
          if (!run.killed && s > o.timeout) {
            kill(p, SIGTERM);
            run.killed = true;
          } else if (run.killed && s > o.timeout + 10) {
            kill(p, SIGKILL);
          }
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      if (++idle % 50 == 0) progress.update(running.size());  // keep the elapsed time moving
      continue;
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;
    PointResult& r = results[it->second.index];
    r.status = st;
    r.wallSeconds = std::chrono::duration<double>(Clock::now() - it->second.start).count();
    if (it->second.killed) r.error = fmt::format("timed out after {:.0f} s (stopped)", o.timeout);
    running.erase(it);
    loadPointStats(r);
    loadPointMetrics(r, patterns);
    progress.finished(finishedLine(r), !r.ok(), running.size());
  }
  sigaction(SIGINT, &oldInt, nullptr);
  progress.done();
}

void runDask(const SweepOptions& o, const std::vector<std::string>& argv, const std::string& dir,
             const std::vector<MetricPattern>& patterns, std::vector<PointResult>& results) {
  const std::string self = selfDirectory();
  std::string script = findHelper("NPUSIM_SWEEP_SCRIPT", {self + "/../share/npusim/scripts/sweep",
                                                          std::string(NPUSIM_SOURCE_DIR) + "/scripts/sweep"});
  if (script.empty()) throw std::runtime_error("scripts/sweep not found (set NPUSIM_SWEEP_SCRIPT)");
  // Workers may be other machines: paths are absolute and the program, its libraries and any
  // --config file must be at the same paths there (a shared file system or identical installs).
  std::string config = o.basePreset;
  if (!o.config.file.empty()) config = fs::absolute(o.config.file).string();
  json points = json::array();
  for (auto& r : results) {
    r.ran = true;
    points.push_back({{"index", r.point.index},
                      {"label", r.point.label()},
                      {"argv", r.point.argv(argv)},
                      {"env", {{"NPUSIM_CONFIG", r.point.preset(config)}, {"NPUSIM_SET", r.point.setText()}}},
                      {"stats_file", fs::absolute(r.statsPath).string()},
                      {"log_file", fs::absolute(r.logPath).string()},
                      {"trace_file", r.tracePath.empty() ? "" : fs::absolute(r.tracePath).string()}});
  }
  json plan = {{"cwd", fs::current_path().string()}, {"timeout_s", o.timeout}, {"points", points}};
  const std::string planPath = dir + "/dask_plan.json", resultsPath = dir + "/dask_results.json";
  writeTextFile(planPath, plan.dump(1) + "\n");
  std::error_code ec;
  fs::remove(resultsPath, ec);
  for (auto& r : results) fs::remove(r.statsPath, ec);

  pid_t pid = spawnProcess({script, "--scheduler", o.dask, "--plan", planPath, "--results", resultsPath}, {});
  ExitStatus st = waitProcess(pid);
  if (!fs::exists(resultsPath))
    throw std::runtime_error(fmt::format("the Dask runner {} {} without results", script, st.describe()));
  json got = readJsonFile(resultsPath);
  std::map<int, json> byIndex;
  for (const auto& g : got.value("points", json::array())) byIndex[g.value("index", -1)] = g;
  for (auto& r : results) {
    auto it = byIndex.find(r.point.index);
    if (it == byIndex.end()) {
      r.ran = false;
      continue;
    }
    const json& g = it->second;
    auto field = [&g](const char* k) { return g.contains(k) ? g[k] : json(); };
    if (field("signal").is_number()) {
      r.status.exited = false;
      r.status.signal = field("signal").get<int>();
    } else {
      r.status.exited = true;
      r.status.code = field("exit_code").is_number() ? field("exit_code").get<int>() : 0;
    }
    if (field("error").is_string()) r.error = field("error").get<std::string>();
    if (field("wall_s").is_number()) r.wallSeconds = field("wall_s").get<double>();
    if (field("worker").is_string()) r.worker = field("worker").get<std::string>();
    loadPointStats(r);
    loadPointMetrics(r, patterns);
  }
}

int sweep(SweepOptions o) {
  // Axes: the presets (slowest), the --set axes, the zipped ones (one group), the program's arguments.
  std::vector<SweepAxis> axes;
  std::vector<std::string> presets = Config::splitOverrides(o.config.preset);
  if (presets.size() > 1) {
    if (!o.config.file.empty())
      throw UsageError("--preset with several presets cannot be combined with --config");
    axes.push_back({kPresetAxis, presets, -1});
    o.config.preset = presets[0];
  }
  o.basePreset = o.config.configName();
  for (auto* list : {&o.config.sets, &o.zips, &o.args}) {
    auto more = parseAxes(*list, list == &o.zips ? 0 : -1, list == &o.args ? kArgAxisPrefix : "");
    axes.insert(axes.end(), more.begin(), more.end());
  }
  checkAxes(axes);
  if (axes.empty())
    throw UsageError("give at least one axis to sweep: --set key=v1,v2,..., --zip, --arg or --preset a,b");
  for (const auto& a : axes) {
    if (a.key.rfind(kArgAxisPrefix, 0) != 0) continue;
    const std::string placeholder = "{" + a.key.substr(std::string(kArgAxisPrefix).size()) + "}";
    bool used = false;
    for (size_t i = 1; i < o.command.size(); ++i) used |= o.command[i].find(placeholder) != std::string::npos;
    if (!used)
      throw UsageError(
          fmt::format("--arg {}: the program's arguments have no {}", a.key.substr(4), placeholder));
  }
  std::vector<MetricPattern> patterns;
  for (const auto& m : o.metrics) patterns.push_back(parseMetricPattern(m));
  o.config.sets.clear();
  o.config.loadBase();  // the preset or file itself
  std::vector<PointResult> results = preparePoints(o, axes, o.out);
  std::string program = resolveProgram(o.command[0]);
  if (program.empty())
    throw UsageError(fmt::format("program '{}' not found or not executable", o.command[0]));
  std::vector<std::string> argv = o.command;
  argv[0] = program;

  std::error_code ec;
  fs::create_directories(o.out + "/points", ec);
  if (ec) throw std::runtime_error(fmt::format("cannot create '{}': {}", o.out, ec.message()));
  const unsigned jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  SweepInfo info{o.command, o.basePreset, axes,
                 o.dask.empty() ? fmt::format("local, {} jobs", jobs) : "dask " + o.dask};
  std::fprintf(stderr, "npusim sweep: %zu points of %s, %s\n", results.size(), o.command[0].c_str(),
               info.runner.c_str());
  if (o.dask.empty())
    runLocal(o, jobs, argv, patterns, results);
  else
    runDask(o, argv, o.out, patterns, results);
  auto files = writeSweepOutputs(o.out, info, results);
  std::fputs(formatSweepTable(info, results).c_str(), stdout);
  size_t failed = 0;
  for (const auto& r : results) failed += r.ok() ? 0 : 1;
  std::printf("%zu points, %zu ok, %zu failed -> %s, %s\n", results.size(), results.size() - failed, failed,
              files[0].c_str(), files[1].c_str());
  return failed ? kExitFailed : kExitOk;
}

}  // namespace

Command addSweepCommand(CLI::App& parent) {
  auto o = std::make_shared<SweepOptions>();
  CLI::App* app = parent.add_subcommand(
      "sweep",
      "Run a program at every point of a parameter grid, in parallel, one row per point to CSV and JSON");
  app->footer(
      "Example: npusim sweep --set pcie.gen=3,4,5 --set hbm.stacks=2,4 --out gen-study -- ./app\n"
      "         npusim sweep --preset 910b,910b-gen5 --arg size=1MiB,64MiB -- ./app --bytes {size}\n"
      "         npusim sweep --zip pcie.gen=3,4,5 --zip pcie.read_completion_bytes=64,128,256 -- ./app\n"
      "Writes OUT/sweep.csv, OUT/sweep.json and OUT/points/NNN.{stats.json,log}; plot with scripts/plot.\n"
      "Every value is validated before anything runs. A failing point is recorded, the others still run;\n"
      "the exit status is 1 when any point failed. --dask sends the points to an existing Dask cluster\n"
      "(python3-distributed); workers must see the program at the same path.");
  addConfigOptions(*app, o->config,
                   "A parameter and its values, key=v1,v2,... (repeatable; the grid is the cartesian product;"
                   " one value fixes a parameter)");
  app->add_option("--jobs,-j", o->jobs, "Parallel processes (default: the number of CPUs)");
  app->add_option("--out,-o", o->out, "Output directory")->capture_default_str();
  app->add_option("--dask", o->dask, "Run the points on this Dask scheduler (tcp://host:port)")
      ->type_name("ADDRESS");
  app->add_flag("--trace", o->trace, "Also write a trace per point (OUT/points/NNN.trace.json)");
  app->add_option("--timeout", o->timeout, "Kill a point after this many seconds (0: no limit)")
      ->capture_default_str();
  app->add_option(
         "--zip", o->zips,
         "key=v1,v2,...: axes given with --zip vary together (the i-th values form one step; each needs "
         "as many values)")
      ->allow_extra_args(false)
      ->type_name("KEY=VALUES");
  app->add_option(
         "--arg", o->args,
         "NAME=v1,v2,...: an axis of the program's own arguments; {NAME} in them is replaced per point")
      ->allow_extra_args(false)
      ->type_name("NAME=VALUES");
  app->add_option("--metric", o->metrics,
                  "NAME=REGEX: a column from the program's output (the regex's first group). Lines "
                  "'NPUSIM_METRIC name=value' become columns without this option")
      ->allow_extra_args(false)
      ->type_name("NAME=REGEX");
  addCommandArgument(*app, o->command);
  return {app, [o] { return sweep(*o); }};  // sweep() works on a copy
}

}  // namespace npusim::cli
