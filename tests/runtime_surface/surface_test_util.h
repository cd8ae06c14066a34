#pragma once
// Helpers for the runtime-surface tests (each TEST runs in its own process).
#include <gtest/gtest.h>

#include <string>

#include "npusim/npusim.h"
#include "tests/runtime/sim_test_util.h"

namespace npusim::test {

// The runtime initialised with device 0 current for one test (configured with `set`); device
// reset and runtime finalised when it goes.
struct DeviceSession {
  explicit DeviceSession(const std::string& set = "") {
    configure(set);
    EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
  ~DeviceSession() {
    aclrtResetDevice(0);
    aclFinalize();
  }
  DeviceSession(const DeviceSession&) = delete;
  DeviceSession& operator=(const DeviceSession&) = delete;
};

// Device time between two recorded events, in milliseconds.
inline float elapsedMs(aclrtEvent a, aclrtEvent b) {
  float ms = 0;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_SUCCESS);
  return ms;
}

}  // namespace npusim::test
