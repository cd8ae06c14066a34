// A memory model's end_of_simulation runs once per init cycle: aclFinalize ends the simulation
// and the next aclInit binds a fresh instance of the model (docs/plugins.md "Ending").
#include <gtest/gtest.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstring>
#include <string>
#include <systemc>
#include <vector>

#include "npusim/tlm_plugin.h"
#include "tests/runtime/sim_test_util.h"

namespace {

int gBuilt = 0;                   // instances the binder made
int gEnded = 0;                   // end_of_simulation calls, all instances
std::vector<std::string> gNames;  // full names of the instances, in order of construction

struct CountingMemory : sc_core::sc_module {
  tlm_utils::simple_target_socket<CountingMemory> socket;
  bool ended = false;
  explicit CountingMemory(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    socket.register_b_transport(this, &CountingMemory::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& d) {
    d += sc_core::sc_time(5, sc_core::SC_NS);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  void end_of_simulation() override {
    EXPECT_FALSE(ended) << name() << " ended twice";
    ended = true;
    ++gEnded;
  }
};

const bool kRegistered =
    npusim::registerMemoryModel("counting_eos", npusim::Protocol::LooselyTimed,
                                [](tlm::tlm_initiator_socket<>& s, const npusim::MemoryTargetInfo& info) {
                                  // Not deleted: a model's modules stay with the SystemC context of their
                                  // simulation.
                                  auto* m = new CountingMemory(info.instanceName.c_str());
                                  s.bind(m->socket);
                                  ++gBuilt;
                                  gNames.push_back(m->name());
                                });

// One init cycle with a copy through every device's model; returns the device count.
uint32_t cycle() {
  EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
  uint32_t devices = 0;
  EXPECT_EQ(aclrtGetDeviceCount(&devices), ACL_SUCCESS);
  for (uint32_t d = 0; d < devices; ++d) {
    EXPECT_EQ(aclrtSetDevice(static_cast<int32_t>(d)), ACL_SUCCESS);
    std::vector<uint8_t> h(4096, static_cast<uint8_t>(d + 1)), back(4096, 0);
    void* dev = nullptr;
    EXPECT_EQ(aclrtMalloc(&dev, h.size(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(dev, h.size(), h.data(), h.size(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(back.data(), back.size(), dev, h.size(), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(back, h);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  }
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  return devices;
}

}  // namespace

TEST(MemoryPluginReinit, EndOfSimulationRunsOncePerInitCycle) {
  ASSERT_TRUE(kRegistered);
  npusim::test::configure("hbm.model=counting_eos");
  const uint32_t devices = cycle();
  ASSERT_GT(devices, 0u);
  EXPECT_EQ(gBuilt, static_cast<int>(devices));
  EXPECT_EQ(gEnded, static_cast<int>(devices));  // at aclFinalize, not at exit
  EXPECT_EQ(cycle(), devices);
  EXPECT_EQ(gBuilt, 2 * static_cast<int>(devices));  // a fresh instance per device
  EXPECT_EQ(gEnded, 2 * static_cast<int>(devices));
  // The second simulation's modules have the same names as the first's: a fresh context.
  ASSERT_EQ(gNames.size(), 2u * devices);
  for (uint32_t d = 0; d < devices; ++d) EXPECT_EQ(gNames[d], gNames[devices + d]);
  EXPECT_EQ(gNames[0], "npusim.npu0.hbm0");
}
