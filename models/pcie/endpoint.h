#pragma once
// A device's PCIe endpoint as a module: where the device's DMA engine enters the fabric and
// where peer writes for the device leave it. It holds back what PCIe cannot take yet (a read
// until its tags are free, a posted write until the transmit queue has room: the Fabric's read
// tags, posted ordering and root-port credits), then sends the transaction up its link and,
// when the call returns, gives the DMA the time the data arrived (reads), reached host DDR
// (writes) or reached the peer (peer writes; the peer's HBM completion in memoryDone).
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <systemc>
#include <tlm>

#include "models/common/tick.h"

namespace npusim::pcie {

class Fabric;
struct Node;

class Endpoint : public sc_core::sc_module {
 public:
  Endpoint(sc_core::sc_module_name name, Fabric& fabric, int device);

  tlm_utils::simple_target_socket<Endpoint> dma;        // the device's DMA engine
  tlm_utils::simple_initiator_socket<Endpoint> link;    // its PCIe link, toward the root complex
  tlm_utils::simple_target_socket<Endpoint> from_link;  // peer writes for this device
  tlm_utils::simple_initiator_socket<Endpoint> memory;  // the device's memory bus

 private:
  void fromDma(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void fromLink(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void end_of_elaboration() override;
  Fabric& fabric_;
  int device_;
  Tick quantum_ = 0;  // how far ahead of the kernel a transfer may be booked without waiting
  // The device's node in the fabric and its root port, found once (end_of_elaboration).
  Node* node_ = nullptr;
  Node* rootPort_ = nullptr;
};

}  // namespace npusim::pcie
