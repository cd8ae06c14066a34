// Operators and copies share the HBM: an Add running while a D2D copy streams through HBM
// slows down, and so does the copy, compared with each alone on the same device.
#include <cstdio>

#include "tests/aicore/aicore_test_util.h"

using namespace aicore_test;

namespace {

// Elapsed ms between two events recorded around the work already launched on `s`.
struct Bracket {
  aclrtEvent a = nullptr, b = nullptr;
  aclrtStream s;
  explicit Bracket(aclrtStream st) : s(st) {
    EXPECT_EQ(aclrtCreateEvent(&a), ACL_SUCCESS);
    EXPECT_EQ(aclrtCreateEvent(&b), ACL_SUCCESS);
  }
  ~Bracket() {
    aclrtDestroyEvent(a);
    aclrtDestroyEvent(b);
  }
  void begin() { EXPECT_EQ(aclrtRecordEvent(a, s), ACL_SUCCESS); }
  void end() { EXPECT_EQ(aclrtRecordEvent(b, s), ACL_SUCCESS); }
  double ms() {
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    float v = -1;
    EXPECT_EQ(aclrtEventElapsedTime(&v, a, b), ACL_SUCCESS);
    return v;
  }
};

}  // namespace

// Each side is measured while it runs entirely under the other: a short Add inside a long
// copy, then a short copy inside a long Add.
TEST(OpContention, AddAndDeviceCopySlowEachOther) {
  npusim::test::configure("sim.functional=false");
  Session s;
  aclrtStream copyStream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&copyStream), ACL_SUCCESS);
  const int64_t small = 32ll << 20, large = 128ll << 20;  // fp32 elements per Add operand
  DevTensor a({large}, ACL_FLOAT), b({large}, ACL_FLOAT), c({large}, ACL_FLOAT);
  DevTensor sa({small}, ACL_FLOAT), sb({small}, ACL_FLOAT), sc({small}, ACL_FLOAT);
  const uint64_t smallCopy = 32ull << 20, largeCopy = 256ull << 20;
  void *src = nullptr, *dst = nullptr;
  ASSERT_EQ(aclrtMalloc(&src, largeCopy, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dst, largeCopy, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  auto copy = [&](uint64_t bytes) {
    ASSERT_EQ(aclrtMemcpyAsync(dst, bytes, src, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, copyStream), ACL_SUCCESS);
  };
  Bracket op(s.stream), cp(copyStream);

  // Alone.
  op.begin();
  add(sa, sb, sc, s.stream);
  op.end();
  const double opAlone = op.ms();
  cp.begin();
  copy(smallCopy);
  cp.end();
  const double copyAlone = cp.ms();

  // The small Add under a large copy.
  cp.begin();
  copy(largeCopy);
  cp.end();
  op.begin();
  add(sa, sb, sc, s.stream);
  op.end();
  const double opShared = op.ms(), bigCopy = cp.ms();
  // The small copy under a large Add.
  op.begin();
  add(a, b, c, s.stream);
  op.end();
  cp.begin();
  copy(smallCopy);
  cp.end();
  const double copyShared = cp.ms(), bigAdd = op.ms();
  std::printf(
      "Add 3 x 128 MiB: %.1f us alone (%.0f GB/s), %.1f us inside a %.0f us D2D copy (x%.2f)\n"
      "D2D copy 32 MiB: %.1f us alone (%.0f GB/s moved), %.1f us inside a %.0f us Add (x%.2f)\n",
      opAlone * 1e3, 3.0 * static_cast<double>(sa.bytes) / opAlone / 1e6, opShared * 1e3, bigCopy * 1e3,
      opShared / opAlone, copyAlone * 1e3, 2.0 * static_cast<double>(smallCopy) / copyAlone / 1e6,
      copyShared * 1e3, bigAdd * 1e3, copyShared / copyAlone);
  ASSERT_GT(bigCopy, 1.5 * opShared);  // the Add really ran inside the copy
  ASSERT_GT(bigAdd, 1.5 * copyShared);
  EXPECT_GE(opShared / opAlone, 1.1);
  EXPECT_GE(copyShared / copyAlone, 1.1);
  aclrtFree(src);
  aclrtFree(dst);
  aclrtDestroyStream(copyStream);
}
