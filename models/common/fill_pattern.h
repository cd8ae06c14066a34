#pragma once
// What a memset writes: a 4-byte pattern repeated from the start of the range (aclrtMemset's
// byte four times, aclrtMemsetD32's word). `phase` is the offset of `d` from that start, so a
// range filled piece by piece (DMA bursts) reads the same as one filled at once.
#include <cstdint>
#include <cstring>

namespace npusim {

inline uint32_t bytePattern(uint8_t b) { return 0x01010101u * b; }

inline void fillPattern(uint8_t* d, uint64_t n, uint32_t pattern, uint64_t phase) {
  uint8_t p[4];
  std::memcpy(p, &pattern, 4);
  if (p[0] == p[1] && p[1] == p[2] && p[2] == p[3]) {
    std::memset(d, p[0], n);
    return;
  }
  uint64_t i = 0;
  for (; i < n && (phase + i) % 4 != 0; ++i) d[i] = p[(phase + i) % 4];
  for (; i + 4 <= n; i += 4) std::memcpy(d + i, p, 4);
  for (; i < n; ++i) d[i] = p[(phase + i) % 4];
}

}  // namespace npusim
