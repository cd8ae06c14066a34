// End to end through the ACL runtime: device memory, phase 1 + phase 2 on a stream, results
// copied back; executor single use / repeatable; capture and replay (seed 004's pattern).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_relu.h"

namespace {

// A dense fp32 device tensor.
struct DeviceTensor {
  std::vector<int64_t> shape;
  void* dev = nullptr;
  aclTensor* t = nullptr;
  size_t bytes = 0;

  explicit DeviceTensor(std::vector<int64_t> s, const std::vector<float>& init = {}) : shape(std::move(s)) {
    size_t n = 1;
    for (int64_t d : shape) n *= static_cast<size_t>(d);
    bytes = n * sizeof(float);
    EXPECT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::vector<float> h = init.empty() ? std::vector<float>(n, 0.0f) : init;
    EXPECT_EQ(aclrtMemcpy(dev, bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    const std::vector<int64_t> strides = aclnn_test::denseStrides(shape);
    t = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                        shape.size(), dev);
  }
  ~DeviceTensor() {
    aclDestroyTensor(t);
    aclrtFree(dev);
  }
  std::vector<float> read() const {
    std::vector<float> h(bytes / sizeof(float));
    EXPECT_EQ(aclrtMemcpy(h.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return h;
  }
};

class AclnnRuntime : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    aclrtDestroyStream(stream_);
    aclrtResetDevice(0);
    aclFinalize();
  }
  aclrtStream stream_ = nullptr;
};

}  // namespace

TEST_F(AclnnRuntime, OperatorsComputeOnDeviceMemory) {
  DeviceTensor a({4, 2}, {0, 1, 2, 3, 4, 5, 6, 7}), b({4, 2}, {1, 1, 1, 1, 1, 1, 1, 1}), o({4, 2});
  float alphaValue = 1.1f;
  aclScalar* alpha = aclCreateScalar(&alphaValue, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(a.t, b.t, alpha, o.t, &ws, &ex), ACL_SUCCESS);
  ASSERT_EQ(aclnnAdd(nullptr, ws, ex, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<float> r = o.read();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(r[i], static_cast<float>(i) + 1.1f) << i;

  // Relu, Mul, Matmul and ReduceSum chained on one stream (FIFO order).
  DeviceTensor m({4, 2}, {-1, 2, -3, 4, -5, 6, -7, 8}), rel({4, 2}), prod({4, 2}), mm({2, 2}), sum({2});
  ASSERT_EQ(aclnnReluGetWorkspaceSize(m.t, rel.t, &ws, &ex), ACL_SUCCESS);
  ASSERT_EQ(aclnnRelu(nullptr, 0, ex, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclnnMulGetWorkspaceSize(rel.t, a.t, prod.t, &ws, &ex), ACL_SUCCESS);
  ASSERT_EQ(aclnnMul(nullptr, 0, ex, stream_), ACL_SUCCESS);
  // mm = prod^T (2x4, a strided view) @ b (4x2)
  const int64_t tShape[] = {2, 4}, tStrides[] = {1, 2}, storage[] = {8};
  aclTensor* prodT = aclCreateTensor(tShape, 2, ACL_FLOAT, tStrides, 0, ACL_FORMAT_ND, storage, 1, prod.dev);
  ASSERT_EQ(aclnnMatmulGetWorkspaceSize(prodT, b.t, mm.t, 1, &ws, &ex), ACL_SUCCESS);
  ASSERT_EQ(aclnnMatmul(nullptr, 0, ex, stream_), ACL_SUCCESS);
  int64_t dim = 0;
  aclIntArray* dims = aclCreateIntArray(&dim, 1);
  ASSERT_EQ(aclnnReduceSumGetWorkspaceSize(mm.t, dims, false, ACL_FLOAT, sum.t, &ws, &ex), ACL_SUCCESS);
  ASSERT_EQ(aclnnReduceSum(nullptr, 0, ex, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  // relu(m) = [0,2,0,4,0,6,0,8]; prod = relu(m) * a = [0,2,0,12,0,30,0,56];
  // prod^T @ ones: row 0 = sum of even entries = 0, row 1 = 2+12+30+56 = 100 (both columns).
  EXPECT_EQ(prod.read(), (std::vector<float>{0, 2, 0, 12, 0, 30, 0, 56}));
  EXPECT_EQ(mm.read(), (std::vector<float>{0, 0, 100, 100}));
  EXPECT_EQ(sum.read(), (std::vector<float>{100, 100}));
  aclDestroyTensor(prodT);
  aclDestroyIntArray(dims);
  aclDestroyScalar(alpha);
}

TEST_F(AclnnRuntime, ExecutorIsSingleUseUnlessRepeatable) {
  DeviceTensor a({3}, {1, 2, 3}), b({3}, {10, 20, 30});
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnInplaceAddGetWorkspaceSize(a.t, b.t, alpha, &ws, &ex), ACL_SUCCESS);
  ASSERT_EQ(aclnnInplaceAdd(nullptr, 0, ex, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclnnInplaceAdd(nullptr, 0, ex, stream_), 161002);
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(msg, nullptr);
  EXPECT_NE(std::string(msg).find("already launched"), std::string::npos) << msg;
  EXPECT_EQ(aclnnInplaceAdd(nullptr, 0, nullptr, stream_), 161001);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(a.read(), (std::vector<float>{11, 22, 33}));  // ran exactly once

  // Repeatable: runs each time until destroyed; tensors can be re-pointed in between.
  ASSERT_EQ(aclnnInplaceAddGetWorkspaceSize(a.t, b.t, alpha, &ws, &ex), ACL_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), 0);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(aclnnInplaceAdd(nullptr, 0, ex, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(a.read(), (std::vector<float>{41, 82, 123}));
  DeviceTensor c({3}, {0, 0, 0});
  ASSERT_EQ(aclSetInputTensorAddr(ex, 1, b.t, c.dev), 0);  // other -> zeros
  ASSERT_EQ(aclnnInplaceAdd(nullptr, 0, ex, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(a.read(), (std::vector<float>{41, 82, 123}));
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), 0);
  EXPECT_EQ(aclnnInplaceAdd(nullptr, 0, ex, stream_), 161002);
  aclDestroyScalar(alpha);
}

TEST_F(AclnnRuntime, HostMemoryAsTensorDataIsRefusedAtLaunch) {
  std::vector<float> host(4, 1.0f);
  const int64_t shape[] = {4};
  aclTensor* h = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, host.data());
  DeviceTensor o({4});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnReluGetWorkspaceSize(h, o.t, &ws, &ex), ACL_SUCCESS);
  EXPECT_EQ(aclnnRelu(nullptr, 0, ex, stream_), 161002);
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(msg, nullptr);
  EXPECT_NE(std::string(msg).find("not inside one live device allocation"), std::string::npos) << msg;
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), 0);  // a refused launch does not consume it
  aclDestroyTensor(h);
}

TEST_F(AclnnRuntime, CapturedOperatorReplaysAfterItsExecutorIsGone) {
  // Seed 004's pattern: aclnnAdd captured once, the model replayed; each replay adds again.
  DeviceTensor self({8}), other({8}, std::vector<float>(8, 1.0f)), out({8});
  float alphaValue = 1.1f;
  aclScalar* alpha = aclCreateScalar(&alphaValue, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(self.t, other.t, alpha, out.t, &ws, &ex), ACL_SUCCESS);
  float* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(reinterpret_cast<void**>(&pinned), 8 * sizeof(float)), ACL_SUCCESS);
  for (int i = 0; i < 8; ++i) pinned[i] = 0.0f;
  aclmdlRI model = nullptr;
  const aclError begin = aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
  if (begin == ACL_ERROR_API_NOT_SUPPORT) {
    aclrtFreeHost(pinned);
    aclDestroyAclOpExecutor(ex);
    aclDestroyScalar(alpha);
    GTEST_SKIP() << "stream capture is not available in this runtime build";
  }
  ASSERT_EQ(begin, ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(self.dev, self.bytes, pinned, self.bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclnnAdd(nullptr, ws, ex, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(pinned, out.bytes, out.dev, out.bytes, ACL_MEMCPY_DEVICE_TO_HOST, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  for (int rep = 1; rep <= 8; ++rep) {
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    float expect = 0.0f;
    for (int k = 0; k < rep; ++k) expect = expect + 1.1f;
    for (int i = 0; i < 8; ++i) ASSERT_FLOAT_EQ(pinned[i], expect) << "replay " << rep;
  }
  aclmdlRIDestroy(model);
  aclrtFreeHost(pinned);
  aclDestroyScalar(alpha);
}

// Timing-only mode simulates no data: neither the copies nor the operator move bytes, so the
// output never holds relu(a) (docs/configuration.md, sim.functional).
TEST(AclnnRuntimeConfig, FunctionalOffComputesNothing) {
  setenv("NPUSIM_SET", "sim.functional=false", 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  {
    DeviceTensor a({4}, {-1, -2, 3, 4}), o({4}, {9, 9, 9, 9});
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnReluGetWorkspaceSize(a.t, o.t, &ws, &ex), ACL_SUCCESS);
    ASSERT_EQ(aclnnRelu(nullptr, 0, ex, nullptr), ACL_SUCCESS);  // default stream
    ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    EXPECT_NE(o.read(), (std::vector<float>{0, 0, 3, 4}));
  }
  aclrtResetDevice(0);
  aclFinalize();
}
