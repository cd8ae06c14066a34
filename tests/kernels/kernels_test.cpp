// Custom Ascend C kernels (docs/kernels.md): every supported call against plain host code,
// launches through <<<>>>, ACLRT_LAUNCH_KERNEL and kernel binaries, printf at synchronisation,
// faults reported at the next synchronisation and to exception callbacks, and the time of a
// memory-bound kernel against the HBM model's own streaming rate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_binary.h"
#include "aclrtlaunch_k_cast.h"
#include "aclrtlaunch_k_ids.h"
#include "aclrtlaunch_k_narrow.h"
#include "aclrtlaunch_k_reduce.h"
#include "aclrtlaunch_k_scale_buffers.h"
#include "aclrtlaunch_k_stream_add.h"
#include "aclrtlaunch_k_strided.h"
#include "aclrtlaunch_k_unary.h"
#include "models/hbm/hbm_params.h"
#include "models/hbm/hbm_traffic.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/kernels/dev_buffer.h"

uint32_t LaunchOutOfBounds(void* stream, float* p);
uint32_t LaunchTrap(void* stream);
uint32_t LaunchBadDeque(void* stream);
uint32_t LaunchUbOverflow(void* stream);

using aicore_test::Session;

namespace {

using kernel_test::Dev;

std::vector<float> ramp(size_t n, float a, float b) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = a + b * static_cast<float>(i % 97) - 0.37f * static_cast<float>(i % 5);
  return v;
}

constexpr uint32_t kN = 1000 / 8 * 8;  // a whole number of 32-byte blocks of fp32

}  // namespace

TEST(KernelOps, BinaryElementwiseMatchesReference) {
  Session s;
  Dev<float> a(ramp(kN, -20, 0.5f)), b(ramp(kN, 1, 0.25f)), out(kN);
  const char* names[] = {"Add", "Sub", "Mul", "Div", "Max", "Min"};
  for (uint32_t op = 0; op < 6; ++op) {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_binary)(1, s.stream, a.dev, b.dev, out.dev, kN, op), 0u)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    out.read();
    for (uint32_t i = 0; i < kN; ++i) {
      const float x = a.host[i], y = b.host[i];
      const float want = op == 0   ? x + y
                         : op == 1 ? x - y
                         : op == 2 ? x * y
                         : op == 3 ? x / y
                         : op == 4 ? std::max(x, y)
                                   : std::min(x, y);
      ASSERT_EQ(out.host[i], want) << names[op] << " at " << i;
    }
  }
}

TEST(KernelOps, UnaryScalarAndDuplicateMatchReference) {
  Session s;
  Dev<float> a(ramp(kN, 2.0f, 0.125f)), neg(ramp(kN, -6, 0.125f)), out(kN);  // a > 0: Ln, Sqrt
  for (uint32_t op = 0; op < 8; ++op) {
    Dev<float>& in = (op == 2 || op == 3) ? neg : a;
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_unary)(1, s.stream, in.dev, out.dev, kN, op, 2.5f), 0u);
    ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    out.read();
    for (uint32_t i = 0; i < kN; ++i) {
      const float x = in.host[i];
      const float want = op == 0   ? std::exp(x)
                         : op == 1 ? std::log(x)
                         : op == 2 ? std::fabs(x)
                         : op == 3 ? std::max(x, 0.0f)
                         : op == 4 ? std::sqrt(x)
                         : op == 5 ? x + 2.5f
                         : op == 6 ? x * 2.5f
                                   : 2.5f;
      ASSERT_EQ(out.host[i], want) << "op " << op << " at " << i;
    }
  }
}

TEST(KernelOps, HalfAndBfloat16Arithmetic) {
  Session s;
  const uint32_t n = 256;
  std::vector<aclFloat16> xh(n), yh(n);
  std::vector<uint16_t> xb(n), yb(n);
  auto bf = [](float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return static_cast<uint16_t>((u + 0x7fff + ((u >> 16) & 1)) >> 16);
  };
  auto unbf = [](uint16_t b) {
    uint32_t u = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  };
  for (uint32_t i = 0; i < n; ++i) {
    xh[i] = aclFloatToFloat16(0.1f * static_cast<float>(i));
    yh[i] = aclFloatToFloat16(1.0f / static_cast<float>(i + 1));
    xb[i] = bf(1.0f + 0.01f * static_cast<float>(i));
    yb[i] = bf(3.0f - 0.003f * static_cast<float>(i));
  }
  Dev<aclFloat16> dxh(xh), dyh(yh), dzh(n);
  Dev<uint16_t> dxb(xb), dyb(yb), dzb(n);
  ASSERT_EQ(
      ACLRT_LAUNCH_KERNEL(k_narrow)(1, s.stream, dxh.dev, dyh.dev, dzh.dev, dxb.dev, dyb.dev, dzb.dev, n),
      0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  dzh.read();
  dzb.read();
  for (uint32_t i = 0; i < n; ++i) {
    // One rounding of the exact sum/product to the narrow type.
    const float sum = aclFloat16ToFloat(xh[i]) + aclFloat16ToFloat(yh[i]);
    EXPECT_EQ(dzh.host[i], aclFloatToFloat16(sum)) << i;
    EXPECT_EQ(dzb.host[i], bf(unbf(xb[i]) * unbf(yb[i]))) << i;
  }
}

TEST(KernelOps, CastRoundingModes) {
  Session s;
  std::vector<float> v = {-2.5f, -1.5f,  -0.5f,    0.5f, 1.5f, 2.5f,   2.7f,  -2.7f,
                          1e10f, -1e10f, 65504.0f, 0.1f, 3.0f, -3.25f, 7.75f, 100.5f};
  const uint32_t n = static_cast<uint32_t>(v.size());
  Dev<float> in(v), back(n);
  Dev<int32_t> outInt(n);
  Dev<aclFloat16> outHalf(n);
  struct M {
    uint32_t mode;
    double (*f)(double);
  } modes[] = {{1, [](double x) { return std::nearbyint(x); }},
               {2, [](double x) { return std::floor(x); }},
               {3, [](double x) { return std::ceil(x); }},
               {4, [](double x) { return std::round(x); }},
               {5, [](double x) { return std::trunc(x); }}};
  for (const M& m : modes) {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_cast)(1, s.stream, in.dev, outInt.dev, outHalf.dev, back.dev, n, m.mode),
              0u);
    ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    outInt.read();
    for (uint32_t i = 0; i < n; ++i) {
      const double r = std::clamp(m.f(v[i]), -2147483648.0, 2147483647.0);  // saturating
      EXPECT_EQ(outInt.host[i], static_cast<int32_t>(r)) << "mode " << m.mode << " value " << v[i];
    }
  }
  outHalf.read();
  back.read();
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_EQ(outHalf.host[i], aclFloatToFloat16(v[i])) << v[i];
    EXPECT_EQ(back.host[i], aclFloat16ToFloat(aclFloatToFloat16(v[i]))) << v[i];
  }
}

TEST(KernelOps, ReductionsAndStridedCopies) {
  Session s;
  Dev<float> in(ramp(kN, -3, 0.75f)), out(8);
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_reduce)(1, s.stream, in.dev, out.dev, kN), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  out.read();
  float sum = 0;
  for (float x : in.host) sum += x;
  const auto best = std::max_element(in.host.begin(), in.host.end());
  EXPECT_NEAR(out.host[0], sum, 1e-5 * std::fabs(sum) + 1e-3);
  EXPECT_EQ(out.host[1], *best);
  uint32_t idx;
  std::memcpy(&idx, &out.host[2], 4);
  EXPECT_EQ(idx, static_cast<uint32_t>(best - in.host.begin()));

  // Gather 4 blocks of 8 floats spaced one block apart, scatter them two blocks apart.
  std::vector<float> src(64);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<float>(i);
  Dev<float> gin(src), gout(std::vector<float>(96, -1.0f));
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_strided)(1, s.stream, gin.dev, gout.dev, static_cast<uint16_t>(4)), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  gout.read();
  for (int blk = 0; blk < 4; ++blk)
    for (int j = 0; j < 8; ++j) {
      EXPECT_EQ(gout.host[static_cast<size_t>(blk * 24 + j)], static_cast<float>(blk * 16 + j));
      EXPECT_EQ(gout.host[static_cast<size_t>(blk * 24 + 8 + j)], -1.0f);  // gaps untouched
    }
}

TEST(KernelLaunch, BlockIdsScalarGmAccessAndPrintfAtSync) {
  Session s;
  Dev<int64_t> ids(16);
  testing::internal::CaptureStdout();
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_ids)(8, s.stream, ids.dev), 0u);
  const std::string beforeSync = testing::internal::GetCapturedStdout();
  testing::internal::CaptureStdout();
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  const std::string atSync = testing::internal::GetCapturedStdout();
  EXPECT_EQ(beforeSync, "");
  std::string want;
  for (int b = 0; b < 8; ++b) want += "block " + std::to_string(b) + " of 8\n";
  EXPECT_EQ(atSync, want);
  ids.read();
  for (int b = 0; b < 8; ++b) {
    EXPECT_EQ(ids.host[static_cast<size_t>(2 * b)], b);
    EXPECT_EQ(ids.host[static_cast<size_t>(2 * b + 1)], 8);
  }
  // Outside a kernel, host code cannot touch device memory again: the kernel's window closed.
  EXPECT_EXIT(std::printf("%lld\n", static_cast<long long>(*static_cast<volatile int64_t*>(ids.dev))),
              testing::ExitedWithCode(86), "");  // runtime/checks.h kHostAccessExitCode
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(k_ids)(0, s.stream, ids.dev), static_cast<uint32_t>(ACL_ERROR_INVALID_PARAM));
}

namespace {
uint32_t gCallbackCalls = 0, gCallbackStream = 0, gCallbackCode = 0, gCallbackDevice = 99;
void onException(aclrtExceptionInfo* info) {
  ++gCallbackCalls;
  gCallbackStream = aclrtGetStreamIdFromExceptionInfo(info);
  gCallbackCode = aclrtGetErrorCodeFromExceptionInfo(info);
  gCallbackDevice = aclrtGetDeviceIdFromExceptionInfo(info);
}
}  // namespace

TEST(KernelFault, OutOfBoundsAccessFailsTheNextSyncAndCallsBack) {
  Session s;
  ASSERT_EQ(aclrtSetExceptionInfoCallback(onException), ACL_SUCCESS);
  Dev<float> buf(std::vector<float>(64, 0.0f));
  ASSERT_EQ(LaunchOutOfBounds(s.stream, static_cast<float*>(buf.dev)), 0u);  // the launch itself succeeds
  EXPECT_EQ(gCallbackCalls, 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("k_out_of_bounds (block 1)"), std::string::npos)
      << aclGetRecentErrMsg();
  EXPECT_EQ(gCallbackCalls, 1u);
  EXPECT_EQ(gCallbackCode, static_cast<uint32_t>(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION));
  EXPECT_EQ(gCallbackDevice, 0u);
  EXPECT_EQ(buf.read()[0], 1.0f);  // block 0 ran before the fault
  // Reported once; the stream keeps working.
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  EXPECT_EQ(LaunchBadDeque(s.stream), 0u);
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("DeQue on an empty queue"), std::string::npos);
  EXPECT_EQ(LaunchUbOverflow(s.stream), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(gCallbackCalls, 3u);
}

TEST(KernelFault, TrapIsAVectorCoreException) {
  Session s;
  ASSERT_EQ(aclrtExceptionInfoCallbackRegister(onException), ACL_SUCCESS);
  EXPECT_EQ(LaunchTrap(s.stream), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(gCallbackCode, static_cast<uint32_t>(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION));
  EXPECT_EQ(aclrtExceptionInfoCallbackUnregister(onException), ACL_SUCCESS);
  EXPECT_EQ(aclrtExceptionInfoCallbackUnregister(onException), ACL_ERROR_INVALID_PARAM);
}

TEST(KernelBinary, LoadGetFunctionArgsAndLaunch) {
  Session s;
  aclrtBinHandle bin = nullptr;
  EXPECT_EQ(aclrtBinaryLoadFromFile("/nonexistent/k.o", nullptr, &bin), ACL_ERROR_INVALID_FILE);
  ASSERT_EQ(aclrtBinaryLoadFromFile(NPUSIM_TEST_KERNEL_BINARY, nullptr, &bin), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  aclrtFuncHandle f = nullptr;
  EXPECT_EQ(aclrtBinaryGetFunction(bin, "no_such_kernel", &f), ACL_ERROR_RT_SYMBOL_NOT_FOUND);
  ASSERT_EQ(aclrtBinaryGetFunction(bin, "bin_scale", &f), ACL_SUCCESS);

  const uint32_t n = 4096;
  Dev<float> x(ramp(n, 1, 0.5f)), out(n);
  aclrtArgsHandle args = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(f, &args), ACL_SUCCESS);
  aclrtParamHandle p1, p2, pf, pn;
  ASSERT_EQ(aclrtKernelArgsAppend(args, &x.dev, sizeof(void*), &p1), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppend(args, &out.dev, sizeof(void*), &p2), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(args, &pf), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(args, &pn), ACL_SUCCESS);
  void *hf = nullptr, *hn = nullptr;
  ASSERT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, pf, sizeof(float), &hf), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, pn, sizeof(uint32_t), &hn), ACL_SUCCESS);
  *static_cast<float*>(hf) = -3.0f;
  *static_cast<uint32_t*>(hn) = n;
  EXPECT_EQ(aclrtLaunchKernelWithConfig(f, 8, s.stream, nullptr, args, nullptr),
            ACL_ERROR_INVALID_PARAM);  // not final
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  aclrtLaunchKernelAttr attr;
  attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
  attr.value.timeout = 10;
  aclrtLaunchKernelCfg cfg{&attr, 1};
  ASSERT_EQ(aclrtLaunchKernelWithConfig(f, 8, s.stream, &cfg, args, nullptr), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  out.read();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out.host[i], x.host[i] * -3.0f) << i;

  // aclrtLaunchKernel: arguments packed at their natural alignment.
  aclrtFuncHandle fill = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(bin, "bin_fill", &fill), ACL_SUCCESS);
  Dev<int32_t> ints(4 * 16);
  struct {
    void* out;
    int32_t value;
    uint64_t n;
  } packed{ints.dev, 40, 16};
  EXPECT_EQ(aclrtLaunchKernel(fill, 4, &packed, 12, s.stream), ACL_ERROR_INVALID_PARAM);  // too short
  ASSERT_EQ(aclrtLaunchKernel(fill, 4, &packed, sizeof packed, s.stream), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  ints.read();
  for (int b = 0; b < 4; ++b) EXPECT_EQ(ints.host[static_cast<size_t>(b * 16 + 15)], 40 + b);

  // From memory: the same binary's bytes.
  std::ifstream file(NPUSIM_TEST_KERNEL_BINARY, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  aclrtBinHandle bin2 = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromData(bytes.data(), bytes.size(), nullptr, &bin2), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(aclrtBinaryGetFunction(bin2, "bin_fill", &fill), ACL_SUCCESS);
  EXPECT_EQ(aclrtBinaryUnLoad(bin2), ACL_SUCCESS);
  EXPECT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  EXPECT_EQ(aclrtBinaryUnLoad(bin), ACL_ERROR_INVALID_PARAM);
}

// A memory-bound kernel (3 x 24 MiB fp32 add on all 48 vector cores) is HBM bound: it takes the
// time of aclnnAdd on the same tensors (which tests/aicore/hbm_bound_test shows to be HBM bound)
// within 15 %, no less than the HBM model needs to stream its bytes on its own, and, less the
// device's fixed cost per task (dispatch + task start), within 15 % of that streaming time.
TEST(KernelTiming, MemoryBoundKernelRunsAtHbmBandwidth) {
  Session s;
  const npusim::Config& cfg = aicore_test::config();
  const uint32_t blocks = static_cast<uint32_t>(cfg.getInt("aicore.vector_cores"));
  const uint32_t tile = 8192, perBlock = 16 * tile, n = blocks * perBlock;
  aicore_test::DevTensor x({n}, ACL_FLOAT), y({n}, ACL_FLOAT), z({n}, ACL_FLOAT);
  auto kernel = [&] {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_stream_add)(blocks, s.stream, x.dev, y.dev, z.dev, perBlock, tile), 0u);
  };
  auto aclnn = [&] { aicore_test::add(x, y, z, s.stream); };
  const double sec = 1e-3 * aicore_test::deviceMs(s.stream, kernel, kernel);
  const double aclnnSec = 1e-3 * aicore_test::deviceMs(s.stream, aclnn, aclnn);

  const uint64_t moved = x.bytes + y.bytes + z.bytes;
  npusim::HbmModel m(npusim::hbmParamsFromConfig(cfg));
  npusim::HbmTrafficSpec spec;
  spec.readFraction = 2.0 / 3.0;
  spec.requestBytes = 65536;
  spec.requests = moved / spec.requestBytes;
  spec.outstanding = 64;
  const double streamSec = static_cast<double>(moved) / npusim::runHbmTraffic(m, spec).bytesPerSec;
  std::printf("k_stream_add: %.1f us, aclnnAdd %.1f us (ratio %.3f), HBM streaming alone %.1f us\n",
              sec * 1e6, aclnnSec * 1e6, sec / aclnnSec, streamSec * 1e6);
  EXPECT_NEAR(sec / aclnnSec, 1.0, 0.15);
  EXPECT_GE(sec, streamSec);
  const double fixed = 1e-9 * (cfg.getFloat("sched.dispatch_ns") + cfg.getFloat("aicore.task_start_ns"));
  EXPECT_LE((sec - fixed) / streamSec, 1.15);
}

// The buffers a kernel gives its queues decide how far its copies overlap its compute: with two
// (double buffering) tile j+1 loads while tile j computes; with one, copy in, compute and copy
// out of each tile run one after another. Four blocks (the HBM far from saturated), compute
// made about as long as a tile's load: one buffer costs at least 1.4x; the results are the same.
TEST(KernelTiming, OneBufferPerQueueSerialisesCopyAndCompute) {
  Session s;
  const uint32_t blocks = 4, tile = 8192, perBlock = 16 * tile, n = blocks * perBlock, passes = 8;
  aicore_test::DevTensor x({n}, ACL_FLOAT), z({n}, ACL_FLOAT);
  std::vector<float> in(n), out(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = static_cast<float>(i % 97) - 48.0f;
  ASSERT_EQ(aclrtMemcpy(x.dev, x.bytes, in.data(), x.bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  auto timed = [&](uint32_t buffers) {
    auto k = [&] {
      ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_scale_buffers)(blocks, s.stream, x.dev, z.dev, perBlock, tile, buffers,
                                                     passes),
                0u);
    };
    const double ms = aicore_test::deviceMs(s.stream, k, k);
    EXPECT_EQ(aclrtMemcpy(out.data(), z.bytes, z.dev, z.bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (uint32_t i = 0; i < n; i += 97) EXPECT_EQ(out[i], in[i] * 256.0f) << i;
    return ms;
  };
  const double one = timed(1), two = timed(2);
  std::printf("k_scale_buffers: 1 buffer %.1f us, 2 buffers %.1f us (x%.2f)\n", one * 1e3, two * 1e3,
              one / two);
  EXPECT_GT(one, 1.4 * two);
}

// The CANN UVM sample's pattern: inputs and output in managed memory, written and read by host
// code directly, with no copy; the kernel reads and writes the same pointers.
TEST(KernelManagedMemory, KernelUsesManagedPointersTheHostFilledAndReads) {
  Session s;
  const uint32_t blocks = 8, tile = 1024, perBlock = 4 * tile, n = blocks * perBlock;
  float *x = nullptr, *y = nullptr, *z = nullptr;
  for (float** p : {&x, &y, &z})
    ASSERT_EQ(aclrtMemAllocManaged(reinterpret_cast<void**>(p), n * sizeof(float), ACL_RT_MEM_ATTACH_GLOBAL),
              ACL_SUCCESS);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 113);
    y[i] = 0.5f * static_cast<float>(i % 7);
  }
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_stream_add)(blocks, s.stream, x, y, z, perBlock, tile), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(z[i], x[i] + y[i]) << i;
  for (float* p : {x, y, z}) EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
}
