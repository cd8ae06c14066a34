// Host code dereferencing device memory (docs/checks.md): the fault is explained (address,
// allocation, offset, the call that made it) and the process exits with code 86 after writing
// its statistics. Other faults go to the handler installed before, or kill the process.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "tests/checks/check_test_util.h"

using npusim::test::configureChecks;
using npusim::test::contains;
using npusim::test::findingsOf;
using npusim::test::readStats;

namespace {

constexpr aclrtMemMallocPolicy kHuge = ACL_MEM_MALLOC_HUGE_FIRST;

// Any death other than the checker's exit code (a signal, or a sanitizer's own exit).
bool diedOtherwise(int status) {
  return WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 86);
}

void userHandler(int) { _exit(42); }

// An address that faults but is not device memory (a null store would be caught by UBSan first).
volatile char* otherFaultingAddress() {
  void* p = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  EXPECT_NE(p, MAP_FAILED);
  return static_cast<volatile char*>(p);
}

}  // namespace

TEST(HostAccess, DereferenceNamesTheAllocationAndExitsWith86) {
  std::string stats = configureChecks("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void *a = nullptr, *d = nullptr;
  ASSERT_EQ(aclrtMalloc(&a, 4096, kHuge), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&d, 100, kHuge), ACL_SUCCESS);
  EXPECT_EXIT(
      { static_cast<volatile char*>(d)[8] = 1; }, ::testing::ExitedWithCode(86),
      "npusim: fatal \\[host_access\\] host code dereferenced device address 0x[0-9a-f]+ of NPU 0: inside "
      "allocation #2 \\(100 bytes requested, 160 reserved, made by aclrtMalloc\\) at offset 8\n"
      ".*not host-accessible.*\n.*faulting instruction: .*test_checks.*exiting with code 86");
  // The child wrote its statistics before exiting.
  nlohmann::json f = findingsOf(readStats(stats), "host_access");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0]["severity"], "fatal");
  EXPECT_TRUE(contains(f[0]["message"].get<std::string>(), "allocation #2")) << f.dump();
  EXPECT_TRUE(contains(f[0]["location"].get<std::string>(), "test_checks")) << f.dump();
}

TEST(HostAccess, ReadOfFreedMemoryNamesTheFree) {
  configureChecks("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* d = nullptr;
  ASSERT_EQ(aclrtMallocCached(&d, 64, kHuge), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(d), ACL_SUCCESS);
  EXPECT_EXIT({ (void)*static_cast<volatile int*>(d); }, ::testing::ExitedWithCode(86),
              "inside allocation #1 \\(64 bytes, made by aclrtMallocCached\\), already freed by aclrtFree");
  EXPECT_EXIT({ (void)static_cast<volatile char*>(d)[1 << 20]; }, ::testing::ExitedWithCode(86),
              "not inside any allocation");
}

TEST(HostAccess, OtherFaultsGoToThePreviousHandler) {
  configureChecks("");
  struct sigaction sa {};
  sa.sa_handler = userHandler;
  sigemptyset(&sa.sa_mask);
  ASSERT_EQ(sigaction(SIGSEGV, &sa, nullptr), 0);  // installed before the runtime starts
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 64, kHuge), ACL_SUCCESS);
  volatile char* other = otherFaultingAddress();
  EXPECT_EXIT({ *other = 1; }, ::testing::ExitedWithCode(42), "");
  EXPECT_EXIT({ *static_cast<volatile char*>(d) = 1; }, ::testing::ExitedWithCode(86), "host_access");
}

TEST(HostAccess, OtherFaultsStillCrashWithoutAHandler) {
  configureChecks("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  volatile char* other = otherFaultingAddress();
  EXPECT_EXIT({ *other = 1; }, diedOtherwise, "");
}

TEST(HostAccess, OffModeLeavesTheDefaultCrash) {
  configureChecks("off");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 64, kHuge), ACL_SUCCESS);
  EXPECT_EXIT({ *static_cast<volatile char*>(d) = 1; }, diedOtherwise, "");
}
