#pragma once
// The root complex as a module: its root ports (each with the posted-write credits it grants,
// kept by the Fabric), its aggregate data paths to and from host memory (one per direction,
// shared by every root port), its latency, and host memory behind it. It routes by address:
// host memory through its `host` socket; a peer write between root ports to the port that leads
// to the peer (what-if: system.p2p_across_switches). A host read comes back from host memory
// as its completion, which the RC's path to the ports times before the call returns.
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <systemc>
#include <tlm>
#include <vector>

namespace npusim::pcie {

class Fabric;

class RootComplex : public sc_core::sc_module {
 public:
  // `portOfDevice[d]`: the root port (in binding order) that leads to device d.
  RootComplex(sc_core::sc_module_name name, Fabric& fabric, std::vector<int> portOfDevice);

  tlm_utils::multi_passthrough_target_socket<RootComplex> from_ports;   // from the root ports' links
  tlm_utils::multi_passthrough_initiator_socket<RootComplex> to_ports;  // down the root ports' links
  tlm_utils::simple_initiator_socket<RootComplex> host;                 // host memory

 private:
  void fromPort(int port, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void readHost(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void writeHost(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  Fabric& fabric_;
  std::vector<int> portOfDevice_;
};

}  // namespace npusim::pcie
