#pragma once
// The way from a device's memory bus into a memory plug-in's model (include/npusim/tlm_plugin.h,
// contract v2). It makes every access what the contract promises: pieces of at most
// `maxBytes`, each aligned to its own power-of-two length, each carrying the public
// TransactionOrigin extension, all pointing into the caller's data. It speaks the protocol the
// model asked for:
//  - LooselyTimed: one b_transport per piece, every piece arriving when the access arrives; the
//    access completes when its last piece does.
//  - ApproximatelyTimed: the caller's thread waits until the access's arrival, then sends the
//    pieces with BEGIN_REQ one after the other, each once the previous one's END_REQ came
//    (request exclusion on the socket, shared by all callers), so a model keeps as many in flight
//    as its request buffer takes; every legal answer on both paths is handled; the access
//    completes when the last response arrives.
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <map>
#include <systemc>
#include <tlm>

#include "models/common/tick.h"
#include "models/common/transaction.h"
#include "npusim/tlm_plugin.h"

namespace npusim {

class PluginPort : public sc_core::sc_module, public tlm::tlm_bw_transport_if<> {
 public:
  PluginPort(sc_core::sc_module_name name, Protocol protocol, uint32_t maxBytes);

  tlm_utils::simple_target_socket<PluginPort> in;  // from the memory bus
  tlm::tlm_initiator_socket<> out;                 // bound by the plug-in's binder

  // The length of the piece at `addr` with `remaining` bytes left: the largest power of two
  // that is at most `maxBytes` and `remaining` and divides `addr`.
  static uint32_t pieceLength(uint64_t addr, uint64_t remaining, uint32_t maxBytes);
  uint64_t pieces() const { return pieces_; }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& q, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  // One b_transport under way in approximately-timed mode.
  struct Access {
    int remaining = 0;
    Tick done = 0;
    tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
    sc_core::sc_event finished;
  };

  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& p) { return out->transport_dbg(p); }
  tlm::tlm_generic_payload* piece(tlm::tlm_generic_payload& p, uint64_t offset, uint32_t bytes);
  Tick looselyTimed(tlm::tlm_generic_payload& p, Tick arrival);
  Tick approximatelyTimed(tlm::tlm_generic_payload& p, Tick arrival);
  void sendPiece(tlm::tlm_generic_payload& q, Access& a);
  void requestEnded(tlm::tlm_generic_payload& q);
  void responded(tlm::tlm_generic_payload& q, Tick at);

  Protocol protocol_;
  uint32_t max_;
  PayloadPool pool_;
  uint64_t pieces_ = 0;
  tlm::tlm_generic_payload* requesting_ = nullptr;  // BEGIN_REQ sent, END_REQ not yet seen
  sc_core::sc_event requestFree_;
  std::map<tlm::tlm_generic_payload*, Access*> open_;  // pieces awaiting their response
};

}  // namespace npusim
