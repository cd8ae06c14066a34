// The PCIe fabric as modules: a transaction passes endpoint -> link -> switch -> ... -> root
// complex -> host memory through TLM-2.0 sockets, each element timing its own part through the
// delay annotation. A plain third-party TLM module bound between a switch's link and the root
// complex (a simple_target_socket + simple_initiator_socket pass-through that adds a fixed delay)
// is timed like any other element: with no delay, a mixed stream of host reads, host writes and
// peer writes from every device completes tick for tick as without it; with a delay d, a lone
// transfer takes exactly d longer per crossing. The modules route what they cannot carry to an
// error response.
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <random>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/common/transaction.h"
#include "models/pcie/address.h"
#include "models/pcie/pcie_module.h"
#include "npusim/config.h"
#include "tests/models/pcie_rig.h"

using namespace npusim;
using test::PcieRig;

namespace {

// A plain TLM-2.0 pass-through that knows nothing of npusim: `forward` is added to the delay on
// the way in, `back` on the way out.
struct Delay : sc_core::sc_module {
  tlm_utils::simple_target_socket<Delay> in;
  tlm_utils::simple_initiator_socket<Delay> out;
  sc_core::sc_time forward, back;
  Delay(sc_core::sc_module_name n, sc_core::sc_time f, sc_core::sc_time b)
      : sc_module(n), in("in"), out("out"), forward(f), back(b) {
    in.register_b_transport(this, &Delay::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    delay += forward;
    out->b_transport(p, delay);
    delay += back;
  }
};

// Puts a Delay each way between every switch's link and the root complex.
struct Interposers {
  std::vector<std::unique_ptr<Delay>> all;
  sc_core::sc_time forward, back;
  pcie::InterposerFactory factory() {
    return [this](const std::string& link) {
      if (link.rfind("switch", 0) != 0) return pcie::Interposer{};
      all.push_back(std::make_unique<Delay>((link + "_up_delay").c_str(), forward, back));
      Delay& up = *all.back();
      all.push_back(std::make_unique<Delay>((link + "_down_delay").c_str(), forward, back));
      Delay& down = *all.back();
      return pcie::Interposer{&up.in, &up.out, &down.in, &down.out};
    };
  }
};

struct Call {
  int src, dst;  // dst -1: host memory
  bool write;
  uint64_t bytes;
  Tick arrival = 0, done = 0;
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
};

// Plays every device's DMA engine: issues the calls in order from one thread.
struct Dma : sc_core::sc_module {
  PcieRig* rig = nullptr;
  std::vector<Call>* calls = nullptr;
  PayloadPool pool;
  std::vector<uint8_t> data = std::vector<uint8_t>(16384);
  Dma(sc_core::sc_module_name n, PcieRig& r, std::vector<Call>& c) : sc_module(n), rig(&r), calls(&c) {
    SC_THREAD(run);
  }
  SC_HAS_PROCESS(Dma);
  void run() {
    std::mt19937 rng(7);
    for (Call& c : *calls) {
      const Tick now = static_cast<Tick>(sc_core::sc_time_stamp().value());
      c.arrival = now + rng() % (2 * kUs);
      tlm::tlm_generic_payload* p = pool.acquire();
      p->set_command(c.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      p->set_address(c.dst < 0 ? pcie::hostAddress(0x1000) : pcie::barAddress(c.dst, 0x2000));
      p->set_data_ptr(data.data());
      p->set_data_length(static_cast<unsigned>(c.bytes));
      p->set_streaming_width(static_cast<unsigned>(c.bytes));
      p->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      info(*p).device = c.src;
      sc_core::sc_time d = sc_core::sc_time::from_value(c.arrival - now);
      rig->transport(c.src, *p, d);
      c.status = p->get_response_status();
      c.done = static_cast<Tick>(sc_core::sc_time_stamp().value() + d.value());
      p->release();
      // Keep the issue times rising: the next call starts about when this one was due.
      if (rng() % 4 == 0) sc_core::wait(sc_core::sc_time::from_value(c.arrival - now));
    }
  }
};

std::vector<Call> mixedCalls(int n) {
  std::vector<Call> calls;
  std::mt19937 rng(11);
  const uint64_t sizes[] = {256, 4096, 16384};
  for (int i = 0; i < 600; ++i) {
    const int src = static_cast<int>(rng() % static_cast<unsigned>(n));
    const unsigned kind = rng() % 4;  // read, write, peer in the same switch, peer across
    int dst = -1;
    if (kind >= 2) dst = kind == 2 ? (src ^ 1) : (src + 4) % n;
    calls.push_back({src, dst, kind != 0, sizes[rng() % 3]});
  }
  return calls;
}

}  // namespace

TEST(PcieModules, AZeroDelayThirdPartyModuleBetweenSwitchAndRootComplexChangesNoTick) {
  const Config cfg = Config::load("910b");
  tlm::tlm_global_quantum::instance().set(sc_core::sc_time(250, sc_core::SC_NS));
  Interposers zero;
  PcieRig plain("plain", cfg), interposed("interposed", cfg, zero.factory());
  ASSERT_EQ(zero.all.size(), 4u);  // two switches, a delay each way
  const int n = plain.fabric().deviceCount();
  std::vector<Call> a = mixedCalls(n), b = a;
  Dma da("dma_plain", plain, a), db("dma_interposed", interposed, b);
  sc_core::sc_start();
  uint64_t peerBytes = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].status, tlm::TLM_OK_RESPONSE);
    ASSERT_EQ(b[i].status, tlm::TLM_OK_RESPONSE);
    if (a[i].dst >= 0) peerBytes += a[i].bytes;
    EXPECT_GT(a[i].done, a[i].arrival);
    EXPECT_EQ(a[i].arrival, b[i].arrival);
    EXPECT_EQ(a[i].done, b[i].done) << (a[i].dst >= 0 ? "peer"
                                        : a[i].write  ? "write"
                                                      : "read")
                                    << " from " << a[i].src;
  }
  uint64_t delivered = 0;
  for (const auto& m : plain.memory) delivered += m->bytes;
  EXPECT_EQ(delivered, peerBytes);
  EXPECT_GT(peerBytes, 0u);
}

TEST(PcieModules, AFixedDelayModuleAddsExactlyItsDelayPerCrossing) {
  // Device 0 is under switch 0, device 1 beside it, device 4 under switch 1; P2P between the
  // switches goes through the root complex (system.p2p_across_switches).
  const Config cfg = Config::load("910b", {"system.p2p_across_switches=true"});
  const sc_core::sc_time d(37, sc_core::SC_NS);
  Interposers onTheWayIn, onTheWayOut;
  onTheWayIn.forward = d;
  onTheWayOut.back = d;
  PcieRig plain("plain", cfg), in("in", cfg, onTheWayIn.factory()), out("out", cfg, onTheWayOut.factory());
  test::elaborate();
  const Tick dt = static_cast<Tick>(d.value());
  // Lone transfers, far apart: each meets an idle fabric.
  Tick t = 0;
  auto next = [&t] { return t += 100 * kUs; };
  for (uint64_t bytes : {64u, 4096u, 16384u}) {
    Tick at = next();
    const Tick write = plain.hostWrite(0, bytes, at);
    EXPECT_EQ(in.hostWrite(0, bytes, at) - write, dt);   // up once
    EXPECT_EQ(out.hostWrite(0, bytes, at) - write, dt);  // its reply, once
    at = next();
    const Tick read = plain.hostRead(0, bytes, at);
    EXPECT_EQ(in.hostRead(0, bytes, at) - read, dt);   // the request up
    EXPECT_EQ(out.hostRead(0, bytes, at) - read, dt);  // the completion down
    at = next();
    EXPECT_EQ(in.peerWrite(0, 1, bytes, at), plain.peerWrite(0, 1, bytes, at));  // stays in switch 0
    at = next();
    const Tick across = plain.peerWrite(0, 4, bytes, at);
    EXPECT_EQ(in.peerWrite(0, 4, bytes, at) - across, 2 * dt);  // up one switch link, down the other
    EXPECT_EQ(out.peerWrite(0, 4, bytes, at) - across, 2 * dt);
  }
}

TEST(PcieModules, WhatTheFabricCannotCarryIsAnErrorResponse) {
  PcieRig rig("rig", Config::load("910b"));
  test::elaborate();
  auto send = [&rig](uint64_t addr, bool write) {
    tlm::tlm_generic_payload p;
    TransactionInfo* x = new TransactionInfo;
    p.set_extension(x);
    uint8_t data[256] = {};
    p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    p.set_address(addr);
    p.set_data_ptr(data);
    p.set_data_length(256);
    p.set_streaming_width(256);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    rig.transport(0, p, delay);
    return p.get_response_status();
  };
  EXPECT_EQ(send(pcie::barAddress(1, 0), false),
            tlm::TLM_COMMAND_ERROR_RESPONSE);  // peer reads: not modelled
  EXPECT_EQ(send(pcie::barAddress(99, 0), true), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // no such device
  EXPECT_EQ(send(pcie::barAddress(1, 0), true), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(rig.memory[1]->bytes, 256u);
}
