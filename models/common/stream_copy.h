#pragma once
// The functional bytes of a large copy, stored past the host's caches. A copy of many megabytes
// is cut into bursts of a few hundred bytes, and between two bursts the models time them (HBM
// banks, channel gaps, read tags): with ordinary stores every destination line is first read
// for ownership and then pushes that model state out of the nearer caches. Non-temporal stores
// do neither. Nothing reads such a destination soon enough to find it cached anyway; small
// copies, whose bytes a kernel may read next, keep memmove.
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace npusim {

// Copies `n` bytes from `s` to `d`, which must not overlap.
inline void streamCopy(uint8_t* d, const uint8_t* s, uint64_t n) {
#if defined(__SSE2__)
  const uint64_t head = (16 - (reinterpret_cast<uintptr_t>(d) & 15)) & 15;  // to d's first 16 B boundary
  if (n < head + 64) {
    std::memcpy(d, s, n);
    return;
  }
  std::memcpy(d, s, head);
  d += head, s += head, n -= head;
  for (; n >= 64; d += 64, s += 64, n -= 64) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 32));
    const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(d), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + 48), e);
  }
  std::memcpy(d, s, n);
#else
  std::memcpy(d, s, n);
#endif
}

// Orders the streamed stores before every later store: called once a copy's bytes are all
// written, before the copy is reported complete to any other thread.
inline void streamCopyDone() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

// Copies at least this long stream (8 MiB: several times a host core's L2, and more than the
// share of a shared L3 a destination could keep while the rest of the simulator runs).
constexpr uint64_t kStreamCopyMinBytes = 8ull << 20;

}  // namespace npusim
