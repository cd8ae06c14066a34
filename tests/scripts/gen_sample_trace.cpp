// Writes a small trace with the layout the simulator uses (docs/trace.md): a host process with
// API-call slices, a device process with stream and DMA tracks, a bandwidth counter, flow arrows
// and async queueing slices. The script tests load it in check_trace.py and in Perfetto's engine.
//
// usage: gen_sample_trace OUT.json
#include <cstdio>
#include <string>

#include "traces/bandwidth_counter.h"
#include "traces/trace_writer.h"

using npusim::kNs;
using npusim::kUs;
using npusim::Tick;
using npusim::trace::Args;
using npusim::trace::BandwidthCounter;
using npusim::trace::Level;
using npusim::trace::TraceWriter;
using npusim::trace::Track;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT.json\n", argv[0]);
    return 2;
  }
  TraceWriter w;
  std::string err;
  if (!w.open(argv[1], Level::Transaction, &err)) {
    std::fprintf(stderr, "gen_sample_trace: %s\n", err.c_str());
    return 1;
  }
  const int host = w.process("Host", 0);
  const Track api = w.thread(host, "Thread 1", 0);
  const int npu = w.process("NPU 0", 1);
  const Track stream = w.thread(npu, "Stream 1", 0);
  const Track dma = w.thread(npu, "DMA ch 0", 1);
  BandwidthCounter h2d(&w, npu, "PCIe H2D GB/s", 1 * kUs);

  // Host: aclrtMemcpyAsync at 1 us launches a copy task; the copy runs 4..12 us on stream 1,
  // carried by DMA channel 0 in two bursts. 64 KiB over 8 us = 8.192 GB/s.
  const Tick call = 1 * kUs + 250;  // sub-ns part is truncated in the file
  Args a;
  a.add("stream", 1).add("bytes", 65536).addHex("dst", 0x12340000ull).add("kind", "HOST_TO_DEVICE");
  w.slice(api, "aclrtMemcpyAsync", "api", call, 2 * kUs, &a);
  w.slice(api, "validate", "api", call + 100 * kNs, 300 * kNs);  // nested inside the call
  // Perfetto binds a flow event to the slice most recently begun on its track, so flows start
  // and end at the start time of the slice they belong to (docs/trace.md, "Flows").
  const uint64_t launch = w.newFlowId();
  w.flowStart(api, launch, "launch", call);

  // Queueing: the task waits on the stream from submission until it starts.
  w.asyncBegin(npu, "queued", "queue", 1, call + 2 * kUs, nullptr);
  w.asyncEnd(npu, "queued", "queue", 1, 4 * kUs);

  Args t;
  t.add("task", 7).add("ratio", 0.5);
  w.slice(stream, "memcpy H2D", "task", 4 * kUs, 8 * kUs, &t);
  w.flowEnd(stream, launch, "launch", 4 * kUs);
  w.slice(dma, "burst 0", "dma", 4 * kUs, 4 * kUs);
  w.slice(dma, "burst 1", "dma", 8 * kUs, 4 * kUs);
  h2d.add(4 * kUs, 8 * kUs, 32768);
  h2d.add(8 * kUs, 12 * kUs, 32768);

  // Synchronisation: an event record on the stream releases the host's synchronize call. The
  // arrow ends on a zero-length "released" slice inside the wait (an arrow into the wait slice
  // itself would point backwards in time: Perfetto orients arrows by slice start).
  w.slice(api, "aclrtSynchronizeStream", "api", 3 * kUs + 1, 9 * kUs + 999);
  w.slice(stream, "event record", "task", 12 * kUs, 0);
  const uint64_t release = w.newFlowId();
  w.flowStart(stream, release, "release", 12 * kUs);
  w.slice(api, "released", "api", 12 * kUs, 0);  // zero-length targets go before their flowEnd
  w.flowEnd(api, release, "release", 12 * kUs);
  w.instant(api, "wake", "api", 12 * kUs + 500 * kNs);

  h2d.flushAll();
  w.close();
  std::printf("%s: %llu events, %llu bytes counted\n", argv[1],
              static_cast<unsigned long long>(w.eventsWritten()),
              static_cast<unsigned long long>(h2d.totalBytes()));
  return 0;
}
