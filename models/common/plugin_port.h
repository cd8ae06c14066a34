#pragma once
// The way from a device's memory bus into a memory plug-in's model (include/npusim/tlm_plugin.h,
// contract v2). It makes every access what the contract promises: pieces of at most
// `maxBytes`, each aligned to its own power-of-two length, each carrying the public
// TransactionOrigin extension, all pointing into the caller's data. It speaks the protocol the
// model asked for:
//  - LooselyTimed: one b_transport per piece, every piece arriving when the access arrives; the
//    access completes when its last piece does.
//  - ApproximatelyTimed: accesses are queued in order of arrival (ties in the order they came)
//    and cut into pieces sent with BEGIN_REQ one after the other, each once the previous one's
//    END_REQ came (request exclusion on the socket), so a model keeps as many in flight as its
//    request buffer takes; every legal answer on both paths is handled; the access completes when
//    its last response arrives. Accesses come two ways: nb_transport_fw from an AT initiator (the
//    DMA channels, the MTEs), which gets END_REQ once the model accepted the access's last piece
//    (the model's back-pressure reaches it) and BEGIN_RESP at the last response, one response at
//    a time; or b_transport (PCIe and HCCS deliveries), whose caller waits, unless it is a
//    posted write whose initiator named a waiter (TransactionInfo::postedTo): that one is
//    copied and queued, the call returns at once, and the waiter gets the completion, so a DMA
//    channel's peer writes keep its window in flight as its local ones do. One method process
//    feeds the model, driven by an event: no process per transaction.
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <deque>
#include <map>
#include <systemc>
#include <tlm>

#include "models/common/access_waiter.h"
#include "models/common/tick.h"
#include "models/common/transaction.h"
#include "npusim/tlm_plugin.h"

namespace npusim {

class PluginPort : public sc_core::sc_module, public tlm::tlm_bw_transport_if<> {
 public:
  SC_HAS_PROCESS(PluginPort);
  PluginPort(sc_core::sc_module_name name, Protocol protocol, uint32_t maxBytes);
  ~PluginPort() override;

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
  // One access from the bus on its way through the model (approximately-timed mode).
  struct Access {
    tlm::tlm_generic_payload* p = nullptr;
    Tick arrival = 0;
    uint64_t seq = 0;
    uint64_t next = 0;  // offset of the next piece to send
    int open = 0;       // pieces sent and not answered
    Tick done = 0;
    tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
    sc_core::sc_event* finished = nullptr;  // b_transport: its caller waits for this
    tlm::tlm_generic_payload* lastPiece = nullptr;
    AccessWaiter* postedTo = nullptr;  // a posted write: its answer goes there, not to the bus
    uint64_t postedTag = 0;
    bool sent() const { return next == p->get_data_length(); }
  };

  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& p) { return out->transport_dbg(p); }
  tlm::tlm_generic_payload* piece(tlm::tlm_generic_payload& p, uint64_t offset, uint32_t bytes);
  Tick looselyTimed(tlm::tlm_generic_payload& p, Tick arrival);
  void post(tlm::tlm_generic_payload& p, const TransactionInfo& x, Tick arrival);
  void enqueue(Access* a);
  void feed();
  void sendPiece(tlm::tlm_generic_payload& q);
  void requestEnded(tlm::tlm_generic_payload& q, Tick at);
  void responded(tlm::tlm_generic_payload& q, Tick at);
  void respondNext();
  void responseEnded(Access* a);

  Protocol protocol_;
  uint32_t max_;
  PayloadPool pool_;
  uint64_t pieces_ = 0, seq_ = 0;
  std::deque<Access*> queue_;  // accesses not fully sent, by (arrival, seq)
  bool feeding_ = false;
  sc_core::sc_event feedEvent_;
  tlm::tlm_generic_payload* requesting_ = nullptr;        // BEGIN_REQ sent, END_REQ not yet seen
  Tick requestFreeAt_ = 0;                                // no piece's BEGIN_REQ before this
  std::map<tlm::tlm_generic_payload*, Access*> open_;     // pieces awaiting their response
  std::map<tlm::tlm_generic_payload*, Access*> fromBus_;  // AT accesses not yet answered
  std::deque<Access*> responses_;                         // AT accesses complete, BEGIN_RESP not yet sent
  Access* responding_ = nullptr;                          // BEGIN_RESP sent, END_RESP not yet seen
};

}  // namespace npusim
