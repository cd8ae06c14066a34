// The loss and pooling engines' cost models timed on the simulator (timing only) against the HBM
// model's streaming time for each operator's bytes (roofline.h measures the rate on a fresh
// HbmModel, no number assumed): a pointwise loss reduced to one element (MseLoss, mean), its
// gradient (MseLossBackward) and two pools (AvgPool2d, MaxPool2d with indices) are never faster
// than moving their bytes and stay within twice that time at these sizes: they stream their
// operands once.
#include <cstdio>

#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/aicore/hbm_ratio.h"

using namespace aicore_test;

namespace {

// Simulated time over the HBM streaming time of `readBytes` + `writeBytes`.
void streamsOnce(double r) {
  EXPECT_GE(r, 1.0);
  EXPECT_LE(r, 2.0);
}

}  // namespace

TEST(LossesPoolingRoofline, StreamAtHbmRate) {
  npusim::test::configure("sim.functional=false");
  Session ss;
  aclrtStream s = ss.stream;
  const int64_t R = 4096, C = 4096;
  DevTensor x({R, C}, ACL_FLOAT16), y({R, C}, ACL_FLOAT16), one({}, ACL_FLOAT16), gx({R, C}, ACL_FLOAT16);
  const uint64_t X = x.bytes;
  streamsOnce(hbmRatio(
      "MseLoss mean",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMseLossGetWorkspaceSize(x.t, y.t, 1, one.t, ws, ex);
      },
      aclnnMseLoss, s, 2 * X, one.bytes));
  streamsOnce(hbmRatio(
      "MseLossBackward",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMseLossBackwardGetWorkspaceSize(one.t, x.t, y.t, 1, gx.t, ws, ex);
      },
      aclnnMseLossBackward, s, 2 * X + one.bytes, X));
  // Pools over [16, 64, 128, 128] fp16 with 2x2 windows, stride 2 (no overlap).
  DevTensor img({16, 64, 128, 128}, ACL_FLOAT16), pooled({16, 64, 64, 64}, ACL_FLOAT16),
      idx({16, 64, 64, 64}, ACL_INT32);
  int64_t two[] = {2, 2}, zero[] = {0, 0}, unit[] = {1, 1};
  aclIntArray *k = aclCreateIntArray(two, 2), *p = aclCreateIntArray(zero, 2),
              *d = aclCreateIntArray(unit, 2);
  streamsOnce(hbmRatio(
      "AvgPool2d 2x2",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnAvgPool2dGetWorkspaceSize(img.t, k, k, p, false, true, 0, 0, pooled.t, ws, ex);
      },
      aclnnAvgPool2d, s, img.bytes, pooled.bytes));
  streamsOnce(hbmRatio(
      "MaxPool2dWithIndices",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMaxPool2dWithIndicesGetWorkspaceSize(img.t, k, k, p, d, false, pooled.t, idx.t, ws, ex);
      },
      aclnnMaxPool2dWithIndices, s, img.bytes, pooled.bytes + idx.bytes));
  for (aclIntArray* a : {k, p, d}) aclDestroyIntArray(a);
}
