#include "models/dma/dma_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "models/common/fill_pattern.h"
#include "models/common/sim_time.h"
#include "models/common/stream_copy.h"
#include "models/pcie/address.h"
#include "models/sched/hw_stream.h"
#include "npusim/config.h"

namespace npusim::dma {

namespace {
Tick now() { return simNow(); }
// The tag of a landing write's answer (burst reads are tagged with their issue number).
constexpr uint64_t kWriteTag = ~uint64_t{0};
}  // namespace

DmaEngine::DmaEngine(sc_core::sc_module_name name, int device, const Config& cfg, trace::TraceWriter& trace,
                     int tracePid, const std::vector<int>& hccsPeers)
    : sc_module(name),
      hbm("hbm", Engine::Dma, device),
      pcie("pcie", Engine::Dma, device),
      device_(device),
      trace_(trace) {
  if (!hccsPeers.empty()) {
    hccs_ = std::make_unique<MemoryInitiator>("hccs", Engine::Dma, device);
    for (int p : hccsPeers) {
      if (static_cast<size_t>(p) >= hccsPeers_.size()) hccsPeers_.resize(static_cast<size_t>(p) + 1, false);
      hccsPeers_[static_cast<size_t>(p)] = true;
    }
  }
  burst_ = static_cast<uint64_t>(cfg.getInt("sim.dma_burst_bytes"));
  window_ = std::max<uint64_t>(static_cast<uint64_t>(cfg.getInt("dma.outstanding_bytes")), burst_);
  descriptorTime_ = nsToTick(cfg.getFloat("dma.descriptor_ns"));
  maxDescriptor_ = static_cast<uint64_t>(cfg.getInt("dma.max_descriptor_bytes"));
  int n = static_cast<int>(cfg.getInt("dma.channels"));
  double rate = cfg.getFloat("dma.channel_gbps") * 1e9;
  channels_.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) waiters_.push_back(std::make_unique<AccessWaiter>());
  for (int i = 0; i < n; ++i) {
    channels_[i].index = i;
    channels_[i].datapath = Channel(fmt::format("NPU {} DMA ch {}", device, i), rate);
    if (trace_.wants(trace::Level::Task))
      channels_[i].track = trace_.thread(tracePid, fmt::format("DMA ch {}", i), 100 + i);
  }
}

void DmaEngine::setContext(const sched::Task& task, int ci) {
  const uint64_t stream = task.stream ? static_cast<uint64_t>(task.stream->id) : 0;
  hbm.setContext(ci, task.id, stream);
  pcie.setContext(ci, task.id, stream);
  if (hccs_) hccs_->setContext(ci, task.id, stream);
}

int DmaEngine::acquire() {
  uint64_t ticket = ++burstIds_;
  waiting_.push_back(ticket);
  for (;;) {
    if (waiting_.front() == ticket) {
      for (size_t i = 0; i < channels_.size(); ++i) {
        if (!channels_[i].busy) {
          channels_[i].busy = true;
          waiting_.pop_front();
          if (!waiting_.empty()) freed_.notify(sc_core::SC_ZERO_TIME);  // the next in line may fit too
          return static_cast<int>(i);
        }
      }
    }
    sc_core::wait(freed_);
  }
}

void DmaEngine::release(int ch) {
  channels_[ch].busy = false;
  freed_.notify(sc_core::SC_ZERO_TIME);
}

bool DmaEngine::issue(sched::Task& task, DmaChannel& ch, Burst& b, Tick local, Tick& peerDone,
                      AccessWaiter& w, uint64_t tag) {
  const sched::CopyShape& c = task.copy;
  setContext(task, ch.index);
  b.issued = local;
  b.start = ch.datapath.reserve(local, b.bytes, b.bytes);
  const uint64_t src = c.srcAddr + b.row * c.spitch + b.col;
  switch (task.route) {
    case sched::CopyRoute::HostToDevice:
      b.tail = pcie.transport(pcie::hostAddress(src), b.bytes, false, b.start, nullptr);
      return true;
    case sched::CopyRoute::Fill:
      b.tail = b.start + ch.datapath.ticksFor(b.bytes);
      return true;
    case sched::CopyRoute::DeviceToHost:
    case sched::CopyRoute::DeviceLocal:
    case sched::CopyRoute::PeerWrite:
      if (hbm.approximatelyTimed()) {  // the answer comes later, through `w`
        hbm.start(src, b.bytes, false, b.start, w, tag);
        return false;
      }
      b.tail = forward(task, ch, b, hbm.access(src, b.bytes, false, b.start), peerDone, w);
      return true;
  }
  b.tail = b.start;
  return true;
}

Tick DmaEngine::forward(sched::Task& task, DmaChannel& ch, const Burst& b, Tick read, Tick& peerDone,
                        AccessWaiter& w) {
  const sched::CopyShape& c = task.copy;
  setContext(task, ch.index);
  const uint64_t dst = c.dstAddr + b.row * c.dpitch + b.col;
  auto* data = const_cast<uint8_t*>(c.srcPtr ? c.srcPtr + b.row * c.spitch + b.col : nullptr);
  switch (task.route) {
    case sched::CopyRoute::DeviceToHost:
      return pcie.transport(pcie::hostAddress(dst), b.bytes, true, read, data);
    case sched::CopyRoute::PeerWrite: {
      // Over HCCS the link delivers the write to the peer's memory and annotates its completion.
      // An approximately-timed peer memory takes the write as posted and answers through `w`
      // (kWriteTag: the copy ends no earlier), so the channel keeps its window of bursts.
      if (hccsTo(task.peer))
        return hccs_->transport(pcie::barAddress(task.peer, dst), b.bytes, true, read, data, &w, kWriteTag);
      // Over PCIe the write travels to the peer and is delivered to its memory bus there; landing the
      // bytes (below) waits for the delivery, the copy's end for the peer memory's completion.
      Tick tail = pcie.transport(pcie::barAddress(task.peer, dst), b.bytes, true, read, data, &w, kWriteTag);
      peerDone = std::max(peerDone, pcie.lastMemoryDone());
      return tail;
    }
    default:
      return std::max(read, b.start + ch.datapath.ticksFor(b.bytes));
  }
}

void DmaEngine::traceBurst(const sched::Task& task, const DmaChannel& ch, const Burst& b) {
  if (!trace_.wants(trace::Level::Transaction)) return;
  // Named by the copy's bytes before it (a burst never crosses a row).
  uint64_t id = (static_cast<uint64_t>(device_) << 48) | (b.row * task.copy.width + b.col);
  trace::Args a;
  a.add("bytes", b.bytes).add("task", task.id);
  trace_.asyncBegin(ch.track.pid, "burst", fmt::format("dma{}", ch.index), id, b.issued, &a);
  trace_.asyncEnd(ch.track.pid, "burst", fmt::format("dma{}", ch.index), id, b.tail);
}

void DmaEngine::land(sched::Task& task, int ci, const Burst& b, Tick local, Tick& done, AccessWaiter& w) {
  const sched::CopyShape& c = task.copy;
  setContext(task, ci);
  uint64_t dst = c.dstAddr + b.row * c.dpitch + b.col;
  if (c.dstPtr) {
    uint8_t* d = c.dstPtr + b.row * c.dpitch + b.col;
    if (task.route == sched::CopyRoute::Fill)
      fillPattern(d, b.bytes, task.fillPattern, b.row * c.dpitch + b.col);
    else if (c.srcPtr && task.landWith)
      task.landWith(d, c.srcPtr + b.row * c.spitch + b.col, b.bytes);
    else if (channels_[static_cast<size_t>(ci)].streamCopy)
      streamCopy(d, c.srcPtr + b.row * c.spitch + b.col, b.bytes);
    else if (c.srcPtr)
      std::memmove(d, c.srcPtr + b.row * c.spitch + b.col, b.bytes);
  }
  // Writes into this device's HBM are timed when the bytes are there (so the memory sees
  // them in time order); a peer write was delivered to the peer's memory by the fabric.
  switch (task.route) {
    case sched::CopyRoute::HostToDevice:
    case sched::CopyRoute::DeviceLocal:
    case sched::CopyRoute::Fill:
      if (hbm.approximatelyTimed())
        hbm.start(dst, b.bytes, true, local, w, kWriteTag);  // its answer only moves `done`
      else
        done = std::max(done, hbm.access(dst, b.bytes, true, local));
      break;
    case sched::CopyRoute::PeerWrite:
    case sched::CopyRoute::DeviceToHost:
      break;
  }
}

bool DmaEngine::streams(const sched::Task& task) {
  const sched::CopyShape& c = task.copy;
  if (!c.dstPtr || !c.srcPtr || task.landWith || task.route == sched::CopyRoute::Fill ||
      c.bytes() < kStreamCopyMinBytes || c.height == 0)
    return false;
  // Overlapping ranges keep memmove: the copy then behaves as its bursts in order.
  const uint8_t* s = c.srcPtr;
  const uint8_t* d = c.dstPtr;
  const uint64_t srcSpan = (c.height - 1) * c.spitch + c.width, dstSpan = (c.height - 1) * c.dpitch + c.width;
  return s + srcSpan <= d || d + dstSpan <= s;
}

int DmaEngine::run(sched::Task& task) {
  Tick asked = now();
  int ci = acquire();
  DmaChannel& ch = channels_[ci];
  Tick begin = now();
  task.engineWait = begin - asked;

  const sched::CopyShape& c = task.copy;
  ch.streamCopy = streams(task);
  std::deque<Burst> inflight;
  uint64_t inflightBytes = 0, row = 0, col = 0;
  uint64_t descriptors = std::max<uint64_t>(1, (c.bytes() + maxDescriptor_ - 1) / maxDescriptor_);
  Tick done = 0, peerDone = 0;
  Tick firstLanding = 0;
  // Toward an approximately-timed memory the source reads of the window's bursts are all in
  // flight at once; their answers (and the landing writes') arrive here.
  AccessWaiter& waiter = *waiters_[static_cast<size_t>(ci)];
  uint64_t frontBurst = 0, bursts = 0;  // issue numbers of inflight.front() and the next burst
  auto takeAnswers = [&] {
    while (!waiter.empty()) {
      const AccessWaiter::Done d = waiter.take();
      if (d.tag == kWriteTag) {
        done = std::max(done, d.at);
        continue;
      }
      Burst& b = inflight[d.tag - frontBurst];
      b.tail = forward(task, ch, b, d.at, peerDone, waiter);
      b.ready = true;
      traceBurst(task, ch, b);
    }
  };
  // Descriptors are fetched back to back; later fetches overlap earlier transfers, so only
  // the first is exposed unless a descriptor is shorter than the fetch.
  sc_core::wait(toScTime(descriptorTime_));
  // The channel runs decoupled: `local` is its own time, up to a quantum ahead of the kernel.
  const Tick quantum = globalQuantum();
  Tick local = now();
  while (row < c.height || !inflight.empty()) {
    while (row < c.height &&
           (inflight.empty() || inflightBytes + std::min(burst_, c.width - col) <= window_)) {
      Burst b{0, row, col, std::min(burst_, c.width - col)};
      b.ready = issue(task, ch, b, local, peerDone, waiter, bursts);
      if (b.ready) traceBurst(task, ch, b);
      ++bursts;
      inflight.push_back(b);
      inflightBytes += b.bytes;
      col += b.bytes;
      if (col == c.width) col = 0, ++row;
    }
    takeAnswers();
    while (!inflight.front().ready) waiter.wait(), takeAnswers();
    Burst f = inflight.front();
    inflight.pop_front();
    ++frontBurst;
    inflightBytes -= f.bytes;
    local = std::max(local, f.tail);
    syncIfBeyondQuantum(local, quantum);
    if (!firstLanding) firstLanding = local;
    land(task, ci, f, local, done, waiter);
  }
  while (waiter.outstanding() > 0 || !waiter.empty()) waiter.wait(), takeAnswers();
  if (ch.streamCopy) streamCopyDone();
  waitUntil(std::max({local, done, peerDone}));

  Tick end = now();
  ch.stats.copies++;
  ch.stats.bytes += c.bytes();
  ch.stats.busy += end - begin;
  if (trace_.wants(trace::Level::Task)) {
    trace::Args a;
    double gbps = end > begin ? static_cast<double>(c.bytes()) / tickToSec(end - begin) / 1e9 : 0.0;
    a.add("bytes", c.bytes()).add("GB/s", gbps).add("task", task.id);
    if (task.stream) a.add("stream", task.stream->id);
    a.add("descriptors", descriptors);
    trace_.slice(ch.track, task.label, "dma", begin, end - begin, &a);
    if (task.route == sched::CopyRoute::PeerWrite && task.peer < static_cast<int>(devicePids_.size())) {
      // The destination device shows the incoming copy, with an arrow from the source channel.
      auto key = std::make_pair(task.peer, ci);
      auto it = peerTracks_.find(key);
      if (it == peerTracks_.end())
        it = peerTracks_
                 .emplace(key, trace_.thread(devicePids_[task.peer],
                                             fmt::format("P2P in from NPU {} ch {}", device_, ci),
                                             150 + device_ * 16 + ci))
                 .first;
      Tick in = std::max(begin, firstLanding);
      trace::Args pa;
      pa.add("bytes", c.bytes()).add("from_device", device_).add("task", task.id);
      pa.add("link", hccsTo(task.peer) ? "HCCS" : "PCIe");
      trace_.slice(it->second, "P2P in", "dma", in, end - in, &pa);
      uint64_t flow = trace_.newFlowId();
      trace_.flowStart(ch.track, flow, "p2p", begin);
      trace_.flowEnd(it->second, flow, "p2p", in);
    }
  }
  release(ci);
  return ci;
}

}  // namespace npusim::dma
