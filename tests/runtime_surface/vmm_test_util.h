#pragma once
// Virtual-memory fixtures shared by the runtime-surface and kernel tests.
#include <gtest/gtest.h>

#include <cstdint>

#include "acl/acl.h"

namespace npusim::test {

// Pinned HBM of device `dev` with 2 MiB pages.
inline aclrtPhysicalMemProp deviceProp(uint32_t dev) {
  aclrtPhysicalMemProp p{};
  p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  p.memAttr = ACL_HBM_MEM_HUGE;
  p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = dev;
  return p;
}

// A reserved range of four 2 MiB pages on device 0 whose first two pages are two physical chunks
// mapped back to back, the later-allocated chunk first (so HBM order differs from address order).
struct TwoChunkRange {
  static constexpr size_t g = 2u << 20;
  uint8_t* base = nullptr;
  aclrtDrvMemHandle first = nullptr, second = nullptr;  // allocation order
  bool secondMapped = true;
  TwoChunkRange() {
    aclrtPhysicalMemProp prop = deviceProp(0);
    void* va = nullptr;
    EXPECT_EQ(aclrtReserveMemAddress(&va, 4 * g, 0, nullptr, 0), ACL_SUCCESS);
    base = static_cast<uint8_t*>(va);
    EXPECT_EQ(aclrtMallocPhysical(&first, g, &prop, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtMallocPhysical(&second, g, &prop, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtMapMem(base, g, 0, second, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtMapMem(base + g, g, 0, first, 0), ACL_SUCCESS);
  }
  void unmapSecondPage() {
    EXPECT_EQ(aclrtUnmapMem(base + g), ACL_SUCCESS);
    secondMapped = false;
  }
  ~TwoChunkRange() {
    EXPECT_EQ(aclrtUnmapMem(base), ACL_SUCCESS);
    if (secondMapped) {
      EXPECT_EQ(aclrtUnmapMem(base + g), ACL_SUCCESS);
    }
    EXPECT_EQ(aclrtFreePhysical(first), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreePhysical(second), ACL_SUCCESS);
    EXPECT_EQ(aclrtReleaseMemAddress(base), ACL_SUCCESS);
  }
};

}  // namespace npusim::test
