// Mixed kernels that split themselves between the cube (AIC) and vector (AIV) cores
// (docs/kernels.md, "Mixed kernels"): for blockDim N, N cube and 2N vector programs run, each
// answering its own core type and indices; cross-core flags order them functionally and in
// simulated time, where the programs of one AI core run at the same time on their own cores.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_split_aiv_barriers.h"
#include "aclrtlaunch_k_split_ids_1_1.h"
#include "aclrtlaunch_k_split_ids_1_2.h"
#include "aclrtlaunch_k_split_ids_vector.h"
#include "aclrtlaunch_k_split_matmul_relu.h"
#include "aclrtlaunch_k_split_misuse.h"
#include "aclrtlaunch_k_split_vector_halves.h"
#include "aclrtlaunch_k_split_wait.h"
#include "ascendc/tikicpulib.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/kernels/dev_buffer.h"

using aicore_test::Session;
using kernel_test::Dev;
using kernel_test::exactHalves;

extern "C" __global__ __aicore__ void k_split_matmul_relu(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR z,
                                                          uint32_t m, uint32_t n, uint32_t k,
                                                          uint32_t passes);

namespace {

constexpr uint32_t kM = 32, kN = 64, kK = 48, kPasses = 3;

// relu(A_c x B_c) x 2^passes for each AI core c (A, B of halves multiples of 1/8: exact in float).
std::vector<float> reluProducts(const std::vector<_Float16>& a, const std::vector<_Float16>& b,
                                uint32_t cores) {
  std::vector<float> z(size_t{cores} * kM * kN);
  for (uint32_t c = 0; c < cores; ++c)
    for (uint32_t i = 0; i < kM; ++i)
      for (uint32_t j = 0; j < kN; ++j) {
        float s = 0;
        for (uint32_t l = 0; l < kK; ++l)
          s += static_cast<float>(a[(size_t{c} * kM + i) * kK + l]) *
               static_cast<float>(b[(size_t{c} * kK + l) * kN + j]);
        z[(size_t{c} * kM + i) * kN + j] = std::max(s, 0.0f) * static_cast<float>(1u << kPasses);
      }
  return z;
}

double cyclesMs(double cycles) { return cycles / (aicore_test::config().getFloat("aicore.freq_ghz") * 1e6); }

}  // namespace

// Each AI core's cube program makes C with the cube calls and sets a flag; its two vector
// programs wait for it and each makes half of relu(C) x 8: exactly the host's, on three AI cores.
TEST(KernelSplit, CubeProgramMakesTheProductBothVectorProgramsFinishIt) {
  Session s;
  constexpr uint32_t cores = 3;
  const std::vector<_Float16> a = exactHalves(size_t{cores} * kM * kK, 7),
                              b = exactHalves(size_t{cores} * kK * kN, 11);
  Dev<_Float16> da(a), db(b);
  Dev<float> dc(std::vector<float>(size_t{cores} * kM * kN, -1.0f)), dz(size_t{cores} * kM * kN);
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_split_matmul_relu)(cores, s.stream, da.dev, db.dev, dc.dev, dz.dev, kM, kN,
                                                     kK, kPasses),
            0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  const std::vector<float> want = reluProducts(a, b, cores);
  const std::vector<float>& got = dz.read();
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(got[i], want[i]) << i;
}

// The CPU debug mode runs the same programs in the same order: the same bytes.
TEST(KernelSplit, CpuDebugModeGivesTheSameBytes) {
  constexpr uint32_t cores = 2;
  const std::vector<_Float16> a = exactHalves(size_t{cores} * kM * kK, 3),
                              b = exactHalves(size_t{cores} * kK * kN, 5);
  std::vector<float> device;
  {
    Session s;
    Dev<_Float16> da(a), db(b);
    Dev<float> dc(size_t{cores} * kM * kN), dz(size_t{cores} * kM * kN);
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_split_matmul_relu)(cores, s.stream, da.dev, db.dev, dc.dev, dz.dev, kM,
                                                       kN, kK, kPasses),
              0u);
    ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    device = dz.read();
  }
  auto* ga = static_cast<_Float16*>(AscendC::GmAlloc(a.size() * 2));
  auto* gb = static_cast<_Float16*>(AscendC::GmAlloc(b.size() * 2));
  auto* gc = static_cast<float*>(AscendC::GmAlloc(device.size() * 4));
  auto* gz = static_cast<float*>(AscendC::GmAlloc(device.size() * 4));
  std::copy(a.begin(), a.end(), ga);
  std::copy(b.begin(), b.end(), gb);
  auto gm = [](void* p) { return reinterpret_cast<uint8_t*>(p); };
  ASSERT_EQ(ICPU_RUN_KF(k_split_matmul_relu, cores, gm(ga), gm(gb), gm(gc), gm(gz), kM, kN, kK, kPasses), 0);
  EXPECT_EQ(std::memcmp(gz, device.data(), device.size() * 4), 0);
  EXPECT_EQ(device, reluProducts(a, b, cores));
  for (void* p :
       {static_cast<void*>(ga), static_cast<void*>(gb), static_cast<void*>(gc), static_cast<void*>(gz)})
    AscendC::GmFree(p);
}

// The documented answers per core type: AIV v of a 1:2 kernel of blockDim 3 has GetBlockIdx v
// (0..5), sub-block v % 2 of 2; AIC c has GetBlockIdx c (0..2), sub-block 0 of 1; GetBlockNum is
// blockDim on both. A 1:1 kernel runs one vector program per AI core; a vector kernel is AIV only.
TEST(KernelSplit, EachProgramAnswersItsCoreTypeAndIndices) {
  Session s;
  constexpr uint32_t dim = 3;
  auto run = [&](auto launch, uint32_t programs) {
    Dev<int64_t> out(std::vector<int64_t>(size_t{programs} * 8 + 8, -7));
    EXPECT_EQ(launch(out.dev), 0u);
    EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    return out.read();
  };
  using Row = std::vector<int64_t>;
  auto row = [](const std::vector<int64_t>& o, size_t slot) {
    return Row(o.begin() + slot * 8, o.begin() + slot * 8 + 8);
  };
  const auto mix12 =
      run([&](void* o) { return ACLRT_LAUNCH_KERNEL(k_split_ids_1_2)(dim, s.stream, o); }, 3 * dim);
  for (int64_t v = 0; v < 2 * dim; ++v)
    EXPECT_EQ(row(mix12, v), (Row{2, v, dim, v % 2, 2, 2, 0, 1})) << "AIV " << v;
  for (int64_t c = 0; c < dim; ++c)
    EXPECT_EQ(row(mix12, 2 * dim + c), (Row{1, c, dim, 0, 1, 1, 1, 1})) << "AIC " << c;
  EXPECT_EQ(mix12[3 * dim * 8], -7);  // no more programs than that
  const auto mix11 =
      run([&](void* o) { return ACLRT_LAUNCH_KERNEL(k_split_ids_1_1)(dim, s.stream, o); }, 2 * dim);
  for (int64_t v = 0; v < dim; ++v) EXPECT_EQ(row(mix11, v), (Row{2, v, dim, 0, 1, 1, 0, 1})) << "AIV " << v;
  for (int64_t c = 0; c < dim; ++c)
    EXPECT_EQ(row(mix11, dim + c), (Row{1, c, dim, 0, 1, 1, 1, 1})) << "AIC " << c;
  const auto vec =
      run([&](void* o) { return ACLRT_LAUNCH_KERNEL(k_split_ids_vector)(dim, s.stream, o); }, dim);
  for (int64_t v = 0; v < dim; ++v) EXPECT_EQ(row(vec, v), (Row{2, v, dim, 0, 1, 1, 0, 1})) << "block " << v;
  EXPECT_EQ(vec[dim * 8], -7);
}

// Mode 1 joins the two vector programs of an AI core, mode 0 and SyncAll every vector program:
// after each barrier a program reads what the others wrote before it.
TEST(KernelSplit, VectorProgramsMeetPerAiCoreAndAll) {
  Session s;
  constexpr uint32_t dim = 2, aivs = 2 * dim;
  Dev<int64_t> buf(std::vector<int64_t>(3 * aivs, 0)), out(std::vector<int64_t>(3 * aivs, 0));
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_split_aiv_barriers)(dim, s.stream, buf.dev, out.dev), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  const std::vector<int64_t>& o = out.read();
  for (int64_t v = 0; v < aivs; ++v) {
    EXPECT_EQ(o[3 * v], 100 + (v ^ 1)) << v;
    EXPECT_EQ(o[3 * v + 1], 200 + (v + 1) % aivs) << v;
    EXPECT_EQ(o[3 * v + 2], 300 + (v + 1) % aivs) << v;
  }
}

// The two vector programs of an AI core run on two vector cores at once: 40 more vector passes
// over each one's n floats add one program's vector time to the kernel, not two.
TEST(KernelSplit, TheTwoVectorProgramsOverlap) {
  Session s;
  constexpr uint32_t n = 16384, passes = 40;
  Dev<float> dx(std::vector<float>(2 * n, 1.0f)), dz(2 * n);
  auto timed = [&](uint32_t p) {
    auto warm = [&] {
      ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_split_vector_halves)(1, s.stream, dx.dev, dz.dev, 64, 0), 0u);
    };
    auto run = [&] {
      ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_split_vector_halves)(1, s.stream, dx.dev, dz.dev, n, p), 0u);
    };
    return aicore_test::deviceMs(s.stream, warm, run);
  };
  const double with = timed(passes), without = timed(0);
  const double onePass = cyclesMs(n * 4.0 / aicore_test::config().getFloat("aicore.vector_bytes_per_cycle"));
  std::printf("kernel %.4f ms with %u passes, %.4f ms without; one program's passes %.4f ms\n", with, passes,
              without, passes * onePass);
  EXPECT_NEAR(with - without, passes * onePass, 0.05 * passes * onePass);  // max of the two, not their sum
  const std::vector<float>& z = dz.read();
  for (uint32_t i = 0; i < 2 * n; ++i) ASSERT_EQ(z[i], 1.0f) << i;  // relu(1) x 2^0, the last run
}

// A vector program that waits for the cube program's flag starts its stage when the flag is
// set plus the cross-core latency: with a 40000-cycle latency (NPUSIM_SET) and the cube
// program's 60000 or 120000 cycles of scalar work before its set, the kernel takes that long
// more than the stage alone; without the flag the stage does not wait. The same launch again
// takes the same time.
TEST(KernelSplit, AWaitLastsUntilTheSetPlusTheCrossCoreLatency) {
  setenv("NPUSIM_SET", "aicore.cross_core_sync_cycles=40000", 1);
  Session s;
  constexpr uint32_t n = 4096;
  Dev<float> dx(std::vector<float>(2 * n, 2.0f)), dz(2 * n);
  auto timed = [&](uint32_t cubeCycles, uint32_t wait) {
    auto warm = [&] {
      ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_split_wait)(1, s.stream, dx.dev, dz.dev, 64, 0, 0), 0u);
    };
    auto run = [&] {
      ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_split_wait)(1, s.stream, dx.dev, dz.dev, n, cubeCycles, wait), 0u);
    };
    return aicore_test::deviceMs(s.stream, warm, run);
  };
  const double stage = timed(0, 0), noWait = timed(60000, 0), w1 = timed(60000, 1), w2 = timed(120000, 1);
  std::printf("stage %.4f ms; cube 60000 cycles: %.4f ms without the flag, %.4f with; 120000: %.4f\n", stage,
              noWait, w1, w2);
  const double latency = cyclesMs(40000), tol = cyclesMs(200);
  EXPECT_NEAR(w1 - stage, cyclesMs(60000) + latency, tol);
  EXPECT_NEAR(w2 - w1, cyclesMs(60000), tol);
  EXPECT_GE(noWait, stage + cyclesMs(60000) * 0.5);  // the cube's scalar work, beside the stage
  EXPECT_GT(w1 - noWait, latency);                   // the stage waited
  EXPECT_NEAR(timed(60000, 1), w1, tol);
  unsetenv("NPUSIM_SET");
}

// A wait no program will satisfy ends the kernel with a vector-core exception naming the flag,
// instead of hanging; so do a bad flag id (AIV) and, as AI-core exceptions, a cube program's
// mode-1 set and a flag set 17 times without a wait. The stream goes on.
TEST(KernelSplit, MisuseEndsTheKernelWithTheReason) {
  Session s;
  auto fails = [&](uint32_t what, aclError code, const std::string& text) {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_split_misuse)(1, s.stream, what), 0u);
    EXPECT_EQ(aclrtSynchronizeStream(s.stream), code) << what;
    const std::string why = aclGetRecentErrMsg();
    EXPECT_NE(why.find(text), std::string::npos) << why;
  };
  fails(0, ACL_ERROR_RT_VECTOR_CORE_EXCEPTION,
        "CrossCoreWaitFlag(5) in AIV 0 waits for a flag no program will set");
  fails(1, ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, "flag id 16 outside 0..15");
  fails(2, ACL_ERROR_RT_AICORE_EXCEPTION, "mode 1 syncs the vector programs of an AI core");
  fails(3, ACL_ERROR_RT_AICORE_EXCEPTION, "flag 4 of program 0 set more than 16 times");
  Dev<int64_t> out(std::vector<int64_t>(4 * 8, 0));
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_split_ids_1_2)(1, s.stream, out.dev), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
}

// The trace shows a split kernel as the device runs it: the cube program's tiles on AI Core 0,
// its two vector programs' on AI Vector 0 and 1, their vector work side by side and after the
// cube's last tile (the flag). Parsed from the file NPUSIM_TRACE wrote.
TEST(KernelSplit, TheTraceShowsTheProgramsOnTheirCores) {
  std::string path = testing::TempDir() + "kernel_split_trace.json";
  std::remove(path.c_str());
  const pid_t pid = fork();  // the trace is complete when the process exits
  if (pid == 0) {
    setenv("NPUSIM_TRACE", path.c_str(), 1);
    {
      Session s;
      const std::vector<_Float16> a = exactHalves(size_t{kM} * kK, 1), b = exactHalves(size_t{kK} * kN, 2);
      Dev<_Float16> da(a), db(b);
      Dev<float> dc(size_t{kM} * kN), dz(size_t{kM} * kN);
      EXPECT_EQ(ACLRT_LAUNCH_KERNEL(k_split_matmul_relu)(1, s.stream, da.dev, db.dev, dc.dev, dz.dev, kM, kN,
                                                         kK, 40),
                0u);
      EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
    }
    std::string().swap(path);  // exit() closes the trace; nothing left for LeakSanitizer
    std::exit(testing::Test::HasFailure() ? 1 : 0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  const std::string check =
      std::string("python3 ") + NPUSIM_SOURCE_DIR + "/scripts/check_trace.py --quiet " + path;
  EXPECT_EQ(std::system(check.c_str()), 0) << check;  // well formed (docs/trace.md)
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << path;
  const nlohmann::json trace = nlohmann::json::parse(in);
  std::map<std::pair<int, int>, std::string> thread;
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "thread_name")
      thread[{e["pid"].get<int>(), e["tid"].get<int>()}] = e["args"]["name"];
  // Per core track: whether the kernel is on it, and the span of its tiles that took time.
  struct Span {
    bool kernel = false;
    double first = 1e300, last = 0;
  };
  std::map<std::string, Span> cores;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] != "X" || !e.contains("tid")) continue;
    const std::string track = thread[{e["pid"].get<int>(), e["tid"].get<int>()}];
    Span& sp = cores[track];
    if (e["name"] == "k_split_matmul_relu") sp.kernel = true;
    if (e["name"] == "tile" && e["dur"].get<double>() > 0) {
      sp.first = std::min(sp.first, e["ts"].get<double>());
      sp.last = std::max(sp.last, e["ts"].get<double>() + e["dur"].get<double>());
    }
  }
  const Span &aic = cores["AI Core 0"], &aiv0 = cores["AI Vector 0"], &aiv1 = cores["AI Vector 1"];
  EXPECT_TRUE(aic.kernel && aiv0.kernel && aiv1.kernel);
  ASSERT_GT(aic.last, 0.0);
  ASSERT_GT(aiv0.last, 0.0);
  ASSERT_GT(aiv1.last, 0.0);
  EXPECT_GE(aiv0.first, aic.last);  // the vector work follows the product
  EXPECT_GE(aiv1.first, aic.last);
  EXPECT_LT(std::max(aiv0.first, aiv1.first), std::min(aiv0.last, aiv1.last));  // side by side
  EXPECT_EQ(cores["AI Vector 2"].last, 0.0);                                    // one AI core's programs only
}
