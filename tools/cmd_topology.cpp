// npusim topology: the PCIe tree the configuration builds, its HCCS links, and which devices can
// reach each other peer-to-peer.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "models/hccs/hccs_topology.h"
#include "models/pcie/fabric.h"
#include "models/platform/platform.h"
#include "runtime/plugins.h"
#include "tools/cli_common.h"
#include "tools/commands.h"

namespace npusim::cli {

namespace {

struct TopologyOptions {
  ConfigOptions config;
  bool asJson = false;
  bool modules = false;
};

// The elaborated SystemC hierarchy: builds the platform (as a program would at aclInit, with
// the plug-ins NPUSIM_PLUGINS lists) and prints every module and socket binding.
int showModules(const Config& cfg) {
  const char* plugins = std::getenv("NPUSIM_PLUGINS");
  if (plugins && *plugins) rt::loadPlugins(plugins);
  trace::TraceWriter trace;  // not opened: no output
  Platform platform(cfg, trace, [](const sched::Task&) {});
  std::printf("SystemC modules of %s (%d devices)\n\n%s", cfg.name().c_str(), platform.deviceCount(),
              platform.describeModules().c_str());
  return kExitOk;
}

int showTopology(const TopologyOptions& o) {
  Config cfg = o.config.load();
  if (o.modules) return showModules(cfg);
  pcie::Fabric fabric(cfg);  // plain objects: no simulation is started
  hccs::Topology hccs(cfg, fabric.deviceCount());
  if (o.asJson) {
    nlohmann::json tree = fabric.describe();
    if (!hccs.empty()) tree["hccs"] = hccs.describe();
    std::puts(tree.dump(2).c_str());
    return kExitOk;
  }
  std::printf("PCIe topology of %s (%d devices)\n\n%s\n", cfg.name().c_str(), fabric.deviceCount(),
              fabric.describeText().c_str());
  if (!hccs.empty()) std::printf("%s\n", hccs.describeText().c_str());
  // Peer-to-peer groups: devices each can reach (same switch, or everywhere as a what-if).
  bool across = cfg.getBool("system.p2p_across_switches");
  std::printf("Peer-to-peer (aclrtDeviceCanAccessPeer):%s%s\n",
              hccs.empty() ? "" : " over HCCS between linked devices (above); over PCIe",
              across ? " all pairs (system.p2p_across_switches=true, a what-if)"
                     : (hccs.empty() ? "" : " between devices under one switch:"));
  if (!across) {
    std::vector<bool> done(static_cast<size_t>(fabric.deviceCount()), false);
    for (int a = 0; a < fabric.deviceCount(); ++a) {
      if (done[static_cast<size_t>(a)]) continue;
      std::vector<int> group = {a};
      for (int b = a + 1; b < fabric.deviceCount(); ++b)
        if (fabric.sameSwitch(a, b)) group.push_back(b), done[static_cast<size_t>(b)] = true;
      std::printf("  NPU %s%s\n", fmt::format("{}", fmt::join(group, ", NPU ")).c_str(),
                  group.size() == 1 ? " (no peer)" : "");
    }
  }
  return kExitOk;
}

}  // namespace

Command addTopologyCommand(CLI::App& parent) {
  auto o = std::make_shared<TopologyOptions>();
  CLI::App* app =
      parent.add_subcommand("topology", "Print the PCIe tree (root complex, switches, devices, links)");
  addConfigOptions(*app, o->config);
  app->add_flag("--json", o->asJson, "Print the tree as JSON");
  app->add_flag("--modules", o->modules,
                "Print the elaborated SystemC module hierarchy with full names and socket bindings");
  return {app, [o] { return showTopology(*o); }};
}

}  // namespace npusim::cli
