#pragma once
// Pluggable memory targets: a TLM-2.0 model (a DRAM simulator, a fixed-latency memory, ...) that
// stands in for a device's HBM. A shared library registers a factory from a static initialiser;
// NPUSIM_PLUGINS (colon-separated paths) lists the libraries loaded at aclInit, and the
// configuration key hbm.model=<name> selects one (default: the built-in HBM). The library links
// only SystemC and shares the process's one SystemC kernel. docs/architecture.md shows an example.
#include <functional>
#include <string>
#include <tlm>

namespace npusim {

// Builds the memory target of one device during elaboration and returns its socket; npusim
// binds all of that device's HBM traffic (DMA and AI-core MTEs) to it. Addresses on the socket
// are byte offsets into the device's HBM.
using MemoryTargetFactory =
    std::function<tlm::tlm_target_socket<>*(const std::string& instanceName, int device)>;
bool registerMemoryTarget(const std::string& model, MemoryTargetFactory factory);

}  // namespace npusim
