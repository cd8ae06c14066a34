#pragma once
// A PCIe fabric built as its modules (models/pcie/pcie_module.h) and driven from the test's own
// thread, outside any SystemC process: a transfer is one b_transport into a device's endpoint
// with its start as the annotated delay, and its end comes back the same way. Build every rig
// first, then call elaborate(): the quantum it sets is longer than any test, so an endpoint
// books a transfer that must wait for tags or credits at that later time instead of waiting.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/common/sim_time.h"
#include "models/common/transaction.h"
#include "models/pcie/address.h"
#include "models/pcie/pcie_module.h"
#include "npusim/config.h"

namespace npusim::test {

// Stands in for a device's memory bus: takes peer writes and counts their bytes.
struct PeerMemory : sc_core::sc_module {
  tlm_utils::simple_target_socket<PeerMemory> socket;
  uint64_t bytes = 0;
  explicit PeerMemory(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    socket.register_b_transport(this, &PeerMemory::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time&) {
    bytes += p.get_data_length();
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

class PcieRig : public sc_core::sc_module {
 public:
  PcieRig(sc_core::sc_module_name name, const Config& cfg, pcie::InterposerFactory interpose = {})
      : sc_module(name), pcie("pcie", cfg, std::move(interpose)) {
    for (int d = 0; d < fabric().deviceCount(); ++d) {
      const std::string n = std::to_string(d);
      dma.push_back(std::make_unique<tlm_utils::simple_initiator_socket<PcieRig>>(("dma" + n).c_str()));
      memory.push_back(std::make_unique<PeerMemory>(("hbm" + n).c_str()));
      dma.back()->bind(pcie.endpoint(d).dma);
      pcie.endpoint(d).memory.bind(memory.back()->socket);
    }
  }

  pcie::Fabric& fabric() { return pcie.fabric(); }
  // Device `dev`'s DMA reads `bytes` of host memory from `t`: when the last byte has arrived.
  Tick hostRead(int dev, uint64_t bytes, Tick t) { return send(dev, false, pcie::hostAddress(0), bytes, t); }
  // Writes them to host memory: when they are in host DDR.
  Tick hostWrite(int dev, uint64_t bytes, Tick t) { return send(dev, true, pcie::hostAddress(0), bytes, t); }
  // Writes them into device `dst`'s memory: when the last byte has reached it.
  Tick peerWrite(int src, int dst, uint64_t bytes, Tick t) {
    return send(src, true, pcie::barAddress(dst, 0), bytes, t);
  }
  // Any transaction, as a device's DMA engine issues it (the payload's delay is relative to now).
  void transport(int dev, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    (*dma[static_cast<size_t>(dev)])->b_transport(p, delay);
  }

  pcie::PcieModule pcie;
  std::vector<std::unique_ptr<PeerMemory>> memory;

 private:
  Tick send(int dev, bool write, uint64_t addr, uint64_t bytes, Tick t) {
    tlm::tlm_generic_payload* p = pool_.acquire();
    if (data_.size() < bytes) data_.resize(bytes);
    p->set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    p->set_address(addr);
    p->set_data_ptr(data_.data());
    p->set_data_length(static_cast<unsigned>(bytes));
    p->set_streaming_width(static_cast<unsigned>(bytes));
    p->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    info(*p).device = dev;
    const Tick now = simNow();
    sc_core::sc_time delay = toScTime(t > now ? t - now : 0);
    transport(dev, *p, delay);
    const bool ok = p->is_response_ok();
    p->release();
    return ok ? simNow() + static_cast<Tick>(delay.value()) : 0;
  }

  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<PcieRig>>> dma;
  PayloadPool pool_;
  std::vector<uint8_t> data_;
};

// Ends construction: every rig must exist before this.
inline void elaborate() {
  tlm::tlm_global_quantum::instance().set(sc_core::sc_time(1, sc_core::SC_SEC));
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
}

}  // namespace npusim::test
