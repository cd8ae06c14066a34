#pragma once
// A task as the device's stream scheduler sees it: one SQE in a stream's hardware queue.
// The runtime builds tasks from API calls; the scheduler executes them on the engines.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/common/tick.h"
#include "models/sched/operator_task.h"

namespace npusim::sched {

struct HwStream;
struct HwEvent;
struct ModelGraph;  // models/sched/model_graph.h

// What a DMA copy moves: `height` rows of `width` bytes (1D copies have height 1). Addresses
// are offsets in the owning memory (device HBM offset; host addresses are not timed per
// address); pointers are the functional backing of source and destination.
struct CopyShape {
  uint64_t dstAddr = 0, srcAddr = 0;
  uint8_t* dstPtr = nullptr;
  const uint8_t* srcPtr = nullptr;
  uint64_t width = 0, height = 1, dpitch = 0, spitch = 0;
  uint64_t bytes() const { return width * height; }
};

enum class CopyRoute { HostToDevice, DeviceToHost, DeviceLocal, PeerWrite, Fill };
const char* routeName(CopyRoute r);

// ModelExec replays a captured model (aclmdlRIExecuteAsync): the scheduler puts the model's
// tasks on the model's own streams and the ModelExec task ends when all of them have.
// Builtin runs `run` on the stream's SystemC thread: runtime tasks that need no engine of their
// own (notifies, value write/wait, labels) or drive one themselves; it may wait in simulated time.
enum class TaskKind { Copy, EventRecord, EventWait, EventReset, Operator, Marker, ModelExec, Builtin };

struct Task {
  uint64_t id = 0;  // global, in launch order
  TaskKind kind = TaskKind::Marker;
  HwStream* stream = nullptr;
  uint64_t seq = 0;         // position in its stream (1-based)
  Tick submit = 0;          // when the SQE is visible to the scheduler (host time + doorbell)
  Tick start = 0, end = 0;  // execution on the device
  Tick engineWait = 0;      // time spent waiting for a free engine
  Tick eventWait = 0;       // time spent waiting on an event
  uint64_t flow = 0;        // trace flow id from the API call that launched it
  int hostThread = 0;       // index of the host thread that launched it (exception info)
  std::string label;        // trace name, e.g. "Memcpy H2D"

  // Copy
  CopyRoute route = CopyRoute::HostToDevice;
  CopyShape copy;
  int peer = -1;             // destination device of a PeerWrite
  uint32_t fillPattern = 0;  // Fill: the 4-byte pattern repeated from the start (fill_pattern.h)
  // Copy: when set, lands each burst's bytes into the destination instead of overwriting it (a
  // DMA copy with inline reduce: dst = dst op src, element by element, as the burst arrives).
  std::function<void(uint8_t* dst, const uint8_t* src, uint64_t bytes)> landWith;

  // Events
  std::shared_ptr<HwEvent> event;
  uint64_t waitTarget = 0;   // EventWait: completed-record count to wait for
  uint64_t recordIndex = 0;  // EventRecord: which record of the event this is
  // EventWait: after waiting this long the task gives up and fails with `timeoutError` (0: waits
  // for ever). The runtime sets both (aclrtSetOpWaitTimeout); the model knows no ACL codes.
  Tick waitTimeout = 0;
  int32_t timeoutError = 0;

  // Operators
  std::shared_ptr<OperatorTask> op;

  // Builtin: what the task does; sets `error` (an ACL error code) when it fails on the device.
  // Copy: when set, runs as the copy starts and fills `copy` (addresses read on the device).
  std::function<void(Task&)> run;
  int32_t error = 0;  // non-zero: the task failed (or was skipped on a stopped/failed stream)
  bool skipped = false;

  // ModelExec: the graph to replay and the first of the task ids reserved for its tasks.
  std::shared_ptr<ModelGraph> model;
  uint64_t firstModelTaskId = 0;
  std::vector<uint64_t> externalTargets;  // per external event task of the model (ModelTask)
};

}  // namespace npusim::sched
