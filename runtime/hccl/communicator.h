#pragma once
// HCCL communicators: what the ranks of one communicator share (their devices, CCL buffers, the
// notifies between them, the arguments of each collective they call) and what each rank owns
// (its side streams, one per peer, and the notifies between its main and side streams).
#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "hccl/hccl_types.h"
#include "models/common/tick.h"
#include "runtime/host_thread.h"
#include "runtime/objects.h"
#include "traces/trace_writer.h"

namespace npusim::hccl {

// A notify that counts: a record adds one, a wait takes one and blocks its stream while there is
// none. Ranks record each other's (notify writes across devices); records are remembered for
// the trace's flow arrows from a record to the wait it releases.
struct Signal {
  uint64_t count = 0;
  sc_core::sc_event changed;
  std::deque<std::pair<trace::Track, Tick>> records;
};

// What every rank knows of every other once all have joined.
struct RankInfo {
  bool joined = false;
  rt::HostThread* thread = nullptr;  // the host thread that joined it (HcclCommInitRootInfo)
  int device = -1;
  void* cclIn = nullptr;  // the communicator's two staging buffers on the rank's device
  void* cclOut = nullptr;
};

// One rank's arguments to one call, read by the peers' tasks on the device.
struct CallArgs {
  bool joined = false;
  const void* send = nullptr;
  void* recv = nullptr;
  std::vector<uint64_t> sendCounts, sendDispls, recvCounts, recvDispls;  // elements, per peer
};

// One collective: what the first rank to call it asked for, then every rank's arguments.
struct CallRecord {
  HcclCMDType cmd = HCCL_CMD_INVALID;
  uint64_t count = 0;
  HcclDataType type = HCCL_DATA_TYPE_RESERVED;
  HcclReduceOp op = HCCL_REDUCE_RESERVED;
  uint32_t root = 0;
  std::vector<CallArgs> args;  // per rank
};

// Between ranks (from, to): Ack = ready to receive, Data = written; P2p* the same for Send/Recv.
// Within a rank (rank, side stream k): Fork = main to side k, Join = side k to main.
enum class SignalKind { Ack, Data, P2pAck, P2pData, Fork, Join };

class Group {
 public:
  Group(std::string name, uint32_t size, uint64_t bufferBytes, Tick execTimeout);
  std::string name;  // HcclGetCommName: the root info's key, or the config's name
  const uint32_t size;
  const uint64_t bufferBytes;  // each CCL buffer
  const Tick execTimeout;      // a wait gives up after this much simulated time
  std::vector<RankInfo> ranks;
  uint32_t joined = 0;
  bool mesh = false;  // every pair of devices shares an HCCS link (else ring over PCIe)
  bool topologyKnown = false;
  std::map<uint64_t, CallRecord> calls;  // by call sequence number (the same on every rank)
  // Point-to-point: per (sender, receiver), the receive buffers and counts in posting order.
  std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<void*, uint64_t>>> recvs;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>> sends;  // byte counts
  Signal& signal(SignalKind kind, uint32_t from, uint32_t to);
  // Bytes each rank's DMA pushed to each rank (statistics; [from * size + to]).
  std::vector<uint64_t> pushedBytes;

 private:
  std::vector<std::unique_ptr<Signal>> signals_;
};

struct Comm {
  std::shared_ptr<Group> group;
  uint32_t rank = 0;
  int device = 0;
  bool ownsDevice = false;        // HcclCommInitAll opened the device for it
  std::vector<rt::Stream*> side;  // side[k] serves peer (rank + 1 + k) % size
  uint64_t nextCall = 0;
  std::map<uint32_t, uint64_t> sendsPosted, recvsPosted;  // per peer
  std::shared_ptr<std::atomic<int>> asyncError = std::make_shared<std::atomic<int>>(HCCL_SUCCESS);
  uint32_t sideFor(uint32_t peer) const { return (peer + group->size - rank - 1) % group->size; }
};

// Live communicators and the groups still gathering their ranks.
bool isLive(const Comm* c);
void addLive(Comm* c);
void removeLive(Comm* c);
std::shared_ptr<Group> findOrCreateGroup(const std::string& key, uint32_t size, uint64_t bufferBytes,
                                         Tick execTimeout, std::string* why);
// All ranks joined: the root info may not be used again.
void finishGathering(const std::string& key, Group& g);
void renameGroup(Group& g, const std::string& name);
// The first live rank named `name`, preferring the one on `device`.
Comm* findByName(const std::string& name, int device);
// HcclSetConfig(HCCL_DETERMINISTIC): recorded; npusim's reductions are deterministic anyway.
int& deterministic();

}  // namespace npusim::hccl
