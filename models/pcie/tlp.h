#pragma once
// PCIe protocol arithmetic: how many bytes a transfer puts on the wire in each direction
// (TLP headers, framing, LCRC, completions split at the read-completion size, DLLP ACKs),
// and the per-lane symbol rate of each generation after line encoding.
#include <cstdint>

namespace npusim::pcie {

// Bytes per second per lane per direction after encoding (8b/10b for Gen1/2, 128b/130b for
// Gen3-5, FLIT for Gen6), from hardware.md §3.1.
double laneBytesPerSec(int gen);

struct Protocol {
  uint32_t mps = 256;              // max payload per TLP
  uint32_t mrrs = 512;             // max read request
  uint32_t completionBytes = 64;   // RC completion size for device reads of host memory
  uint32_t requestHeader = 16;     // 4DW header
  uint32_t completionHeader = 12;  // 3DW CplD header
  uint32_t framing = 8;            // STP token + LCRC
  uint32_t dllp = 8;               // ACK / UpdateFC DLLP
  uint32_t tlpsPerAck = 1;

  static uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

  // Posted writes (MWr) carrying `bytes`, and the ACK DLLPs they cause in reverse.
  uint64_t writeTlps(uint64_t bytes) const { return ceilDiv(bytes, mps); }
  uint64_t writeWire(uint64_t bytes) const { return bytes + writeTlps(bytes) * (requestHeader + framing); }
  // Read requests (MRd, no payload) for `bytes`.
  uint64_t readRequests(uint64_t bytes) const { return ceilDiv(bytes, mrrs); }
  uint64_t readRequestWire(uint64_t bytes) const { return readRequests(bytes) * (requestHeader + framing); }
  // Completions with data (CplD) returning `bytes` of a read of host memory.
  uint64_t completions(uint64_t bytes) const { return ceilDiv(bytes, completionBytes); }
  uint64_t completionWire(uint64_t bytes) const {
    return bytes + completions(bytes) * (completionHeader + framing);
  }
  uint64_t ackWire(uint64_t tlps) const { return ceilDiv(tlps, tlpsPerAck) * dllp; }
};

}  // namespace npusim::pcie
