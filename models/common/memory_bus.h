#pragma once
// The way into one device's HBM: every initiator that reaches it (the DMA engine, the AI-core
// MTEs, PCIe peer writes) binds to `in`; `out` binds to the memory target, the built-in HBM
// or a plug-in (include/npusim/tlm_plugin.h). Both base protocols pass through: b_transport
// as is, nb_transport with the backward path routed to the initiator that sent the request.
// The bus also feeds the device's HBM read/write bandwidth counters, whatever the target.
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <map>
#include <memory>
#include <systemc>
#include <tlm>

#include "models/common/tick.h"
#include "traces/bandwidth_counter.h"

namespace npusim {

class MemoryBus : public sc_core::sc_module {
 public:
  explicit MemoryBus(sc_core::sc_module_name name);

  tlm_utils::multi_passthrough_target_socket<MemoryBus> in;
  tlm_utils::simple_initiator_socket<MemoryBus> out;

  // Track 0 counts reads, track 1 writes.
  void setCounter(trace::BandwidthCounter* c) { counter_ = c; }
  uint64_t bytesRead() const { return bytesRead_; }
  uint64_t bytesWritten() const { return bytesWritten_; }
  uint64_t accesses() const { return accesses_; }

 private:
  void b_transport(int id, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(int id, tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  unsigned transport_dbg(int id, tlm::tlm_generic_payload& p);
  void count(const tlm::tlm_generic_payload& p, Tick start, Tick end);

  std::map<tlm::tlm_generic_payload*, int> pending_;  // AT requests in flight -> initiator
  std::map<tlm::tlm_generic_payload*, Tick> begun_;
  trace::BandwidthCounter* counter_ = nullptr;
  uint64_t bytesRead_ = 0, bytesWritten_ = 0, accesses_ = 0;
};

}  // namespace npusim
