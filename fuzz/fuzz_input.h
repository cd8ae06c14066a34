#pragma once
// Reads fuzzer input bytes as small integers and choices. Shared by the fuzz targets and the
// regression tests that replay their inputs in the normal build (so no libFuzzer headers).
#include <cstddef>
#include <cstdint>
#include <string>

namespace npusim::fuzz {

class Input {
 public:
  Input(const uint8_t* data, size_t size) : p_(data), n_(size) {}
  bool empty() const { return n_ == 0; }
  size_t left() const { return n_; }
  uint8_t byte() {
    if (!n_) return 0;
    --n_;
    return *p_++;
  }
  uint32_t u16() { return static_cast<uint32_t>(byte()) | static_cast<uint32_t>(byte()) << 8; }
  uint64_t u32() { return static_cast<uint64_t>(u16()) | static_cast<uint64_t>(u16()) << 16; }
  // One of `n` values (n > 0).
  size_t pick(size_t n) { return byte() % n; }
  template <typename T, size_t N>
  T pickFrom(const T (&values)[N]) {
    return values[pick(N)];
  }
  // The rest of the input up to the next 0 byte (consumed), as text.
  std::string text() {
    std::string s;
    while (n_) {
      char c = static_cast<char>(byte());
      if (c == 0) break;
      s += c;
    }
    return s;
  }

 private:
  const uint8_t* p_;
  size_t n_;
};

}  // namespace npusim::fuzz
