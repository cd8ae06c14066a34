#include "models/platform/platform.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <stdexcept>

#include "models/common/sim_time.h"
#include "models/platform/memory_targets.h"

namespace npusim {

using json = nlohmann::json;

namespace {

// The root of the hierarchy: modules are children of the module whose constructor creates
// them, so everything is built inside this constructor.
struct Top : sc_core::sc_module {
  Top(sc_core::sc_module_name name, const std::function<void()>& build) : sc_module(name) { build(); }
};

// SC_REPORT errors and fatals raised while a plug-in builds its model become exceptions (the
// default actions would abort the process), so they fail aclInit like a thrown error.
class ReportsThrow {
 public:
  ReportsThrow()
      : error_(sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_THROW)),
        fatal_(sc_core::sc_report_handler::set_actions(sc_core::SC_FATAL, sc_core::SC_THROW)) {}
  ~ReportsThrow() {
    sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, error_);
    sc_core::sc_report_handler::set_actions(sc_core::SC_FATAL, fatal_);
  }
  ReportsThrow(const ReportsThrow&) = delete;
  ReportsThrow& operator=(const ReportsThrow&) = delete;

 private:
  sc_core::sc_actions error_, fatal_;
};

}  // namespace

// Contract v1: the factory's socket, bound straight to the memory bus.
tlm::tlm_target_socket<>* Device::buildPluginTarget(const RegisteredMemoryModel& m,
                                                    const std::string& model) {
  tlm::tlm_target_socket<>* target = nullptr;
  try {
    ReportsThrow guard;
    target = m.factory(fmt::format("hbm{}", id), id);
  } catch (const std::exception& e) {
    throw ConfigError(
        fmt::format("hbm.model '{}': the factory failed for device {}: {}", model, id, e.what()));
  }
  if (!target)
    throw ConfigError(fmt::format("hbm.model '{}': the factory returned no socket for device {}", model, id));
  return target;
}

// Contract v2: a PluginPort in front of the model, which the binder binds to its socket.
tlm::tlm_target_socket<>* Device::bindPluginModel(const RegisteredMemoryModel& m, const std::string& model,
                                                  const Config& cfg) {
  MemoryTargetInfo info;
  info.instanceName = fmt::format("hbm{}", id);
  info.device = id;
  info.capacityBytes = static_cast<uint64_t>(cfg.getInt("hbm.capacity_bytes"));
  info.maxTransactionBytes = static_cast<uint32_t>(cfg.getInt("hbm.plugin_max_bytes"));
  const size_t n = std::strlen(kPluginPrefix);
  for (const auto& [key, p] : cfg.params())
    if (key.compare(0, n, kPluginPrefix) == 0) info.params[key.substr(n)] = p.value.get<std::string>();
  plugin = std::make_unique<PluginPort>("plugin_port", m.protocol, info.maxTransactionBytes);
  try {
    ReportsThrow guard;
    m.binder(plugin->out, info);
  } catch (const std::exception& e) {
    throw ConfigError(
        fmt::format("hbm.model '{}': building the model of device {} failed: {}", model, id, e.what()));
  }
  if (plugin->out.bind_count() == 0)
    throw ConfigError(
        fmt::format("hbm.model '{}': the binder did not bind npusim's socket for device {}", model, id));
  return &plugin->in;
}

Device::Device(sc_core::sc_module_name name, int id_, const Config& cfg, trace::TraceWriter& trace, int pid,
               sched::StreamScheduler::CompletionHook hook, const std::vector<int>& hccsPeers)
    : sc_module(name), id(id_), tracePid(pid) {
  const std::string model = cfg.getString("hbm.model");
  tlm::tlm_target_socket<>* target = nullptr;
  if (model == kBuiltinMemoryModel) {
    hbm = std::make_unique<HbmTarget>("hbm", hbmParamsFromConfig(cfg),
                                      static_cast<int>(cfg.getInt("hbm.queue_depth")));
    target = &hbm->socket;
    memoryTarget = hbm->socket.name();
  } else {
    const RegisteredMemoryModel* m = findMemoryModel(model);
    if (!m) {
      auto names = memoryModelNames();
      throw ConfigError(
          fmt::format("hbm.model: no memory model '{}' is registered (known: {}{}{}); load its "
                      "plug-in with NPUSIM_PLUGINS",
                      model, kBuiltinMemoryModel, names.empty() ? "" : ", ", fmt::join(names, ", ")));
    }
    target = m->binder ? bindPluginModel(*m, model, cfg) : buildPluginTarget(*m, model);
    memoryTarget = target->name();
  }
  bus = std::make_unique<MemoryBus>("mem_bus");
  bus->out.bind(*target);
  dma = std::make_unique<dma::DmaEngine>("dma", id, cfg, trace, pid, hccsPeers);
  cores = std::make_unique<aicore::AiCoreCluster>("aicore", id, cfg, trace, pid);
  dma->hbm.socket.bind(bus->in);
  cores->mte.socket.bind(bus->in);
  // An approximately-timed model is fed by initiators that keep their accesses in flight at once.
  const bool at = plugin && findMemoryModel(model)->protocol == Protocol::ApproximatelyTimed;
  dma->hbm.setApproximatelyTimed(at);
  cores->mte.setApproximatelyTimed(at);
  sched =
      std::make_unique<sched::StreamScheduler>("sched", id, cfg, *dma, *cores, trace, pid, std::move(hook));
}

Platform::Platform(const Config& cfg, trace::TraceWriter& trace, sched::StreamScheduler::CompletionHook hook)
    : cfg_(cfg), trace_(trace) {
  Tick window = nsToTick(static_cast<double>(cfg_.getInt("trace.counter_window_ns")));
  // The window follows the trace level: the configured one with every burst, 10x at task level.
  if (!trace_.wants(trace::Level::Transaction)) window *= 10;
  counterWindow_ = window;
  hbmCapacity_ = hbmParamsFromConfig(cfg_).capacityBytes;
  // Ticks are picoseconds, taken as sc_time values as they are (models/common/sim_time.h).
  if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
    throw std::runtime_error("the SystemC time resolution must be 1 ps (something set it to " +
                             sc_core::sc_get_time_resolution().to_string() + ")");
  tlm::tlm_global_quantum::instance().set(toScTime(nsToTick(cfg_.getFloat("sim.quantum_ns"))));
  top_ = std::make_unique<Top>("npusim", [&] {
    pcie_ = std::make_unique<pcie::PcieModule>("pcie", cfg_);
    const int n = pcie_->fabric().deviceCount();
    hccsTopology_ = std::make_unique<hccs::Topology>(cfg_, n);
    if (!hccsTopology_->empty()) hccs_ = std::make_unique<hccs::HccsModule>("hccs", *hccsTopology_);
    for (int d = 0; d < n; ++d) {
      int pid = trace_.process(fmt::format("NPU {}", d), d + 1);
      devices_.push_back(std::make_unique<Device>(fmt::format("npu{}", d).c_str(), d, cfg_, trace_, pid, hook,
                                                  hccsTopology_->peersOf(d)));
    }
    for (auto& dev : devices_) {
      dev->dma->pcie.socket.bind(pcie_->endpoint(dev->id).dma);
      pcie_->endpoint(dev->id).memory.bind(dev->bus->in);
      if (dev->dma->hccs()) dev->dma->hccs()->socket.bind(hccs_->port(dev->id)->from_dma);
    }
    if (hccs_)
      for (auto& link : hccs_->links()) {
        link->to_a.bind(device(link->spec().a).bus->in);
        link->to_b.bind(device(link->spec().b).bus->in);
      }
  });
  for (auto& dev : devices_) {
    const std::string np = dev->name();
    bindings_.push_back({np + ".dma.hbm", np + ".mem_bus.in"});
    bindings_.push_back({np + ".aicore.mte", np + ".mem_bus.in"});
    pcie::Endpoint& e = pcie_->endpoint(dev->id);
    bindings_.push_back({np + ".dma.pcie", e.dma.name()});
    bindings_.push_back({e.memory.name(), np + ".mem_bus.in"});
    bindings_.push_back({np + ".mem_bus.out", dev->memoryTarget});
  }
  for (const auto& b : pcie_->bindings()) bindings_.push_back({b.from, b.to});
  if (hccs_) {
    for (auto& dev : devices_)
      if (dev->dma->hccs())
        bindings_.push_back({dev->dma->hccs()->socket.name(), hccs_->port(dev->id)->from_dma.name()});
    for (const auto& b : hccs_->bindings()) bindings_.push_back({b.from, b.to});
    for (auto& link : hccs_->links()) {
      bindings_.push_back({link->to_a.name(), device(link->spec().a).name() + std::string(".mem_bus.in")});
      bindings_.push_back({link->to_b.name(), device(link->spec().b).name() + std::string(".mem_bus.in")});
    }
  }

  auto counter = [&](int pid, std::vector<std::string> names, double peakBytesPerSec) {
    counters_.push_back(
        std::make_unique<trace::BandwidthCounter>(&trace_, pid, std::move(names), window, peakBytesPerSec));
    return counters_.back().get();
  };
  if (trace_.wants(trace::Level::Task)) {
    auto links = fabric().deviceLinks();
    for (auto& dev : devices_) {
      // Reads and writes share the device's data bus: one counter, two tracks, one peak (none
      // known for a plug-in memory model).
      dev->bus->setCounter(counter(dev->tracePid, {"HBM read GB/s", "HBM write GB/s"},
                                   dev->hbm ? dev->hbm->model.peakBytesPerSec() : 0.0));
      auto* link = const_cast<pcie::Link*>(links[static_cast<size_t>(dev->id)]);
      link->up.setCounter(counter(dev->tracePid, {"PCIe up GB/s"}, link->up.bytesPerSec()));
      link->down.setCounter(counter(dev->tracePid, {"PCIe down GB/s"}, link->down.bytesPerSec()));
    }
    // Each HCCS link direction in the process of the device that sends on it.
    if (hccs_)
      for (auto& link : hccs_->links())
        for (int from : {link->spec().a, link->spec().b}) {
          Channel& ch = link->direction(from);
          const int to = from == link->spec().a ? link->spec().b : link->spec().a;
          ch.setCounter(
              counter(device(from).tracePid, {fmt::format("HCCS to NPU {} GB/s", to)}, ch.bytesPerSec()));
        }
    // Switch uplinks and root ports: counters in a fabric process.
    int fabricPid = trace_.process("PCIe fabric", deviceCount() + 1);
    for (Channel* ch : fabric().channels())
      if (!ch->counter()) ch->setCounter(counter(fabricPid, {ch->name() + " GB/s"}, ch->bytesPerSec()));
  }
  std::vector<int> pids;
  for (auto& dev : devices_) pids.push_back(dev->tracePid);
  for (auto& dev : devices_) dev->dma->setDevicePids(pids);
}

Platform::~Platform() = default;

void Platform::endThreads() {
  for (auto& d : devices_) d->sched->endThreads();
}

void Platform::setAddressSpace(int d, const DeviceAddressSpace& s) {
  Device& dev = device(d);
  dev.dma->hbm.setAddressSpace(s);
  dev.cores->mte.setAddressSpace(s);
}

std::string Platform::describeModules() const {
  std::string out;
  std::function<void(const sc_core::sc_object*, int)> walk = [&](const sc_core::sc_object* o, int depth) {
    const auto* m = dynamic_cast<const sc_core::sc_module*>(o);
    if (m) {
      out +=
          fmt::format("{}{} ({})\n", std::string(static_cast<size_t>(depth) * 2, ' '), o->name(), o->kind());
      for (const auto* c : o->get_child_objects()) {
        if (dynamic_cast<const sc_core::sc_module*>(c)) continue;
        const std::string cn = c->name();
        std::vector<std::string> to;
        for (const Binding& b : bindings_) {
          if (b.from == cn) to.push_back("-> " + b.to);
          if (b.to == cn) to.push_back("<- " + b.from);
        }
        if (to.empty()) continue;  // sockets' internal ports and exports
        out += fmt::format("{}  socket {} {}\n", std::string(static_cast<size_t>(depth) * 2, ' '), cn,
                           fmt::join(to, ", "));
      }
    }
    for (const auto* c : o->get_child_objects())
      if (dynamic_cast<const sc_core::sc_module*>(c)) walk(c, depth + 1);
  };
  walk(top_.get(), 0);
  return out;
}

void Platform::flushCounters(Tick now) {
  // Flush in fixed slices of simulated time, every counter per slice, so the trace bytes do
  // not depend on where the kernel happened to stop (deterministic with several host threads).
  const Tick slice = 100 * counterWindow_;
  for (Tick next = (flushedUpTo_ / slice + 1) * slice; next <= now; next += slice) {
    for (auto& c : counters_) c->flushBefore(next);
    flushedUpTo_ = next;
  }
}

void Platform::flushAllCounters() {
  for (auto& c : counters_) c->flushAll();
}

namespace {
json channelJson(const Channel& c, Tick now) {
  double secs = tickToSec(now);
  return {{"busy_us", tickToUs(c.busyTicks())},
          {"utilisation", now ? static_cast<double>(c.busyTicks()) / static_cast<double>(now) : 0.0},
          {"payload_bytes", c.payloadBytes()},
          {"wire_bytes", c.wireBytes()},
          {"avg_payload_GBps", secs > 0 ? static_cast<double>(c.payloadBytes()) / secs / 1e9 : 0.0},
          {"peak_GBps", c.bytesPerSec() / 1e9}};
}
}  // namespace

json Platform::statistics(Tick now) const {
  json out = json::object();
  out["sim_time_us"] = tickToUs(now);
  json links = json::object();
  for (Channel* ch : pcie_->fabric().channels()) links[ch->name()] = channelJson(*ch, now);
  links[pcie_->fabric().hostMemory().name()] = channelJson(pcie_->fabric().hostMemory(), now);
  out["pcie"] = links;
  if (hccs_) {
    json h = json::object();
    for (auto& link : hccs_->links())
      for (int from : {link->spec().a, link->spec().b})
        h[link->direction(from).name()] = channelJson(link->direction(from), now);
    out["hccs"] = h;
  }
  json devs = json::array();
  for (const auto& d : devices_) {
    json dj = {{"id", d->id}};
    json chans = json::array();
    for (int c = 0; c < d->dma->channels(); ++c) {
      const auto& s = d->dma->stats(c);
      chans.push_back(
          {{"channel", c},
           {"copies", s.copies},
           {"bytes", s.bytes},
           {"busy_us", tickToUs(s.busy)},
           {"achieved_GBps", s.busy ? static_cast<double>(s.bytes) / tickToSec(s.busy) / 1e9 : 0.0},
           {"peak_GBps", cfg_.getFloat("dma.channel_gbps")}});
    }
    dj["dma"] = chans;
    if (d->hbm) {
      const HbmStats& hs = d->hbm->model.stats();
      Tick hbmBusy = 0;
      for (Tick b : hs.busyPerPc) hbmBusy += b;
      double pcs = hs.busyPerPc.empty() ? 1.0 : static_cast<double>(hs.busyPerPc.size());
      dj["hbm"] = {{"bytes_read", hs.bytesRead},
                   {"bytes_written", hs.bytesWritten},
                   {"row_hit_rate", hs.rowHitRate()},
                   {"refreshes", d->hbm->model.refreshesBefore(now)},
                   {"refresh_stalls", hs.refreshStalls},
                   {"peak_GBps", d->hbm->model.peakBytesPerSec() / 1e9},
                   {"pseudo_channels", hs.busyPerPc.size()},
                   {"utilisation", now ? tickToSec(hbmBusy) / pcs / tickToSec(now) : 0.0}};
    } else {  // a plug-in memory model: what crossed the memory bus (its own state is its own)
      const uint64_t bytes = d->bus->bytesRead() + d->bus->bytesWritten();
      dj["hbm"] = {{"bytes_read", d->bus->bytesRead()},
                   {"bytes_written", d->bus->bytesWritten()},
                   {"accesses", d->bus->accesses()},
                   {"achieved_GBps", now ? static_cast<double>(bytes) / tickToSec(now) / 1e9 : 0.0},
                   {"model", cfg_.getString("hbm.model")}};
      if (d->plugin) dj["hbm"]["model_transactions"] = d->plugin->pieces();
    }
    // Cube and vector cores separately: an operator uses one kind, so one figure over all cores
    // would understate how busy the kind in use was.
    const auto& cs = d->cores->stats();
    auto coreKind = [&](size_t first, size_t count) {
      Tick busy = 0;
      uint64_t tiles = 0, used = 0;
      for (size_t i = first; i < first + count && i < cs.size(); ++i)
        busy += cs[i].busy, tiles += cs[i].tiles, used += cs[i].tiles ? 1 : 0;
      return json{{"cores", count},
                  {"cores_used", used},
                  {"tiles", tiles},
                  {"busy_us", tickToUs(busy)},
                  {"utilisation",
                   now && count ? tickToSec(busy) / static_cast<double>(count) / tickToSec(now) : 0.0}};
    };
    const auto cube = static_cast<size_t>(d->cores->cubeCores()),
               vec = static_cast<size_t>(d->cores->vectorCores());
    json cubeJ = coreKind(0, cube), vecJ = coreKind(cube, vec);
    dj["aicore"] = {
        {"tiles", cubeJ["tiles"].get<uint64_t>() + vecJ["tiles"].get<uint64_t>()},
        {"busy_us", cubeJ["busy_us"].get<double>() + vecJ["busy_us"].get<double>()},
        {"utilisation", std::max(cubeJ["utilisation"].get<double>(), vecJ["utilisation"].get<double>())},
        {"cube", cubeJ},
        {"vector", vecJ}};
    devs.push_back(dj);
  }
  out["devices"] = devs;
  out["topology"] = pcie_->fabric().describe();
  return out;
}

}  // namespace npusim
