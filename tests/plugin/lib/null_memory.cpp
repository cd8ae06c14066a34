// Broken memory plug-ins for the error-path tests: a v1 factory that returns no socket, v2
// binders that raise SC_REPORT_FATAL or SC_REPORT_ERROR, and one that binds nothing; and "eos", a
// working loosely-timed memory that tells on stderr when its end_of_simulation runs (and exits
// with 3 if it runs twice).
#include <npusim/tlm_plugin.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdio>
#include <cstdlib>
#include <systemc>

namespace {
const bool registered = npusim::registerMemoryTarget(
    "null", [](const std::string&, int) -> tlm::tlm_target_socket<>* { return nullptr; });
const bool fatal =
    npusim::registerMemoryModel("fatal", npusim::Protocol::ApproximatelyTimed,
                                [](tlm::tlm_initiator_socket<>&, const npusim::MemoryTargetInfo&) {
                                  SC_REPORT_FATAL("fatal_memory", "no configuration file given");
                                });
const bool error =
    npusim::registerMemoryModel("error", npusim::Protocol::LooselyTimed,
                                [](tlm::tlm_initiator_socket<>&, const npusim::MemoryTargetInfo&) {
                                  SC_REPORT_ERROR("error_memory", "bad memory spec");
                                });
const bool unbound =
    npusim::registerMemoryModel("unbound", npusim::Protocol::LooselyTimed,
                                [](tlm::tlm_initiator_socket<>&, const npusim::MemoryTargetInfo&) {});

struct EosMemory : sc_core::sc_module {
  tlm_utils::simple_target_socket<EosMemory> socket;
  int ends = 0;
  explicit EosMemory(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    socket.register_b_transport(this, &EosMemory::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& d) {
    d += sc_core::sc_time(10, sc_core::SC_NS);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  void end_of_simulation() override {
    if (++ends > 1) std::_Exit(3);
    std::fprintf(stderr, "end_of_simulation of %s\n", name());
  }
};
const bool eos =
    npusim::registerMemoryModel("eos", npusim::Protocol::LooselyTimed,
                                [](tlm::tlm_initiator_socket<>& s, const npusim::MemoryTargetInfo& info) {
                                  s.bind((new EosMemory(info.instanceName.c_str()))->socket);
                                });
}  // namespace
