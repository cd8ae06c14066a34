#pragma once
// A TLM-2.0 initiator socket that reaches one device's memory: each access becomes a generic
// payload (from the pool, with the npusim extension) sent by b_transport with the arrival as
// the annotated delay; the completion is the time the target annotates back. Addresses are
// translated to offsets into the device's HBM (AI-core MTEs use device virtual addresses). A
// write's data pointer holds the bytes written; a read's points at a scratch buffer the target
// may fill (functional data stays in npusim's own store, so targets may ignore it).
//
// Toward an approximately-timed memory model (a contract-v2 plug-in that asked for it) the same
// initiator speaks the AT base protocol instead: start() queues an access and returns at once;
// BEGIN_REQ goes out one at a time (the next only after END_REQ, so a target that withholds it
// holds the initiator back), every legal answer on both paths is handled, and each response
// is handed to the AccessWaiter the caller named, with its tag. The caller (a DMA channel, the
// AI cores) keeps as many accesses outstanding as its hardware window allows and waits on the
// waiter: no SystemC process per transaction.
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/access_waiter.h"
#include "models/common/memory_port.h"
#include "models/common/transaction.h"

namespace npusim {

struct DeviceAddressSpace {
  uint64_t base = 0;           // device virtual address of offset 0 (0 = addresses are offsets)
  uint64_t capacity = 1;       // bytes of HBM
  uint8_t* backing = nullptr;  // functional bytes of offset 0 (null: a scratch buffer stands in)
};

class MemoryInitiator : public MemoryPort {
 public:
  MemoryInitiator(const char* socketName, Engine engine, int device);

  tlm_utils::simple_initiator_socket<MemoryInitiator> socket;

  void setAddressSpace(const DeviceAddressSpace& s) { space_ = s; }
  // Who the next accesses are for (extension fields).
  void setContext(int engineIndex, uint64_t task, uint64_t stream = 0) {
    engineIndex_ = engineIndex, task_ = task, stream_ = stream;
  }
  Tick access(uint64_t addr, uint64_t bytes, bool write, Tick arrival) override;
  // One transaction at `addr` as is (no translation), with the caller's data pointer. A posted
  // write may name `postedTo`: a memory that would hold the delivery until it completed the
  // write (an approximately-timed plug-in) takes it at once and answers there with `postedTag`.
  Tick transport(uint64_t addr, uint64_t bytes, bool write, Tick arrival, uint8_t* data,
                 AccessWaiter* postedTo = nullptr, uint64_t postedTag = 0);
  uint64_t offsetOf(uint64_t addr) const;
  // The extension's memoryDone of the last transport (a posted write's completion far away).
  Tick lastMemoryDone() const { return lastMemoryDone_; }

  // Approximately timed: callers use start() instead of access() (the platform sets it when the
  // memory behind the socket is an AT plug-in).
  void setApproximatelyTimed(bool at) { at_ = at; }
  bool approximatelyTimed() const { return at_; }
  // Queues an access (address translated as by access()) arriving at `arrival`; its response
  // reaches `w` as (tag, time). Requires approximatelyTimed().
  void start(uint64_t addr, uint64_t bytes, bool write, Tick arrival, AccessWaiter& w, uint64_t tag);
  // Accesses started and not answered yet, and the most there ever were at once.
  int inFlight() const { return static_cast<int>(waiting_.size()); }
  int maxInFlight() const { return maxInFlight_; }

 private:
  struct Waiting {
    AccessWaiter* waiter;
    uint64_t tag;
  };
  uint8_t* dataFor(uint64_t offset, uint64_t bytes, bool write);
  // A pooled payload for the access; its extension goes in *ext when asked.
  tlm::tlm_generic_payload* payload(uint64_t addr, uint64_t bytes, bool write, uint8_t* data,
                                    TransactionInfo** ext = nullptr);
  void sendRequests();
  void requestEnded(tlm::tlm_generic_payload& p, Tick at);
  void responded(tlm::tlm_generic_payload& p, Tick at);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);

  Engine engine_;
  int device_;
  int engineIndex_ = 0;
  uint64_t task_ = 0, stream_ = 0;
  DeviceAddressSpace space_;
  PayloadPool pool_;
  std::vector<uint8_t> scratch_;
  Tick lastMemoryDone_ = 0;
  // Approximately-timed state.
  bool at_ = false;
  std::deque<std::pair<tlm::tlm_generic_payload*, Tick>> requests_;  // waiting for BEGIN_REQ
  tlm::tlm_generic_payload* requesting_ = nullptr;                   // BEGIN_REQ sent, no END_REQ
  Tick requestFreeAt_ = 0;  // the last END_REQ's time: no BEGIN_REQ is timed before it
  bool sending_ = false;    // inside sendRequests (a target may call back from nb_transport_fw)
  std::map<tlm::tlm_generic_payload*, Waiting> waiting_;
  std::map<tlm::tlm_generic_payload*, std::vector<uint8_t>> readBuffers_;  // by pooled payload
  int maxInFlight_ = 0;
};

}  // namespace npusim
