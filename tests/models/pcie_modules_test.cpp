// The PCIe fabric as modules: a transaction passes endpoint -> link -> switch -> ... -> root
// complex -> host memory through TLM-2.0 sockets, each element timing its own part. Checked
// against the Fabric's standalone timing of the same steps: a mixed stream of host reads, host
// writes and peer writes from every device, issued through the endpoints' sockets, completes
// tick for tick when the standalone fabric, fed the same calls at the same kernel times (the
// channels forget gaps the kernel has passed), says it does; and the modules
// route what they cannot carry to an error response.
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <random>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/common/transaction.h"
#include "models/pcie/address.h"
#include "models/pcie/pcie_module.h"
#include "npusim/config.h"

using namespace npusim;

namespace {

struct Call {
  int src, dst;  // dst -1: host memory
  bool write;
  uint64_t bytes;
  Tick arrival = 0, done = 0, want = 0;
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
};

// Stands in for a device's memory bus: takes peer writes.
struct Memory : sc_core::sc_module {
  tlm_utils::simple_target_socket<Memory> socket;
  uint64_t bytes = 0;
  explicit Memory(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    socket.register_b_transport(this, &Memory::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time&) {
    bytes += p.get_data_length();
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// Plays every device's DMA engine: issues the calls in order from one thread.
struct Dma : sc_core::sc_module {
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<Dma>>> sockets;
  std::vector<Call>* calls = nullptr;
  pcie::Fabric* ref = nullptr;  // the same calls on a standalone fabric, at the same kernel times
  PayloadPool pool;
  std::vector<uint8_t> data = std::vector<uint8_t>(16384);
  Dma(sc_core::sc_module_name n, int devices) : sc_module(n) {
    for (int d = 0; d < devices; ++d)
      sockets.push_back(
          std::make_unique<tlm_utils::simple_initiator_socket<Dma>>(("to_npu" + std::to_string(d)).c_str()));
    SC_THREAD(run);
  }
  SC_HAS_PROCESS(Dma);
  // What the standalone fabric says, called as the interconnect called it before the modules.
  Tick reference(const Call& c) {
    if (c.dst >= 0) return ref->peerWrite(c.src, c.dst, c.bytes, c.arrival);
    const Tick enter = c.write ? ref->writeMayEnter(c.src, c.bytes, c.arrival)
                               : ref->readMayIssue(c.src, c.bytes, c.arrival);
    const Tick at = std::max(enter, c.arrival);
    return c.write ? ref->hostWrite(c.src, c.bytes, at) : ref->hostRead(c.src, c.bytes, at);
  }
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
      (*sockets[static_cast<size_t>(c.src)])->b_transport(*p, d);
      c.status = p->get_response_status();
      c.done = static_cast<Tick>(sc_core::sc_time_stamp().value() + d.value());
      p->release();
      if (ref) c.want = reference(c);
      // Keep the issue times rising: the next call starts about when this one was due.
      if (rng() % 4 == 0) sc_core::wait(sc_core::sc_time::from_value(c.arrival - now));
    }
  }
};

}  // namespace

TEST(PcieModules, RoutedThroughTheModulesTickForTickAsTheFabricTimesIt) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  const Config cfg = Config::load("910b");
  tlm::tlm_global_quantum::instance().set(sc_core::sc_time(250, sc_core::SC_NS));
  pcie::PcieModule pcie("pcie", cfg);
  const int n = pcie.fabric().deviceCount();
  Dma dma("dma", n);
  std::vector<std::unique_ptr<Memory>> memories;
  for (int d = 0; d < n; ++d) {
    dma.sockets[static_cast<size_t>(d)]->bind(pcie.endpoint(d).dma);
    memories.push_back(std::make_unique<Memory>(("hbm" + std::to_string(d)).c_str()));
    pcie.endpoint(d).memory.bind(memories.back()->socket);
  }
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
  pcie::Fabric ref(cfg);
  dma.ref = &ref;
  dma.calls = &calls;
  sc_core::sc_start();
  uint64_t peerBytes = 0;
  for (const Call& c : calls) {
    ASSERT_EQ(c.status, tlm::TLM_OK_RESPONSE);
    if (c.dst >= 0) peerBytes += c.bytes;
    EXPECT_GT(c.done, c.arrival);
    EXPECT_EQ(c.done, c.want) << (c.dst >= 0 ? "peer" : c.write ? "write" : "read") << " from " << c.src;
  }
  uint64_t delivered = 0;
  for (const auto& m : memories) delivered += m->bytes;
  EXPECT_EQ(delivered, peerBytes);
  EXPECT_GT(peerBytes, 0u);
}

TEST(PcieModules, WhatTheFabricCannotCarryIsAnErrorResponse) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  const Config cfg = Config::load("910b");
  pcie::PcieModule pcie("pcie", cfg);
  Dma dma("dma", pcie.fabric().deviceCount());
  std::vector<std::unique_ptr<Memory>> memories;
  for (int d = 0; d < pcie.fabric().deviceCount(); ++d) {
    dma.sockets[static_cast<size_t>(d)]->bind(pcie.endpoint(d).dma);
    memories.push_back(std::make_unique<Memory>(("hbm" + std::to_string(d)).c_str()));
    pcie.endpoint(d).memory.bind(memories.back()->socket);
  }
  std::vector<Call> calls = {{0, 1, false, 256}, {0, 99, true, 256}, {0, 1, true, 256}};
  dma.calls = &calls;
  sc_core::sc_start();
  EXPECT_EQ(calls[0].status, tlm::TLM_COMMAND_ERROR_RESPONSE);  // peer reads are not modelled
  EXPECT_EQ(calls[1].status, tlm::TLM_ADDRESS_ERROR_RESPONSE);  // no such device
  EXPECT_EQ(calls[2].status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(memories[1]->bytes, 256u);
}
