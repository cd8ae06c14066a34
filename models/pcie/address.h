#pragma once
// Addresses on the PCIe fabric's sockets. A DMA engine names host memory or a peer device's
// memory by address, and every PCIe module routes by it:
//  - host window: host memory (reads are non-posted requests answered by completions, writes
//    are posted), up through the device's link, its switches and the root complex;
//  - a device's BAR window: a peer write, routed through the common switch (or the root
//    complex) and delivered to that device's memory bus as an offset into its HBM.
#include <cstdint>

namespace npusim::pcie {

constexpr uint64_t kHostWindow = 1ull << 62;
constexpr uint64_t kBarWindow = 1ull << 61;
constexpr int kBarShift = 44;  // 16 TiB per device BAR, above any HBM capacity

inline uint64_t hostAddress(uint64_t a) { return kHostWindow | (a & (kHostWindow - 1)); }
inline uint64_t barAddress(int device, uint64_t offset) {
  return kBarWindow | (static_cast<uint64_t>(device) << kBarShift) | offset;
}
inline bool isHost(uint64_t a) { return (a & kHostWindow) != 0; }
inline bool isBar(uint64_t a) { return !isHost(a) && (a & kBarWindow) != 0; }
inline int barDevice(uint64_t a) { return static_cast<int>((a & (kBarWindow - 1)) >> kBarShift); }
inline uint64_t barOffset(uint64_t a) { return a & ((1ull << kBarShift) - 1); }

}  // namespace npusim::pcie
