#pragma once
// One PCIe link: two independent directions (full duplex), each a Channel at the link's
// symbol rate, plus the one-way latency of the PHY/data-link pipelines and flight.
#include <fmt/format.h>

#include <string>

#include "models/common/channel.h"
#include "models/pcie/tlp.h"

namespace npusim::pcie {

struct Link {
  Link(const std::string& name, int gen_, int width_, Tick latency_)
      : gen(gen_),
        width(width_),
        latency(latency_),
        up(name + " up", laneBytesPerSec(gen_) * width_),
        down(name + " down", laneBytesPerSec(gen_) * width_) {}
  int gen;
  int width;
  Tick latency;
  Channel up;    // toward the root complex
  Channel down;  // away from the root complex
  // When the last byte of the latest packet sent up left the lower end: a device's transmit
  // queue holds a posted write until then (endpoint.h).
  Tick lastUpLeft = 0;
  std::string label() const { return fmt::format("Gen{} x{}", gen, width); }
};

}  // namespace npusim::pcie
