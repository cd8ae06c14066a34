// The MoE family's cost models timed on the simulator against the roofline of their traffic
// (the HBM model's streaming rate for the read/write mix, or the cube cores' ports): a token
// permute streams within 15 % of the ratio aclnnInplaceCopy reaches at its size (the launch and
// pipeline costs keep both above the pure streaming time), a dynamic quantisation below twice
// its streaming time, and a decoding grouped matmul reads only the weights of the experts its
// rows can reach.
#include <cstdio>

#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_dynamic_quant.h"
#include "aclnnop/aclnn_grouped_matmul_v5.h"
#include "aclnnop/aclnn_moe_token_permute.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/aicore/roofline.h"

using namespace aicore_test;

namespace {

aclTensorList* listOf(const DevTensor& t) {
  std::vector<int64_t> strides(t.shape.size(), 1);
  for (size_t i = t.shape.size(); i-- > 1;) strides[i - 1] = strides[i] * t.shape[i];
  aclTensor* h = aclCreateTensor(t.shape.data(), t.shape.size(), t.dtype, strides.data(), 0, ACL_FORMAT_ND,
                                 t.shape.data(), t.shape.size(), t.dev);
  return aclCreateTensorList(&h, 1);
}

}  // namespace

TEST(MoeRoofline, PermuteAndDynamicQuantStreamAtTheHbmRate) {
  npusim::test::configure("sim.functional=false");
  Session ss;
  const int64_t T = 2048, K = 8, H = 2048;
  DevTensor x({T, H}, ACL_FLOAT16), idx({T, K}, ACL_INT32), perm({T * K, H}, ACL_FLOAT16),
      sorted({T * K}, ACL_INT32);
  const uint64_t read = x.bytes + idx.bytes, written = perm.bytes + sorted.bytes;
  const double r = timedBoundRatio(
      "MoeTokenPermute",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMoeTokenPermuteGetWorkspaceSize(x.t, idx.t, 0, false, perm.t, sorted.t, ws, ex);
      },
      aclnnMoeTokenPermute, ss.stream, roofline::memorySec(config(), read, written));
  DevTensor copyIn({T * K, H}, ACL_FLOAT16);
  const double copy = timedBoundRatio(
      "InplaceCopy (reference)",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnInplaceCopyGetWorkspaceSize(perm.t, copyIn.t, ws, ex);
      },
      aclnnInplaceCopy, ss.stream, roofline::memorySec(config(), perm.bytes, perm.bytes));
  EXPECT_GE(r, 1.0);
  EXPECT_LE(r, 1.15 * copy);
  // DynamicQuant writes int8 (1 byte per element) and one fp32 scale per row.
  DevTensor xq({4096, 4096}, ACL_FLOAT16), scale({4096}, ACL_FLOAT);
  void* yDev = nullptr;
  ASSERT_EQ(aclrtMalloc(&yDev, 4096 * 4096, ACL_MEM_MALLOC_HUGE_FIRST), 0);
  const int64_t yShape[2] = {4096, 4096}, yStrides[2] = {4096, 1};
  aclTensor* y = aclCreateTensor(yShape, 2, ACL_INT8, yStrides, 0, ACL_FORMAT_ND, yShape, 2, yDev);
  const double rq = timedBoundRatio(
      "DynamicQuant",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnDynamicQuantGetWorkspaceSize(xq.t, nullptr, y, scale.t, ws, ex);
      },
      aclnnDynamicQuant, ss.stream, roofline::memorySec(config(), xq.bytes, 4096 * 4096 + scale.bytes));
  EXPECT_GE(rq, 1.0);
  EXPECT_LE(rq, 2.0);  // several vector passes (abs, max, divide, cast) over each tile
  aclDestroyTensor(y);
  aclrtFree(yDev);
}

TEST(MoeRoofline, DecodingGroupedMatmulReadsOnlyTheReachableExperts) {
  npusim::test::configure("sim.functional=false");
  Session ss;
  const int64_t M = 8, E = 64, K = 2048, N = 1536;
  DevTensor x({M, K}, ACL_FLOAT16), w({E, K, N}, ACL_FLOAT16), y({M, N}, ACL_FLOAT16), groups({E}, ACL_INT32);
  // groups is int64 on the device: a separate tensor of E int64 values.
  void* gDev = nullptr;
  ASSERT_EQ(aclrtMalloc(&gDev, E * 8, ACL_MEM_MALLOC_HUGE_FIRST), 0);
  const int64_t gShape[1] = {E}, gStride[1] = {1};
  aclTensor* g = aclCreateTensor(gShape, 1, ACL_INT64, gStride, 0, ACL_FORMAT_ND, gShape, 1, gDev);
  aclTensorList *xl = listOf(x), *wl = listOf(w), *yl = listOf(y);
  // Eight rows reach at most eight experts: 8 x K x N fp16 weights, not all 64.
  const uint64_t weights = static_cast<uint64_t>(M * K * N * 2);
  const double r = timedBoundRatio(
      "GroupedMatmulV5 (8 rows, 64 E)",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnGroupedMatmulV5GetWorkspaceSize(xl, wl, nullptr, nullptr, nullptr, nullptr, nullptr,
                                                    nullptr, g, nullptr, nullptr, nullptr, 3, 0, 0, 0,
                                                    nullptr, yl, nullptr, nullptr, ws, ex);
      },
      aclnnGroupedMatmulV5, ss.stream, roofline::cubeMemorySec(config(), weights + x.bytes, y.bytes));
  EXPECT_GE(r, 1.0);
  EXPECT_LE(r, 1.3);
  for (aclTensorList* l : {xl, wl, yl}) aclDestroyTensorList(l);
  aclDestroyTensor(g);
  aclrtFree(gDev);
}
