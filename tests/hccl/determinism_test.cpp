// One host thread per rank, as the public examples run: two runs of the same program give the
// same trace bytes (the threads' calls are ordered by simulated time, docs/architecture.md).
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "tests/hccl/hccl_test_util.h"

namespace {

// Runs 8 threads, each joining with root info and doing two AllReduces, in a child; returns
// the trace file's bytes.
std::string threadedRun(const std::string& name) {
  std::string path = testing::TempDir() + name;
  std::remove(path.c_str());
  const pid_t pid = fork();
  if (pid == 0) {
    setenv("NPUSIM_TRACE", path.c_str(), 1);
    setenv("NPUSIM_HCCL_ALGO", "mesh", 1);
    npusim::test::configure("");
    aclrtSetDevice(0);
    HcclRootInfo root;
    EXPECT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
    std::vector<std::thread> threads;
    for (int r = 0; r < 8; ++r)
      threads.emplace_back([&root, r] {
        aclrtSetDevice(r);
        const size_t bytes = 1 << 20;
        void *s = nullptr, *d = nullptr;
        aclrtMalloc(&s, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        HcclComm comm;
        EXPECT_EQ(HcclCommInitRootInfo(8, &root, static_cast<uint32_t>(r), &comm), HCCL_SUCCESS);
        aclrtStream st;
        aclrtCreateStream(&st);
        for (int i = 0; i < 2; ++i)
          EXPECT_EQ(HcclAllReduce(s, d, bytes / 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, st),
                    HCCL_SUCCESS);
        EXPECT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
        EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
      });
    for (auto& t : threads) t.join();
    std::string().swap(path);
    std::exit(testing::Test::HasFailure() ? 1 : 0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST(HcclDeterminism, ThreadPerRankRunsGiveTheSameTrace) {
  std::string a = threadedRun("hccl_det_a.json"), b = threadedRun("hccl_det_b.json");
  ASSERT_GT(a.size(), 10000u);
  EXPECT_TRUE(a == b) << "the two runs' traces differ (" << a.size() << " vs " << b.size() << " bytes)";
}
