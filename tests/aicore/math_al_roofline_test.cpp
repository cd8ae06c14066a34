// The cost models of the engines added for the math operators a-l (issue 28), timed on the
// simulator against the HBM model's streaming time for the bytes each must move (measured on a
// fresh HbmModel, no figure assumed): the pointwise engine (Addcmul, three operands), the scan
// engine (Cumsum) and the pair reduction (Dot). Each is never faster than streaming its bytes
// and within 15 % of the ratio aclnnInplaceCopy reaches at the same size (one pass each; the
// fixed launch and pipeline costs keep every operator a little above the pure streaming time).
#include <cstdio>

#include "aclnnop/aclnn_addcmul.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_dot.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/aicore/hbm_ratio.h"

using namespace aicore_test;

TEST(MathAlRoofline, PointwiseScanAndDotStreamAtHbmRate) {
  npusim::test::configure("sim.functional=false");
  Session ss;
  aclrtStream s = ss.stream;
  const int64_t R = 4096, C = 4096;
  DevTensor x({R, C}, ACL_FLOAT16), y({R, C}, ACL_FLOAT16), z({R, C}, ACL_FLOAT16), out({R, C}, ACL_FLOAT16),
      flat({R * C}, ACL_FLOAT16), flat2({R * C}, ACL_FLOAT16), one({}, ACL_FLOAT16);
  const uint64_t X = x.bytes;
  const double copy = hbmRatio(
      "Copy",
      [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceCopyGetWorkspaceSize(y.t, x.t, ws, ex); },
      aclnnInplaceCopy, s, X, X);
  const auto near = [copy](double r) {
    EXPECT_GE(r, 1.0);
    EXPECT_LE(r, 1.15 * copy);
  };
  float v = 0.5f;
  aclScalar* value = aclCreateScalar(&v, ACL_FLOAT);
  near(hbmRatio(
      "Addcmul",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnAddcmulGetWorkspaceSize(x.t, y.t, z.t, value, out.t, ws, ex);
      },
      aclnnAddcmul, s, 3 * X, X));
  near(hbmRatio(
      "Cumsum",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnCumsumGetWorkspaceSize(x.t, 1, ACL_FLOAT16, out.t, ws, ex);
      },
      aclnnCumsum, s, X, X));
  near(hbmRatio(
      "Dot",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnDotGetWorkspaceSize(flat.t, flat2.t, one.t, ws, ex);
      },
      aclnnDot, s, 2 * X, 2));
  aclDestroyScalar(value);
}
