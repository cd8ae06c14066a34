// The PCIe fabric: protocol arithmetic, switch-hop latency, routes and topology validation;
// transfers are timed by its modules, driven from the test (pcie_rig.h).
#include "models/pcie/fabric.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "models/pcie/tlp.h"
#include "npusim/config.h"
#include "tests/models/pcie_rig.h"

using npusim::Config;
using npusim::ConfigError;
using npusim::nsToTick;
using npusim::Tick;
using npusim::tickToNs;
using npusim::pcie::Fabric;
using npusim::test::PcieRig;

TEST(Tlp, WireBytesFollowTheProtocol) {
  npusim::pcie::Protocol
      p;  // MPS 256, MRRS 512, 64 B completions, 4DW requests, 3DW completions, 8 B framing
  EXPECT_EQ(p.writeWire(256), 256u + 16 + 8);
  EXPECT_EQ(p.writeWire(257), 257u + 2 * (16 + 8));
  EXPECT_EQ(p.readRequestWire(1024), 2u * (16 + 8));
  EXPECT_EQ(p.completionWire(256), 256u + 4 * (12 + 8));
  EXPECT_EQ(p.ackWire(5), 5u * 8);
  EXPECT_NEAR(npusim::pcie::laneBytesPerSec(4) * 16 / 1e9, 31.508, 0.001);
  EXPECT_NEAR(npusim::pcie::laneBytesPerSec(3) * 16 / 1e9, 15.754, 0.001);
  EXPECT_NEAR(npusim::pcie::laneBytesPerSec(5) * 16 / 1e9, 63.015, 0.001);
}

// Latency of a lone 64 B transfer from device 0 (under switch 0), each on a fresh fabric.
static Tick lone(PcieRig& r, const char* kind) {
  if (std::string(kind) == "write") return r.hostWrite(0, 64, 0);
  if (std::string(kind) == "read") return r.hostRead(0, 64, 0);
  return r.peerWrite(0, 1, 64, 0);
}

TEST(Fabric, ASwitchHopAddsItsConfiguredLatency) {
  // A posted write to the host crosses switch 0 once; a read crosses it twice (request up,
  // completion down); a P2P write under the switch crosses it once.
  std::vector<std::unique_ptr<PcieRig>> fast, slow;
  for (int i = 0; i < 3; ++i) {
    const std::string n = std::to_string(i);
    fast.push_back(std::make_unique<PcieRig>(("fast" + n).c_str(),
                                             Config::load("910b", {"pcie.switch_latency_ns=105"})));
    slow.push_back(std::make_unique<PcieRig>(("slow" + n).c_str(),
                                             Config::load("910b", {"pcie.switch_latency_ns=1105"})));
  }
  npusim::test::elaborate();
  EXPECT_EQ(lone(*slow[0], "write") - lone(*fast[0], "write"), nsToTick(1000));
  EXPECT_EQ(lone(*slow[1], "read") - lone(*fast[1], "read"), nsToTick(2000));
  EXPECT_EQ(lone(*slow[2], "peer") - lone(*fast[2], "peer"), nsToTick(1000));
}

TEST(Fabric, NestedSwitchesAddAHopEach) {
  // 910b-nested: device 0 sits under a leaf switch under a top switch.
  PcieRig flatRig("flat", Config::load("910b"));
  PcieRig nestedRig("nested", Config::load("910b-nested"));
  npusim::test::elaborate();
  Fabric& flat = flatRig.fabric();
  Fabric& nested = nestedRig.fabric();
  Tick extra = nestedRig.hostWrite(0, 64, 0) - flatRig.hostWrite(0, 64, 0);
  // One more switch on the way up; the link between two switches adds no PHY latency of its own
  // (a switch's port-to-port latency covers its ports, see pcie.link_latency_ns).
  Config c = Config::load("910b");
  Tick expected = nsToTick(c.getFloat("pcie.switch_latency_ns"));
  EXPECT_NEAR(tickToNs(extra), tickToNs(expected), 1.0);
  EXPECT_TRUE(nested.sameSwitch(0, 7));  // common top switch
  EXPECT_FALSE(flat.sameSwitch(0, 7));   // only the root complex in common
  auto r = nested.route(0, 5);
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[2], "Top switch");
}

TEST(Fabric, TopologyIsValidated) {
  auto bad = [](const std::string& topo) {
    std::string path = testing::TempDir() + "/topo.json";
    FILE* f = fopen(path.c_str(), "w");
    fprintf(f, "{\"extends\": \"910b\", \"topology\": %s}", topo.c_str());
    fclose(f);
    try {
      Fabric fab(Config::load(path));
      return std::string();
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
  };
  EXPECT_NE(bad(R"({"root_ports": [{"device": 0}, {"device": 0}]})").find("twice"), std::string::npos);
  EXPECT_NE(bad(R"({"root_ports": [{"device": 1}]})").find("out of range"), std::string::npos);
  EXPECT_NE(bad(R"({"root_ports": [{"devcie": 0}]})").find("unknown key"), std::string::npos);
  EXPECT_NE(bad(R"({"root_ports": [{"device": 0, "link": {"gen": 9}}]})").find("gen"), std::string::npos);
  EXPECT_NE(bad(R"({"root_ports": []})").find("no devices"), std::string::npos);
  EXPECT_EQ(bad(R"({"root_ports": [{"device": 0, "link": {"gen": 3, "width": 8}}]})"), "");
}

TEST(Fabric, LinkGenerationSetsTheLineRate) {
  for (int gen : {3, 4, 5}) {
    Fabric f(Config::load("910b", {"pcie.gen=" + std::to_string(gen)}));
    double rate = f.deviceLinks()[0]->up.bytesPerSec();
    EXPECT_NEAR(rate, npusim::pcie::laneBytesPerSec(gen) * 16, 1.0);
  }
}

// Issue 13.4: read tags are a finite window, freed when completions arrive.
TEST(ReadTags, AReadWaitsForTheTagsItNeeds) {
  npusim::pcie::ReadTags tags(4096);  // e.g. 8 tags x 512 B
  EXPECT_EQ(tags.acquire(0, 2048), 0u);
  tags.hold(1000, 2048);
  EXPECT_EQ(tags.acquire(0, 2048), 0u);  // half the window is still free
  tags.hold(1500, 2048);
  EXPECT_EQ(tags.acquire(100, 1024), 1000u);      // full: waits for the first burst's tags
  EXPECT_EQ(tags.acquire(100, 4096), 1500u);      // the whole window: waits for both
  EXPECT_EQ(tags.acquire(2000, 4096), 2000u);     // all returned by then
  EXPECT_EQ(tags.acquire(2000, 1 << 20), 2000u);  // a burst larger than the window still goes
}

// Issue 13.4: a read request may not pass the posted writes queued before it, and the queue is finite.
TEST(PostedOrder, AReadWaitsBehindQueuedWritesUpToTheQueueDepth) {
  // 4 KiB drains in 1 us.
  npusim::pcie::PostedOrder q(4096, 4096e6);
  EXPECT_EQ(q.readWait(0), 0u);
  q.write(0, nsToTick(300));
  EXPECT_EQ(q.readWait(nsToTick(100)), nsToTick(200));  // behind the write until it has left
  EXPECT_EQ(q.readWait(nsToTick(400)), 0u);             // it left before the read came
  q.write(nsToTick(500), nsToTick(9000));
  EXPECT_EQ(q.readWait(nsToTick(400)), 0u);               // entered after the read: not ahead of it
  EXPECT_EQ(q.readWait(nsToTick(1000)), nsToTick(1000));  // bounded by the queue's drain time
}

namespace {
// Throughput of `bursts` 16 KiB transfers per device issued at time 0 by each of `devs`.
double aggregateGbps(PcieRig& f, const std::vector<int>& devs, bool write, int bursts) {
  const uint64_t b = 16384;
  Tick last = 0;
  for (int i = 0; i < bursts; ++i)
    for (int d : devs) last = std::max(last, write ? f.hostWrite(d, b, 0) : f.hostRead(d, b, 0));
  return static_cast<double>(b * static_cast<uint64_t>(bursts) * devs.size()) / npusim::tickToSec(last) / 1e9;
}
}  // namespace

// Issue 13.4: two root ports share the root complex; together they cannot exceed it.
TEST(Fabric, TwoRootPortsCannotExceedTheRootComplex) {
  // 910b-gen5: devices 0 and 4 sit under different switches on different root ports.
  PcieRig one("one", Config::load("910b-gen5"));
  PcieRig unlimited("unlimited", Config::load("910b-gen5", {"pcie.rc_gbps=1000"}));
  std::vector<std::unique_ptr<PcieRig>> limited;
  for (double rc : {60.0, 80.0})
    for (bool write : {true, false})
      limited.push_back(
          std::make_unique<PcieRig>(fmt::format("rc{}{}", rc, write ? "w" : "r").c_str(),
                                    Config::load("910b-gen5", {"pcie.rc_gbps=" + std::to_string(rc)})));
  npusim::test::elaborate();
  const double alone = aggregateGbps(one, {0}, true, 2048);
  const double twoUnlimited = aggregateGbps(unlimited, {0, 4}, true, 2048);
  EXPECT_NEAR(twoUnlimited, 2 * alone, 0.05 * alone);  // independent ports
  size_t k = 0;
  for (double rc : {60.0, 80.0}) {
    for (bool write : {true, false}) {
      const double two = aggregateGbps(*limited[k++], {0, 4}, write, 2048);
      EXPECT_LE(two, rc * 1.001) << (write ? "writes" : "reads") << " rc " << rc;
      EXPECT_GE(two, rc * 0.95) << (write ? "writes" : "reads") << " rc " << rc;
    }
  }
}
