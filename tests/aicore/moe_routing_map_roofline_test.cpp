// The routing-map permute's cost on the simulator against the roofline of its traffic: it
// streams its tokens, map and probabilities in and the permuted copies out within 15 % of the
// ratio aclnnInplaceCopy reaches over the same output (the launch and pipeline costs keep both
// above the pure streaming time).
#include <cstdio>

#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_moe_token_permute_with_routing_map.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/aicore/roofline.h"

using namespace aicore_test;

TEST(MoeRoutingMapRoofline, PermuteStreamsAtTheHbmRate) {
  npusim::test::configure("sim.functional=false");
  Session ss;
  const int64_t T = 2048, E = 64, K = 8, H = 2048;
  DevTensor x({T, H}, ACL_FLOAT16), map({T, E}, ACL_BOOL), probs({T, E}, ACL_FLOAT16),
      perm({T * K, H}, ACL_FLOAT16), pp({T * K}, ACL_FLOAT16), sorted({T * K}, ACL_INT32);
  const uint64_t read = x.bytes + map.bytes + probs.bytes, written = perm.bytes + pp.bytes + sorted.bytes;
  const double r = timedBoundRatio(
      "MoeTokenPermuteWithRoutingMap",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMoeTokenPermuteWithRoutingMapGetWorkspaceSize(x.t, map.t, probs.t, T * K, false, perm.t,
                                                                  pp.t, sorted.t, ws, ex);
      },
      aclnnMoeTokenPermuteWithRoutingMap, ss.stream, roofline::memorySec(config(), read, written));
  DevTensor copyIn({T * K, H}, ACL_FLOAT16);
  const double copy = timedBoundRatio(
      "InplaceCopy (reference)",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnInplaceCopyGetWorkspaceSize(perm.t, copyIn.t, ws, ex);
      },
      aclnnInplaceCopy, ss.stream, roofline::memorySec(config(), perm.bytes, perm.bytes));
  EXPECT_GE(r, 1.0);
  EXPECT_LE(r, 1.15 * copy);
}
