// An HCCS link as a module: its timing is the TLM annotation (arrival in, completion out), each
// direction is its own channel (bandwidth, latency, contention on one direction, full duplex),
// reads bring their data back on the opposite direction, and a device's port routes a transfer
// to the link toward its peer or refuses a peer it has no link to.
#include "models/hccs/hccs_link.h"

#include <gtest/gtest.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/common/sim_time.h"
#include "models/common/transaction.h"
#include "models/hccs/hccs_module.h"
#include "models/pcie/address.h"
#include "npusim/config.h"

using namespace npusim;

namespace {

constexpr Tick kMemoryLatency = 30 * kNs;

// Stands in for a device's memory bus (several links may reach it): a fixed latency, and a
// record of what arrived when.
struct Memory : sc_core::sc_module {
  tlm_utils::multi_passthrough_target_socket<Memory> socket;
  std::vector<std::pair<uint64_t, Tick>> seen;  // (address, arrival)
  Tick maxAhead = 0;                            // how far ahead of the kernel an arrival was
  explicit Memory(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    socket.register_b_transport(this, &Memory::b_transport);
  }
  void b_transport(int, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    seen.push_back({p.get_address(), simNow() + static_cast<Tick>(delay.value())});
    maxAhead = std::max(maxAhead, static_cast<Tick>(delay.value()));
    delay += toScTime(kMemoryLatency);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct Request {
  int socket;  // which initiator socket sends it
  bool write;
  uint64_t address, bytes;
  Tick arrival;
  Tick done = 0;
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
};

// Plays the DMA engines: sends every request from one thread at kernel time 0 with its arrival
// as the annotated delay, and records the completion annotated back.
struct Initiator : sc_core::sc_module {
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<Initiator>>> sockets;
  std::vector<Request> requests;
  PayloadPool pool;
  std::vector<uint8_t> data = std::vector<uint8_t>(1 << 20);
  Initiator(sc_core::sc_module_name n, int count) : sc_module(n) {
    for (int i = 0; i < count; ++i)
      sockets.push_back(std::make_unique<tlm_utils::simple_initiator_socket<Initiator>>(
          ("out" + std::to_string(i)).c_str()));
    SC_THREAD(run);
  }
  SC_HAS_PROCESS(Initiator);
  void run() {
    for (Request& r : requests) {
      tlm::tlm_generic_payload* p = pool.acquire();
      p->set_command(r.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      p->set_address(r.address);
      p->set_data_ptr(data.data());
      p->set_data_length(static_cast<unsigned>(r.bytes));
      p->set_streaming_width(static_cast<unsigned>(r.bytes));
      p->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_core::sc_time delay = toScTime(r.arrival - simNow());
      (*sockets[static_cast<size_t>(r.socket)])->b_transport(*p, delay);
      r.done = simNow() + static_cast<Tick>(delay.value());
      r.status = p->get_response_status();
      p->release();
    }
  }
};

// 50 GB/s is 20 ps per byte; at 80 % efficiency a payload byte takes 25 ps of wire time.
hccs::LinkSpec spec() { return {0, 1, 50.0, 100.0, 0.8}; }
Tick wire(uint64_t payload) { return payload * 25; }
constexpr Tick kLatency = 100 * kNs;

// One link between two memories, the initiator's socket 0 at end a and 1 at end b.
struct LinkBench {
  hccs::HccsLink link{"link", spec()};
  Memory memA{"mem_a"}, memB{"mem_b"};
  Initiator ini{"ini", 2};
  LinkBench() {
    ini.sockets[0]->bind(link.from_a);
    ini.sockets[1]->bind(link.from_b);
    link.to_a.bind(memA.socket);
    link.to_b.bind(memB.socket);
  }
  const std::vector<Request>& run(std::vector<Request> requests) {
    ini.requests = std::move(requests);
    sc_core::sc_start();
    for (const Request& r : ini.requests) EXPECT_EQ(r.status, tlm::TLM_OK_RESPONSE);
    return ini.requests;
  }
};

std::vector<Request> runOnLink(std::vector<Request> requests) { return LinkBench().run(std::move(requests)); }

}  // namespace

TEST(HccsLink, WriteTakesWireTimeAtTheRateLatencyAndTheFarMemory) {
  auto r = runOnLink({{0, true, 0x100, 16000, 0}, {0, true, 0x200, 64, 10 * kUs}});
  // 16000 B at 40 GB/s of data: 400 ns on the wire, 100 ns of flight, 30 ns in the far memory.
  EXPECT_EQ(r[0].done, wire(16000) + kLatency + kMemoryLatency);
  EXPECT_EQ(r[0].done, 530 * kNs);
  // A small write is latency: 1.6 ns of wire time.
  EXPECT_EQ(r[1].done, 10 * kUs + wire(64) + kLatency + kMemoryLatency);
}

TEST(HccsLink, TwoWritesTheSameWayShareTheDirection) {
  auto r = runOnLink({{0, true, 0x100, 16000, 0}, {0, true, 0x200, 16000, 0}});
  EXPECT_EQ(r[0].done, 530 * kNs);
  EXPECT_EQ(r[1].done, 530 * kNs + wire(16000));  // waits for the first to leave the wire
}

TEST(HccsLink, OppositeDirectionsDoNotContend) {
  auto r = runOnLink({{0, true, 0x100, 16000, 0}, {1, true, 0x200, 16000, 0}});
  EXPECT_EQ(r[0].done, 530 * kNs);
  EXPECT_EQ(r[1].done, 530 * kNs);  // full duplex: as if alone
}

TEST(HccsLink, ArbitratesByTimeNotCallOrder) {
  // The later-timed write is called first; the earlier one still goes first into the gap before it
  // (both within the quantum, so neither initiator is held back).
  tlm::tlm_global_quantum::instance().set(toScTime(10 * kUs));
  auto r = runOnLink({{0, true, 0x100, 16000, 2 * kUs}, {0, true, 0x200, 16000, 0}});
  EXPECT_EQ(r[0].done, 2 * kUs + 530 * kNs);
  EXPECT_EQ(r[1].done, 530 * kNs);
}

TEST(HccsLink, ReadCrossesThenItsDataComesBackTheOtherWay) {
  // Request: 100 ns across; far memory 30 ns; data on b->a: 400 ns + 100 ns.
  auto r = runOnLink({{0, false, 0x100, 16000, 0}});
  EXPECT_EQ(r[0].done, kLatency + kMemoryLatency + wire(16000) + kLatency);
}

TEST(HccsLink, ReadDataSharesTheReturnDirectionWithWrites) {
  auto s = runOnLink({{1, true, 0x100, 16000, 0}, {0, false, 0x200, 16000, 0}});
  EXPECT_EQ(s[0].done, 530 * kNs);
  EXPECT_EQ(s[1].done, 400 * kNs + wire(16000) + kLatency);  // b->a is busy until 400 ns
}

TEST(HccsLink, AnInitiatorFarAheadOfTheLinkWaitsAndTheFarMemorySeesWritesInTimeOrder) {
  tlm::tlm_global_quantum::instance().set(toScTime(250 * kNs));
  LinkBench bench;
  std::vector<Request> writes(8, Request{0, true, 0x100, 16000, 0});
  const auto& done = bench.run(writes);
  const Memory& memB = bench.memB;
  // The i-th write leaves at 400 i ns: handed to b's memory no more than a quantum + one burst's
  // wire time + the latency ahead of the kernel, at its arrival, one after the other.
  ASSERT_EQ(memB.seen.size(), 8u);
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(memB.seen[i].second, (400 * i + 500) * kNs);
    EXPECT_EQ(done[i].done, (400 * i + 530) * kNs);
  }
  EXPECT_EQ(sc_core::sc_time_stamp(), toScTime(7 * 400 * kNs));  // waited for the last slot
  EXPECT_LE(memB.maxAhead, 250 * kNs + wire(16000) + kLatency);
}

TEST(HccsLink, ThroughputOfAStreamIsTheRateTimesEfficiency) {
  std::vector<Request> stream;
  for (int i = 0; i < 1000; ++i) stream.push_back({0, true, 0x100, 16384, 0});
  auto r = runOnLink(stream);
  const double seconds = tickToSec(r.back().done - kLatency - kMemoryLatency);
  EXPECT_NEAR(1000.0 * 16384 / seconds / 1e9, 50.0 * 0.8, 1e-6);
}

TEST(HccsPort, RoutesToTheLinkTowardThePeerAndRefusesOthers) {
  std::string path = testing::TempDir() + "/hccs_port.json";
  FILE* f = fopen(path.c_str(), "w");
  fputs(R"({"extends": "910b", "topology": {"hccs": {"pairs": [[0, 1], [0, 2]]}}})", f);
  fclose(f);
  Config cfg = Config::load(path, {"hccs.link_gbps=50", "hccs.efficiency=0.8", "hccs.latency_ns=100"});
  hccs::Topology topo(cfg, 8);
  hccs::HccsModule hccs("hccs", topo);
  EXPECT_EQ(hccs.port(3), nullptr);
  Memory mem0("mem0"), mem1("mem1"), mem2("mem2");
  Initiator ini("ini", 3);
  for (int d = 0; d < 3; ++d) ini.sockets[static_cast<size_t>(d)]->bind(hccs.port(d)->from_dma);
  Memory* mems[] = {&mem0, &mem1, &mem2};
  for (auto& link : hccs.links()) {
    link->to_a.bind(mems[link->spec().a]->socket);
    link->to_b.bind(mems[link->spec().b]->socket);
  }
  ini.requests = {{0, true, pcie::barAddress(2, 0x4000), 16000, 0},
                  {0, true, pcie::barAddress(1, 0x8000), 16000, 0},
                  {1, true, pcie::barAddress(0, 0xc000), 16000, 0},
                  {1, true, pcie::barAddress(2, 0x1000), 64, 0},  // no 1-2 link
                  {0, true, pcie::hostAddress(0x1000), 64, 0}};   // not a peer
  sc_core::sc_start();
  const auto& r = ini.requests;
  // 0->2 and 0->1 are different links: neither waits for the other.
  EXPECT_EQ(r[0].done, 530 * kNs);
  EXPECT_EQ(r[1].done, 530 * kNs);
  EXPECT_EQ(r[2].done, 530 * kNs);
  ASSERT_EQ(mem2.seen.size(), 1u);
  EXPECT_EQ(mem2.seen[0].first, 0x4000u);  // an offset into the peer's memory
  EXPECT_EQ(mem2.seen[0].second, 500 * kNs);
  ASSERT_EQ(mem0.seen.size(), 1u);
  EXPECT_EQ(mem0.seen[0].first, 0xc000u);
  EXPECT_EQ(r[3].status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(r[4].status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(hccs.links()[0]->direction(0).payloadBytes(), 16000u);
}
