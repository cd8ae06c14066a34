#include "models/host/host_cpu.h"

#include "npusim/config.h"

namespace npusim {

HostCosts hostCostsFromConfig(const Config& cfg) {
  HostCosts c{};
  c.apiCall = nsToTick(cfg.getFloat("host.api_call_ns"));
  c.launch = nsToTick(cfg.getFloat("host.launch_ns"));
  c.syncCopy = nsToTick(cfg.getFloat("host.sync_copy_ns"));
  c.doorbell = nsToTick(cfg.getFloat("host.doorbell_ns"));
  c.wakeup = nsToTick(cfg.getFloat("host.wakeup_ns"));
  c.alloc = nsToTick(cfg.getFloat("host.alloc_ns"));
  c.opPrepare = nsToTick(cfg.getFloat("host.op_prepare_ns"));
  c.opLaunch = nsToTick(cfg.getFloat("host.op_launch_ns"));
  c.completion = nsToTick(cfg.getFloat("sched.completion_ns"));
  c.memcpyBytesPerSec = cfg.getFloat("host.memcpy_gbps") * 1e9;
  c.pageableChunk = static_cast<uint64_t>(cfg.getInt("host.pageable_chunk_bytes"));
  c.sqDepth = static_cast<uint64_t>(cfg.getInt("sched.sq_depth"));
  c.timestampHz = cfg.getFloat("sched.timestamp_hz");
  c.maxStreams = static_cast<int>(cfg.getInt("sched.max_streams"));
  c.maxEvents = static_cast<int>(cfg.getInt("sched.max_events"));
  return c;
}

}  // namespace npusim
