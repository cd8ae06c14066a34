#pragma once
// The extension npusim installs on every payload a memory plug-in receives
// (include/npusim/tlm_plugin.h): who issued the access, so a model can map initiators to its
// ports or account traffic per engine. Read it with
//   const npusim::TransactionOrigin* o = payload.get_extension<npusim::TransactionOrigin>();
// It is never null on a payload from npusim; a model must not remove or change it.
#include <cstdint>
#include <tlm>

namespace npusim {

enum class InitiatorKind : uint8_t {
  Other,   // anything else (a peer device's write through PCIe carries the sender's kind)
  Dma,     // a DMA channel: index = channel
  AiCore,  // an AI core's MTE: index = core
};

struct TransactionOrigin : tlm::tlm_extension<TransactionOrigin> {
  int device = -1;  // the device that issued the access
  InitiatorKind kind = InitiatorKind::Other;
  int index = 0;        // DMA channel or AI core
  uint64_t stream = 0;  // stream id of the task (0 = none)
  uint64_t task = 0;    // task id (0 = none)

  tlm::tlm_extension_base* clone() const override { return new TransactionOrigin(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override {
    *this = static_cast<const TransactionOrigin&>(e);
  }
};

}  // namespace npusim
