// npusim bandwidth: an nvbandwidth-style matrix of copy bandwidths for the configured system,
// measured by running npusim-bandwidth-probe (an ACL program) on the simulator. A SystemC
// simulation cannot restart in a process, so the measurement is a separate process.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "tools/cli_common.h"
#include "tools/commands.h"
#include "tools/process.h"

namespace npusim::cli {

namespace {

using json = nlohmann::json;

struct BandwidthOptions {
  ConfigOptions config;
  std::string size = "128MiB";
  int repeat = 1;
  bool asJson = false;
};

std::string cell(const json& v) { return v.is_number() ? fmt::format("{:.2f}", v.get<double>()) : "n/a"; }

std::string formatMatrix(const json& r) {
  const int n = r.at("devices").get<int>();
  std::string o;
  auto header = [&](const char* corner) {
    o += fmt::format("{:<12}", corner);
    for (int d = 0; d < n; ++d) o += fmt::format("{:>9}", fmt::format("NPU {}", d));
    o += "\n";
  };
  o += "\nmemcpy host <-> device, and within one device (GB/s)\n";
  header("");
  for (const char* k : {"h2d", "d2h", "d2d"}) {
    std::string label = k == std::string("h2d") ? "H2D" : k == std::string("d2h") ? "D2H" : "D2D local";
    o += fmt::format("{:<12}", label);
    for (int d = 0; d < n; ++d) o += fmt::format("{:>9}", cell(r.at(k).at(d)));
    o += "\n";
  }
  // One matrix per link type: a pair's copy takes its HCCS link when it has one, else PCIe.
  auto linkOf = [&](int s, int d) { return r.at("p2p_link").at(s).at(d).get<std::string>(); };
  bool anyHccs = false, anyPcie = false;
  for (int s = 0; s < n; ++s)
    for (int d = 0; d < n; ++d)
      if (s != d) (linkOf(s, d) == "HCCS" ? anyHccs : anyPcie) = true;
  auto matrix = [&](const std::string& link, const char* title) {
    o += fmt::format(
        "\nmemcpy peer-to-peer{} (GB/s): row = source device (its DMA engine writes), column = "
        "destination\n",
        title);
    header("src \\ dst");
    for (int s = 0; s < n; ++s) {
      o += fmt::format("{:<12}", fmt::format("NPU {}", s));
      for (int d = 0; d < n; ++d)
        o += fmt::format("{:>9}", s == d ? "-" : linkOf(s, d) != link ? "." : cell(r.at("p2p").at(s).at(d)));
      o += "\n";
    }
  };
  if (anyHccs) matrix("HCCS", " over HCCS");
  if (anyPcie) matrix("PCIe", anyHccs ? " over PCIe" : "");
  if (anyHccs && anyPcie) o += ".: the pair's copy takes the other link type\n";
  if (anyPcie)
    o += "n/a: peer access is not possible (no HCCS link, devices under different PCIe switches; what-if: "
         "--set system.p2p_across_switches=true)\n";
  return o;
}

std::string readTail(const std::string& path, size_t maxBytes) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  return s.size() > maxBytes ? "..." + s.substr(s.size() - maxBytes) : s;
}

int measure(const BandwidthOptions& o) {
  Config cfg = o.config.load();
  std::vector<std::string> overrides = describeOverrides(o.config.loadBase(), cfg);
  uint64_t bytes = parseBytes(o.size);
  if (o.repeat < 1) throw UsageError("--repeat must be at least 1");
  std::string probe = findHelper("NPUSIM_BANDWIDTH_PROBE", {selfDirectory() + "/npusim-bandwidth-probe"});
  if (probe.empty())
    throw std::runtime_error("npusim-bandwidth-probe not found next to npusim (set NPUSIM_BANDWIDTH_PROBE)");

  TempDir tmp;
  const std::string out = tmp.path() + "/bandwidth.json", log = tmp.path() + "/probe.log";
  // The probe does not look at the data: timing-only simulation (identical timing) spares
  // touching gigabytes of backing memory. An explicit --set sim.functional wins (it comes later).
  std::string sets = "sim.functional=false";
  if (!o.config.setText().empty()) sets += "," + o.config.setText();
  if (!o.asJson)
    std::fprintf(stderr, "npusim bandwidth: simulating %s copies on %s...\n",
                 formatBytes(double(bytes)).c_str(), cfg.name().c_str());
  auto t0 = std::chrono::steady_clock::now();
  pid_t pid = spawnProcess({probe, std::to_string(bytes), out, std::to_string(o.repeat)},
                           simulationEnv(o.config.configName(), sets, "", ""), log);
  ExitStatus st = waitProcess(pid);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!st.ok() || !std::filesystem::exists(out)) {
    std::fprintf(stderr, "npusim bandwidth: the probe %s; its output:\n%s\n", st.describe().c_str(),
                 readTail(log, 4000).c_str());
    return kExitFailed;
  }
  json r = readJsonFile(out);
  r["config"] = cfg.name();
  r["overrides"] = overrides;
  if (o.asJson) {
    std::puts(r.dump(2).c_str());
    return kExitOk;
  }
  std::printf("npusim bandwidth: %s, %d devices, %s per copy, %d cop%s per measurement, one at a time\n",
              cfg.name().c_str(), r.at("devices").get<int>(), formatBytes(double(bytes)).c_str(), o.repeat,
              o.repeat == 1 ? "y" : "ies");
  for (const auto& line : overrides) std::printf("  override %s\n", line.c_str());
  std::printf("GB/s = 1e9 bytes per second of simulated time, timed with events on the copying stream\n");
  std::fputs(formatMatrix(r).c_str(), stdout);
  std::fprintf(stderr, "(simulated in %.1f s)\n", wall);
  return kExitOk;
}

}  // namespace

Command addBandwidthCommand(CLI::App& parent) {
  auto o = std::make_shared<BandwidthOptions>();
  CLI::App* app = parent.add_subcommand(
      "bandwidth",
      "Measure copy bandwidths of the configured system: H2D, D2H and D2D per device, P2P per pair and link "
      "type (HCCS, PCIe)");
  app->footer(
      "Every cell is one aclrtMemcpyAsync (or --repeat back-to-back copies) timed with "
      "aclrtEventElapsedTime;\nP2P uses aclrtDeviceEnablePeerAccess. Nothing else runs at the same time.");
  addConfigOptions(*app, o->config);
  app->add_option("--size", o->size, "Bytes per copy (suffixes KiB, MiB, GiB; KB, MB, GB)")
      ->capture_default_str()
      ->type_name("BYTES");
  app->add_option("--repeat", o->repeat, "Back-to-back copies per measurement")->capture_default_str();
  app->add_flag("--json", o->asJson, "Print JSON (null where peer access is not possible)");
  return {app, [o] { return measure(*o); }};
}

}  // namespace npusim::cli
