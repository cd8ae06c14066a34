// Exit paths (issue 16, item 5): after an unsupported call, a program that returns from main or calls
// exit() without aclFinalize, or is ended by SIGTERM/SIGINT, ends cleanly and still writes its trace
// and statistics, with the unsupported call listed. (The list used to be a function-local static,
// destroyed before the exit-time report read it: the program aborted.)
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "acl/acl.h"
#include "surface_test_util.h"

using surface_test::TempDir;

namespace {

struct Outputs {
  int status;
  nlohmann::json stats, trace;
};

// Runs a small program in a child with trace and statistics on, then ends it with `end`.
Outputs runAndEnd(const std::function<void()>& end) {
  TempDir dir;
  std::string trace = dir / "trace.json", stats = dir / "stats.json";
  setenv("NPUSIM_TRACE", trace.c_str(), 1);
  setenv("NPUSIM_STATS", stats.c_str(), 1);
  int status = surface_test::runInChild([&] {
    CHILD_CHECK(aclInit(nullptr) == ACL_SUCCESS);
    CHILD_CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
    void* d = nullptr;
    CHILD_CHECK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    char host[4096] = {};
    CHILD_CHECK(aclrtMemcpy(d, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
    CHILD_CHECK(aclrtIpcMemClose("key") == ACL_ERROR_API_NOT_SUPPORT);
    end();
  });
  unsetenv("NPUSIM_TRACE");
  unsetenv("NPUSIM_STATS");
  Outputs o{status, nlohmann::json::parse(surface_test::readFile(stats), nullptr, false),
            nlohmann::json::parse(surface_test::readFile(trace), nullptr, false)};
  return o;
}

void expectComplete(const Outputs& o) {
  ASSERT_FALSE(o.stats.is_discarded()) << "statistics missing or not JSON";
  EXPECT_EQ(o.stats["unsupported_calls"].value("aclrtIpcMemClose", 0), 1) << o.stats["unsupported_calls"];
  EXPECT_GT(o.stats.value("sim_time_us", 0.0), 0.0);
  ASSERT_FALSE(o.trace.is_discarded()) << "trace missing or not closed JSON";
  bool copy = false;
  for (const auto& e : o.trace.is_array() ? o.trace : o.trace["traceEvents"])
    copy |= e.value("name", "") == "aclrtMemcpy";
  EXPECT_TRUE(copy);
}

}  // namespace

TEST(ExitPaths, ExitWithoutFinalizeAfterAnUnsupportedCall) {
  Outputs o = runAndEnd([] { std::exit(0); });
  ASSERT_TRUE(WIFEXITED(o.status)) << "ended by signal " << WTERMSIG(o.status);
  EXPECT_EQ(WEXITSTATUS(o.status), 0);
  expectComplete(o);
}

TEST(ExitPaths, ExitWithACodeKeepsTheCode) {
  Outputs o = runAndEnd([] { std::exit(3); });
  ASSERT_TRUE(WIFEXITED(o.status));
  EXPECT_EQ(WEXITSTATUS(o.status), 3);
  expectComplete(o);
}

TEST(ExitPaths, FinalizeThenReturn) {
  Outputs o = runAndEnd([] { CHILD_CHECK(aclFinalize() == ACL_SUCCESS); });
  ASSERT_TRUE(WIFEXITED(o.status));
  EXPECT_EQ(WEXITSTATUS(o.status), 0);
  expectComplete(o);
}

TEST(ExitPaths, TerminationSignalWritesOutputsAndStillEndsBySignal) {
  for (int sig : {SIGTERM, SIGINT}) {
    Outputs o = runAndEnd([sig] { raise(sig); });
    ASSERT_TRUE(WIFSIGNALED(o.status)) << sig;
    EXPECT_EQ(WTERMSIG(o.status), sig);
    expectComplete(o);
  }
}

namespace {
volatile sig_atomic_t gSeen = 0;
}

TEST(ExitPaths, AProgramsOwnSignalHandlerIsKept) {
  int status = surface_test::runInChild([] {
    signal(SIGTERM, [](int) { gSeen = 1; });  // installed before the runtime starts
    CHILD_CHECK(aclInit(nullptr) == ACL_SUCCESS);
    raise(SIGTERM);
    CHILD_CHECK(gSeen == 1);  // the program's handler ran and the program goes on
    CHILD_CHECK(aclFinalize() == ACL_SUCCESS);
  });
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(ExitPaths, UnsupportedCallsGiveTheirReason) {
  ASSERT_EQ(aclrtIpcMemClose("k"), ACL_ERROR_API_NOT_SUPPORT);
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(msg, nullptr);
  EXPECT_NE(std::string(msg).find("one process"), std::string::npos) << msg;
  aclrtIpcEventHandle h{};
  aclrtEvent e = nullptr;
  EXPECT_EQ(aclrtIpcOpenEventHandle(h, &e), ACL_ERROR_API_NOT_SUPPORT);
}
