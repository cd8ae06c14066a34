// sim.functional=false skips the host computation of operator results and nothing else: the
// same program gives the same simulated times either way. Each mode runs in its own child
// process (a simulation cannot be restarted) and reports its times through a pipe.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_relu.h"
#include "tests/aicore/aicore_test_util.h"

using namespace aicore_test;

namespace {

// The program: inputs copied in, Add, Matmul, Relu and ReduceSum on two streams joined by an
// event, the result copied out. Returns the event-measured times (ms) and the host clock (ns).
std::vector<double> runProgram() {
  std::vector<double> out;
  Session s;
  aclrtStream s2 = nullptr;
  aclrtCreateStream(&s2);
  const int64_t M = 512, K = 384, N = 256;
  DevTensor x({M, K}, ACL_FLOAT), y({M, K}, ACL_FLOAT), z({M, K}, ACL_FLOAT), w({K, N}, ACL_FLOAT),
      p({M, N}, ACL_FLOAT), r({M, N}, ACL_FLOAT), sum({N}, ACL_FLOAT);
  DevTensor h({1 << 20}, ACL_FLOAT16), h2({1 << 20}, ACL_FLOAT16), h3({1 << 20}, ACL_FLOAT16);
  std::vector<float> host(static_cast<size_t>(M * K));
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i % 97) * 0.01f;
  aclrtMemcpy(x.dev, x.bytes, host.data(), x.bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(y.dev, y.bytes, host.data(), y.bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(w.dev, w.bytes, host.data(), w.bytes, ACL_MEMCPY_HOST_TO_DEVICE);

  aclrtEvent e[4], join;
  for (auto& ev : e) aclrtCreateEvent(&ev);
  aclrtCreateEvent(&join);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclrtRecordEvent(e[0], s.stream);
  add(x, y, z, s.stream);
  matmul(z, w, p, s.stream);
  aclrtRecordEvent(e[1], s.stream);
  add(h, h2, h3, s2);  // meanwhile on the second stream
  aclrtRecordEvent(join, s2);
  aclrtStreamWaitEvent(s.stream, join);
  aclnnReluGetWorkspaceSize(p.t, r.t, &ws, &ex);
  aclnnRelu(nullptr, ws, ex, s.stream);
  aclrtRecordEvent(e[2], s.stream);
  int64_t dim = 0;
  aclIntArray* dims = aclCreateIntArray(&dim, 1);
  aclnnReduceSumGetWorkspaceSize(r.t, dims, false, ACL_FLOAT, sum.t, &ws, &ex);
  aclnnReduceSum(nullptr, ws, ex, s.stream);
  aclrtRecordEvent(e[3], s.stream);
  std::vector<float> result(static_cast<size_t>(N));
  aclrtMemcpy(result.data(), sum.bytes, sum.dev, sum.bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  for (int i = 1; i < 4; ++i) {
    float ms = -1;
    aclrtEventElapsedTime(&ms, e[0], e[i]);
    out.push_back(ms);
  }
  out.push_back(npusimHostTimeNs());
  out.push_back(result[0]);  // differs: only the functional run computes it
  aclDestroyIntArray(dims);
  for (auto& ev : e) aclrtDestroyEvent(ev);
  aclrtDestroyEvent(join);
  aclrtDestroyStream(s2);
  return out;
}

// Runs the program in a child process under NPUSIM_SET=`set`.
std::vector<double> runInChild(const std::string& set) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    npusim::test::configure(set);
    const std::vector<double> v = runProgram();
    const ssize_t want = static_cast<ssize_t>(v.size() * sizeof(double));
    _exit(write(fds[1], v.data(), v.size() * sizeof(double)) == want ? 0 : 1);
  }
  close(fds[1]);
  std::vector<double> v(5);
  const ssize_t got = read(fds[0], v.data(), v.size() * sizeof(double));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << set;
  EXPECT_EQ(got, static_cast<ssize_t>(v.size() * sizeof(double))) << set;
  return v;
}

}  // namespace

TEST(FunctionalTiming, TimingOnlyModeGivesIdenticalTimes) {
  const std::vector<double> on = runInChild("sim.functional=true");
  const std::vector<double> off = runInChild("sim.functional=false");
  std::printf("functional: events %.6f / %.6f / %.6f ms, host clock %.1f ns, sum[0] = %g\n", on[0], on[1],
              on[2], on[3], on[4]);
  std::printf("timing only: events %.6f / %.6f / %.6f ms, host clock %.1f ns, sum[0] = %g\n", off[0], off[1],
              off[2], off[3], off[4]);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(std::memcmp(&on[i], &off[i], sizeof(double)), 0) << i;
  EXPECT_GT(on[2], 0.0);
  // The functional run computed column 0 of sum over rows of relu((x + y) @ w).
  double ref = 0;
  for (int m = 0; m < 512; ++m) {
    double dot = 0;
    for (int k = 0; k < 384; ++k) {
      const float xy = 2.0f * (static_cast<float>((m * 384 + k) % 97) * 0.01f);
      dot += static_cast<double>(xy) * static_cast<double>(static_cast<float>((k * 256) % 97) * 0.01f);
    }
    ref += dot > 0 ? dot : 0;
  }
  EXPECT_NEAR(on[4], ref, 1e-4 * ref);
  EXPECT_EQ(off[4], 0.0);  // timing only: the output was never written
}
