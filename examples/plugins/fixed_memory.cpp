// An npusim memory plug-in: a device memory where every access takes a fixed latency plus its
// bytes at a fixed bandwidth, serving one access at a time in arrival order. It shows the whole
// plug-in contract (include/npusim/tlm_plugin.h): a TLM-2.0 target module, built per device by a
// factory registered from a static initialiser, chosen with hbm.model=fixed.
//
//   NPUSIM_PLUGINS=/path/libnpusim_fixed_memory.so NPUSIM_SET=hbm.model=fixed ./app
//
// FIXED_MEMORY_LATENCY_NS (default 100) and FIXED_MEMORY_GBPS (default 100) set its timing.
#include <npusim/tlm_plugin.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdlib>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

namespace {

double envOr(const char* name, double fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtod(v, nullptr) : fallback;
}

class FixedMemory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<FixedMemory> socket;

  FixedMemory(sc_core::sc_module_name name, double latencyNs, double gbps)
      : sc_module(name),
        socket("socket"),
        latency_(latencyNs, sc_core::SC_NS),
        perByte_(1.0 / gbps, sc_core::SC_NS) {  // 1 GB/s = 1 byte per ns
    socket.register_b_transport(this, &FixedMemory::b_transport);
  }

 private:
  // Loosely timed: the access arrives at now + delay, waits for the previous one to finish
  // on the data path, holds it for its bytes, and completes `latency` later.
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    const sc_core::sc_time arrival = sc_core::sc_time_stamp() + delay;
    const sc_core::sc_time start = arrival > free_ ? arrival : free_;
    free_ = start + perByte_ * static_cast<double>(p.get_data_length());
    delay = free_ + latency_ - sc_core::sc_time_stamp();
    p.set_response_status(tlm::TLM_OK_RESPONSE);  // timing only: npusim keeps the data
  }

  sc_core::sc_time latency_, perByte_;
  sc_core::sc_time free_ = sc_core::SC_ZERO_TIME;
};

// The modules live to the end of the process (npusim binds its sockets to them).
std::vector<FixedMemory*> modules;

const bool registered = npusim::registerMemoryTarget(
    "fixed", [](const std::string& instanceName, int /*device*/) -> tlm::tlm_target_socket<>* {
      modules.push_back(new FixedMemory(instanceName.c_str(), envOr("FIXED_MEMORY_LATENCY_NS", 100),
                                        envOr("FIXED_MEMORY_GBPS", 100)));
      return &modules.back()->socket;
    });

}  // namespace
