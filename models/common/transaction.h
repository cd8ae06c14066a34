#pragma once
// Transactions between the hardware modules: TLM-2.0 generic payloads from a pool, each carrying
// one npusim extension that says who issued it (engine, device, stream, task) and which trace
// flow it belongs to. Third-party targets may ignore the extension.
#include <cstdint>
#include <tlm>
#include <vector>

namespace npusim {

enum class Engine : uint8_t { Other, Dma, Mte };

// A packet's progress through an interconnect that times it element by element (the PCIe
// modules): when its first and last bytes reach the next element, what it puts on each link
// (wire bytes, payload, the ACK bytes it causes the other way), and when its last byte left the
// first link (`left`, set by the first hop).
struct Transit {
  uint64_t head = 0, tail = 0, left = 0;  // Ticks
  uint64_t wire = 0, payload = 0, revWire = 0;
  bool first = true;
  void delay(uint64_t ticks) {  // a fixed latency (a switch, the root complex)
    head += ticks;
    tail += ticks;
  }
};

struct TransactionInfo : tlm::tlm_extension<TransactionInfo> {
  Engine engine = Engine::Other;
  int engineIndex = 0;  // DMA channel or AI core
  int device = -1;      // device that issued it
  uint64_t stream = 0;  // stream id of the task (0 = none)
  uint64_t task = 0;    // task id (0 = none)
  uint64_t traceFlow = 0;
  // A posted write through an interconnect annotates its delivery at the far end; when the
  // memory there completes it later, that time is recorded here (0 = not known).
  uint64_t memoryDone = 0;
  Transit transit;  // timing state while an interconnect carries it

  tlm::tlm_extension_base* clone() const override { return new TransactionInfo(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override {
    *this = static_cast<const TransactionInfo&>(e);
  }
};

// Generic payloads, recycled: an initiator acquires one, and the last release() (by whichever
// module holds it last) returns it here. Each payload keeps its TransactionInfo for life.
class PayloadPool : public tlm::tlm_mm_interface {
 public:
  PayloadPool() = default;
  PayloadPool(const PayloadPool&) = delete;
  PayloadPool& operator=(const PayloadPool&) = delete;
  ~PayloadPool() override {
    for (tlm::tlm_generic_payload* p : all_) delete p;  // the payload deletes its extension
  }

  // A payload with reference count 1 and a reset TransactionInfo.
  tlm::tlm_generic_payload* acquire() {
    tlm::tlm_generic_payload* p;
    if (free_.empty()) {
      p = new tlm::tlm_generic_payload(this);
      p->set_extension(new TransactionInfo);
      all_.push_back(p);
    } else {
      p = free_.back();
      free_.pop_back();
      *p->get_extension<TransactionInfo>() = TransactionInfo();
    }
    p->acquire();
    return p;
  }
  void free(tlm::tlm_generic_payload* p) override { free_.push_back(p); }
  size_t allocated() const { return all_.size(); }

 private:
  std::vector<tlm::tlm_generic_payload*> all_;
  std::vector<tlm::tlm_generic_payload*> free_;
};

inline TransactionInfo& info(tlm::tlm_generic_payload& p) { return *p.get_extension<TransactionInfo>(); }

}  // namespace npusim
