#pragma once
// A TLM-2.0 initiator socket that reaches one device's memory: each access becomes a generic
// payload (from the pool, with the npusim extension) sent by b_transport with the arrival as
// the annotated delay; the completion is the time the target annotates back. Addresses are
// translated to offsets into the device's HBM (AI-core MTEs use device virtual addresses). A
// write's data pointer holds the bytes written; a read's points at a scratch buffer the target
// may fill (functional data stays in npusim's own store, so targets may ignore it).
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/memory_port.h"
#include "models/common/transaction.h"

namespace npusim {

struct DeviceAddressSpace {
  uint64_t base = 0;           // device virtual address of offset 0 (0 = addresses are offsets)
  uint64_t capacity = 1;       // bytes of HBM
  uint8_t* backing = nullptr;  // functional bytes of offset 0 (null: a scratch buffer stands in)
};

class MemoryInitiator : public MemoryPort {
 public:
  MemoryInitiator(const char* socketName, Engine engine, int device);

  tlm_utils::simple_initiator_socket<MemoryInitiator> socket;

  void setAddressSpace(const DeviceAddressSpace& s) { space_ = s; }
  // Who the next accesses are for (extension fields).
  void setContext(int engineIndex, uint64_t task, uint64_t stream = 0) {
    engineIndex_ = engineIndex, task_ = task, stream_ = stream;
  }
  Tick access(uint64_t addr, uint64_t bytes, bool write, Tick arrival) override;
  // One transaction at `addr` as is (no translation), with the caller's data pointer.
  Tick transport(uint64_t addr, uint64_t bytes, bool write, Tick arrival, uint8_t* data);
  uint64_t offsetOf(uint64_t addr) const;
  // The extension's memoryDone of the last transport (a posted write's completion far away).
  Tick lastMemoryDone() const { return lastMemoryDone_; }

 private:
  uint8_t* dataFor(uint64_t offset, uint64_t bytes, bool write);

  Engine engine_;
  int device_;
  int engineIndex_ = 0;
  uint64_t task_ = 0, stream_ = 0;
  DeviceAddressSpace space_;
  PayloadPool pool_;
  std::vector<uint8_t> scratch_;
  Tick lastMemoryDone_ = 0;
};

}  // namespace npusim
