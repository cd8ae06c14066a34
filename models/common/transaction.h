#pragma once
// Transactions between the hardware modules: TLM-2.0 generic payloads from a pool, each carrying
// one npusim extension that says who issued it (engine, device, stream, task) and which trace
// flow it belongs to. Third-party targets may ignore the extension.
#include <cstdint>
#include <tlm>
#include <vector>

namespace npusim {

class AccessWaiter;

enum class Engine : uint8_t { Other, Dma, Mte };

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
  // A packet crossing the PCIe modules is timed cut-through: the annotated delay is the
  // arrival of its first byte, and its last byte follows this many ticks later (set by the
  // element that last serialised it). A pass-through module that adds latency to the delay and
  // forwards this untouched moves head and tail together, which is exactly a fixed latency.
  uint64_t tailAfterHead = 0;
  // A posted write whose initiator takes the memory's completion later (a DMA peer write): a
  // memory port that would otherwise hold the delivery until the memory completed the write (an
  // approximately-timed plug-in) takes it at once, announces it here and answers with postedTag
  // when the memory is done, leaving memoryDone 0. Null: the delivery returns with memoryDone.
  AccessWaiter* postedTo = nullptr;
  uint64_t postedTag = 0;

  tlm::tlm_extension_base* clone() const override { return new TransactionInfo(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override {
    *this = static_cast<const TransactionInfo&>(e);
  }
};

// Generic payloads, recycled: an initiator acquires one, and the last release() (by whichever
// module holds it last) returns it here. Each payload keeps its TransactionInfo for life, and
// the pool keeps a pointer to it, so an initiator fills it in without an extension lookup.
class PayloadPool : public tlm::tlm_mm_interface {
 public:
  PayloadPool() = default;
  PayloadPool(const PayloadPool&) = delete;
  PayloadPool& operator=(const PayloadPool&) = delete;
  ~PayloadPool() override {
    for (Pooled* p : all_) delete p;  // the payload deletes its extension
  }

  // A payload with reference count 1 and a reset TransactionInfo, which goes in *x when asked.
  tlm::tlm_generic_payload* acquire(TransactionInfo** x = nullptr) {
    Pooled* p;
    if (free_.empty()) {
      p = new Pooled(this);
      p->info = new TransactionInfo;
      p->set_extension(p->info);
      all_.push_back(p);
    } else {
      p = free_.back();
      free_.pop_back();
      *p->info = TransactionInfo();
    }
    p->acquire();
    if (x) *x = p->info;
    return p;
  }
  void free(tlm::tlm_generic_payload* p) override { free_.push_back(static_cast<Pooled*>(p)); }
  size_t allocated() const { return all_.size(); }

 private:
  struct Pooled : tlm::tlm_generic_payload {
    explicit Pooled(tlm::tlm_mm_interface* mm) : tlm::tlm_generic_payload(mm) {}
    TransactionInfo* info = nullptr;
  };
  std::vector<Pooled*> all_;
  std::vector<Pooled*> free_;
};

inline TransactionInfo& info(tlm::tlm_generic_payload& p) { return *p.get_extension<TransactionInfo>(); }

}  // namespace npusim
