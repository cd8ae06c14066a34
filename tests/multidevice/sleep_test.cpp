// Sleeps in the program's own code are simulated host time (runtime/host_sleep.cpp): they advance
// the thread's clock, order the threads like calls, and take no wall-clock time (issue 29).
#include <gtest/gtest.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/multidevice/child_run.h"
#include "tests/runtime/sim_test_util.h"

using npusim::test::configure;
using npusim::test::resultLines;
using npusim::test::runTestInChild;
using npusim::test::slurp;

namespace {

using Clock = std::chrono::steady_clock;

double wallSeconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// As the hicann/hccl examples do: some device work, then sleep(rank) so that the ranks report
// in order, then the result copied back and reported.
void rankWorker(int rank, bool micro, std::mutex* m, std::vector<int>* order, double* slept) {
  aclrtSetDevice(0);
  const size_t n = 256u << 10;
  std::vector<uint8_t> host(n, static_cast<uint8_t>(rank + 1)), back(n, 0);
  void* d = nullptr;
  aclrtMalloc(&d, n, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpy(d, n, host.data(), n, ACL_MEMCPY_HOST_TO_DEVICE);
  const double before = npusimHostTimeNs();
  if (micro)
    usleep(static_cast<useconds_t>(rank) * 1000000u);
  else
    sleep(static_cast<unsigned>(rank));
  *slept = npusimHostTimeNs() - before;
  aclrtMemcpy(back.data(), n, d, n, ACL_MEMCPY_DEVICE_TO_HOST);
  aclrtFree(d);
  std::lock_guard<std::mutex> g(*m);
  if (back == host) order->push_back(rank);
}

void ranksInOrder(bool micro) {
  configure("");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  const auto t0 = Clock::now();
  std::mutex m;
  std::vector<int> order;
  std::vector<double> slept(8, -1.0);
  std::vector<std::thread> threads;
  for (int r = 0; r < 8; ++r) threads.emplace_back(rankWorker, r, micro, &m, &order, &slept[r]);
  for (auto& t : threads) t.join();
  const double wall = wallSeconds(t0);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  for (int r = 0; r < 8; ++r) EXPECT_DOUBLE_EQ(slept[r], r * 1e9) << "rank " << r;
  // 28 s slept in all, 7 s by the last rank: none of it is waited for in wall time.
  EXPECT_LT(wall, 3.0);
  std::printf("RESULT order");
  for (int r : order) std::printf(" %d", r);
  std::printf(" main %.1f ns\n", npusimHostTimeNs());
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

}  // namespace

TEST(Sleep, RanksSleepingByRankEndInRankOrder) { ranksInOrder(false); }

TEST(Sleep, RanksUsleepingByRankEndInRankOrder) { ranksInOrder(true); }

// Two runs of each program: the same order and clocks, the same trace bytes (with a "sleep"
// slice on the host threads), and no thread taken for idle.
TEST(Sleep, SameTraceOnEveryRunAndNoIdleWarning) {
  const std::string dir = testing::TempDir();
  for (const char* test :
       {"Sleep.RanksSleepingByRankEndInRankOrder", "Sleep.RanksUsleepingByRankEndInRankOrder"}) {
    const std::string t1 = dir + "/sleep_1.json", t2 = dir + "/sleep_2.json";
    const std::string o1 = runTestInChild(test, t1), o2 = runTestInChild(test, t2);
    ASSERT_NE(o1.find("RESULT order 0 1 2 3 4 5 6 7"), std::string::npos) << o1;
    EXPECT_NE(o1.find("[  PASSED  ] 1 test"), std::string::npos) << o1;
    EXPECT_EQ(resultLines(o1), resultLines(o2));
    EXPECT_EQ(o1.find("treating it as idle"), std::string::npos) << o1;
    EXPECT_EQ(o2.find("treating it as idle"), std::string::npos) << o2;
    const std::string b1 = slurp(t1), b2 = slurp(t2);
    ASSERT_GT(b1.size(), 1000u);
    EXPECT_NE(b1.find("\"sleep\""), std::string::npos);
    EXPECT_TRUE(b1 == b2) << test << ": traces differ between runs";
  }
}

// A thread polling a flag with usleep while another thread does host work and a copy: the loop
// ends once the other thread's clock passes the poller's, without being taken for idle, and the
// poller sees the flag within one poll of the time it was set.
TEST(Sleep, PollingLoopEndsWhenTheOtherThreadSetsTheFlag) {
  configure("");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const size_t n = 4u << 20;
  std::vector<uint8_t> host(n, 3);
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::atomic<bool> flag{false};
  double setAt = 0;
  const auto t0 = Clock::now();
  const double start = npusimHostTimeNs();
  std::thread producer([&] {
    aclrtSetDevice(0);
    npusimHostWork(5e6);
    aclrtMemcpy(d, n, host.data(), n, ACL_MEMCPY_HOST_TO_DEVICE);
    setAt = npusimHostTimeNs();
    flag = true;
  });
  int polls = 0;
  while (!flag) {
    usleep(1000);
    ++polls;
  }
  const double seenAt = npusimHostTimeNs();
  producer.join();
  EXPECT_LT(wallSeconds(t0), 3.0);
  EXPECT_GT(setAt - start, 5e6);
  // Each poll is 1 ms of the poller's time; it stops within a poll of the flag's time.
  EXPECT_NEAR(seenAt, start + polls * 1e6, 1.0);
  EXPECT_NEAR(seenAt, setAt, 1e6);
  EXPECT_GE(polls, static_cast<int>((setAt - start) / 1e6) - 1);
  aclrtFree(d);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

// std::this_thread::sleep_for and relative clock_nanosleep are simulated too.
TEST(Sleep, SleepForAndClockNanosleepAdvanceTheClock) {
  configure("");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  const auto t0 = Clock::now();
  double before = npusimHostTimeNs();
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_DOUBLE_EQ(npusimHostTimeNs() - before, 1.5e9);
  before = npusimHostTimeNs();
  timespec ts{2, 250};
  EXPECT_EQ(clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, nullptr), 0);
  EXPECT_DOUBLE_EQ(npusimHostTimeNs() - before, 2e9 + 250);
  before = npusimHostTimeNs();
  EXPECT_EQ(nanosleep(&ts, nullptr), 0);
  EXPECT_DOUBLE_EQ(npusimHostTimeNs() - before, 2e9 + 250);
  EXPECT_LT(wallSeconds(t0), 1.0);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

// Absolute deadlines, bad arguments, and sleeps before the program's first ACL call are the C
// library's: real time passes and the simulated clock does not move.
TEST(Sleep, AbsoluteInvalidAndEarlySleepsAreReal) {
  auto t0 = Clock::now();
  usleep(100000);  // before any ACL call
  EXPECT_GE(wallSeconds(t0), 0.099);
  configure("");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  const double before = npusimHostTimeNs();
  timespec deadline{};
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  deadline.tv_nsec += 100000000;
  if (deadline.tv_nsec >= 1000000000) {
    deadline.tv_sec += 1;
    deadline.tv_nsec -= 1000000000;
  }
  t0 = Clock::now();
  EXPECT_EQ(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nullptr), 0);
  EXPECT_GE(wallSeconds(t0), 0.099);
  timespec bad{0, 2000000000};
  EXPECT_EQ(nanosleep(&bad, nullptr), -1);
  EXPECT_EQ(errno, EINVAL);
  EXPECT_EQ(clock_nanosleep(CLOCK_MONOTONIC, 0, &bad, nullptr), EINVAL);
  EXPECT_DOUBLE_EQ(npusimHostTimeNs(), before);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}
