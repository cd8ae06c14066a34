#pragma once
// Pluggable memory models: a TLM-2.0 model (a DRAM simulator, a fixed-latency memory, ...) that
// stands in for every device's HBM. A shared library registers it from a static initialiser;
// NPUSIM_PLUGINS (colon-separated paths) lists the libraries loaded at aclInit, and the
// configuration key hbm.model=<name> selects one (default: the built-in HBM). The library links
// only SystemC and shares the process's one SystemC kernel. docs/architecture.md ("Writing a
// memory plug-in") states the contract; docs/plugins.md shows examples.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tlm>

namespace npusim {

// ---- contract v2 ----

// What npusim tells the model of one device when it builds it.
struct MemoryTargetInfo {
  std::string instanceName;                   // plain name without dots, e.g. "hbm0"
  int device;                                 // device id
  uint64_t capacityBytes;                     // every offset on the socket is below this
  uint32_t maxTransactionBytes;               // no payload is longer (power of two, hbm.plugin_max_bytes)
  std::map<std::string, std::string> params;  // configuration keys hbm.plugin.<key>=<value>
};

// How npusim talks to the model: b_transport (loosely timed) or the four phases of
// nb_transport_fw/bw (approximately timed, END_REQ back-pressure respected).
enum class Protocol { LooselyTimed, ApproximatelyTimed };

// Builds one device's memory model during elaboration and binds npusim's initiator socket to it
// (any target socket an initiator socket can bind: simple, passthrough, multi-passthrough).
// Every payload is a read or a write of at most info.maxTransactionBytes, aligned to its own
// power-of-two length, at a byte offset into the device's memory; it carries the extension of
// npusim/transaction.h. Functional data stays in npusim (a read's bytes may be left untouched).
// Throwing, or raising an SC_REPORT error or fatal, fails aclInit with that message.
using MemoryModelBinder =
    std::function<void(tlm::tlm_initiator_socket<>& npusimSide, const MemoryTargetInfo& info)>;
// Refuses (returns false) an empty name, "builtin", a name already taken and an empty binder.
bool registerMemoryModel(const std::string& model, Protocol protocol, MemoryModelBinder binder);

// ---- contract v1 (still accepted) ----

// Builds the memory target of one device and returns its socket; npusim sends it every HBM
// access as one b_transport, unsplit (a DMA burst, a core tile, an unaligned peer access).
using MemoryTargetFactory =
    std::function<tlm::tlm_target_socket<>*(const std::string& instanceName, int device)>;
bool registerMemoryTarget(const std::string& model, MemoryTargetFactory factory);

}  // namespace npusim
