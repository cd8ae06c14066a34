#include "models/platform/platform.h"

#include <fmt/format.h>

#include <algorithm>

namespace npusim {

using json = nlohmann::json;

HbmPort::HbmPort(const HbmParams& p, trace::TraceWriter& trace, int pid, Tick window) : model(p) {
  // Reads and writes share the device's data bus: one counter, two tracks, one peak.
  if (trace.wants(trace::Level::Task))
    counter_ = std::make_unique<trace::BandwidthCounter>(
        &trace, pid, std::vector<std::string>{"HBM read GB/s", "HBM write GB/s"}, window, model.peakBytesPerSec());
}

Tick HbmPort::access(uint64_t addr, uint64_t bytes, bool write, Tick arrival) {
  Tick done = model.access(addr, bytes, write, arrival);
  if (bytes && counter_) {
    // The access occupies the memory from its arrival until it is done; the counter caps what
    // read + write show at the peak and moves any excess to the next window.
    counter_->add(arrival, std::max(done, arrival + 1), bytes, write ? 1 : 0);
  }
  return done;
}

void HbmPort::flushBefore(Tick t) {
  if (counter_) counter_->flushBefore(t);
}
void HbmPort::flushAll() {
  if (counter_) counter_->flushAll();
}

Platform::Platform(const Config& cfg, trace::TraceWriter& trace, sched::StreamScheduler::CompletionHook hook)
    : cfg_(cfg), trace_(trace) {
  fabric_ = std::make_unique<pcie::Fabric>(cfg_);
  Tick window = nsToTick(static_cast<double>(cfg_.getInt("trace.counter_window_ns")));
  // The window follows the trace level: the configured one with every burst, 10x at task level.
  if (!trace_.wants(trace::Level::Transaction)) window *= 10;
  counterWindow_ = window;
  HbmParams hp = hbmParamsFromConfig(cfg_);
  hbmCapacity_ = hp.capacityBytes;
  const int n = fabric_->deviceCount();
  auto links = fabric_->deviceLinks();
  for (int d = 0; d < n; ++d) {
    auto dev = std::make_unique<Device>();
    dev->id = d;
    dev->tracePid = trace_.process(fmt::format("NPU {}", d), d + 1);
    dev->hbm = std::make_unique<HbmPort>(hp, trace_, dev->tracePid, window);
    hbmPorts_.push_back(dev->hbm.get());
    if (trace_.wants(trace::Level::Task)) {
      auto* link = const_cast<pcie::Link*>(links[static_cast<size_t>(d)]);
      linkCounters_.push_back(
          std::make_unique<trace::BandwidthCounter>(&trace_, dev->tracePid, "PCIe up GB/s", window,
                                                     link->up.bytesPerSec()));
      link->up.setCounter(linkCounters_.back().get());
      linkCounters_.push_back(
          std::make_unique<trace::BandwidthCounter>(&trace_, dev->tracePid, "PCIe down GB/s", window,
                                                     link->down.bytesPerSec()));
      link->down.setCounter(linkCounters_.back().get());
    }
    devices_.push_back(std::move(dev));
  }
  // Switch uplinks and root ports: counters in a fabric process.
  if (trace_.wants(trace::Level::Task)) {
    int fabricPid = trace_.process("PCIe fabric", n + 1);
    for (Channel* ch : fabric_->channels()) {
      if (ch->counter()) continue;
      linkCounters_.push_back(
          std::make_unique<trace::BandwidthCounter>(&trace_, fabricPid, ch->name() + " GB/s", window,
                                                     ch->bytesPerSec()));
      ch->setCounter(linkCounters_.back().get());
    }
  }
  std::vector<int> pids;
  for (auto& dev : devices_) pids.push_back(dev->tracePid);
  for (auto& dev : devices_) {
    dev->dma = std::make_unique<dma::DmaEngine>(dev->id, cfg_, *fabric_, hbmPorts_, trace_, dev->tracePid);
    dev->dma->setDevicePids(pids);
    dev->cores = std::make_unique<aicore::AiCoreCluster>(dev->id, cfg_, *dev->hbm, trace_, dev->tracePid);
    dev->sched = std::make_unique<sched::StreamScheduler>(dev->id, cfg_, *dev->dma, *dev->cores, trace_,
                                                          dev->tracePid, hook);
  }
}

Platform::~Platform() = default;

void Platform::flushCounters(Tick now) {
  // Flush in fixed slices of simulated time, every counter per slice, so the trace bytes do
  // not depend on where the kernel happened to stop (deterministic with several host threads).
  const Tick slice = 100 * counterWindow_;
  for (Tick next = (flushedUpTo_ / slice + 1) * slice; next <= now; next += slice) {
    for (auto& c : linkCounters_) c->flushBefore(next);
    for (auto& d : devices_) d->hbm->flushBefore(next);
    flushedUpTo_ = next;
  }
}

void Platform::flushAllCounters() {
  for (auto& c : linkCounters_) c->flushAll();
  for (auto& d : devices_) d->hbm->flushAll();
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
  for (Channel* ch : fabric_->channels()) links[ch->name()] = channelJson(*ch, now);
  links[fabric_->hostMemory().name()] = channelJson(fabric_->hostMemory(), now);
  out["pcie"] = links;
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
    const HbmStats& hs = d->hbm->model.stats();
    Tick hbmBusy = 0;
    for (Tick b : hs.busyPerPc) hbmBusy += b;
    double pcs = hs.busyPerPc.empty() ? 1.0 : static_cast<double>(hs.busyPerPc.size());
    dj["hbm"] = {{"bytes_read", hs.bytesRead},
                 {"bytes_written", hs.bytesWritten},
                 {"row_hit_rate", hs.rowHitRate()},
                 {"refresh_stalls", hs.refreshStalls},
                 {"peak_GBps", d->hbm->peakBytesPerSec() / 1e9},
                 {"pseudo_channels", hs.busyPerPc.size()},
                 {"utilisation", now ? tickToSec(hbmBusy) / pcs / tickToSec(now) : 0.0}};
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
                  {"utilisation", now && count ? tickToSec(busy) / static_cast<double>(count) / tickToSec(now) : 0.0}};
    };
    const auto cube = static_cast<size_t>(d->cores->cubeCores()), vec = static_cast<size_t>(d->cores->vectorCores());
    json cubeJ = coreKind(0, cube), vecJ = coreKind(cube, vec);
    dj["aicore"] = {{"tiles", cubeJ["tiles"].get<uint64_t>() + vecJ["tiles"].get<uint64_t>()},
                    {"busy_us", cubeJ["busy_us"].get<double>() + vecJ["busy_us"].get<double>()},
                    {"utilisation", std::max(cubeJ["utilisation"].get<double>(), vecJ["utilisation"].get<double>())},
                    {"cube", cubeJ},
                    {"vector", vecJ}};
    devs.push_back(dj);
  }
  out["devices"] = devs;
  out["topology"] = fabric_->describe();
  return out;
}

}  // namespace npusim
