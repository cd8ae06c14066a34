// The data movement family's engines timed on the simulator against the HBM model's streaming
// time for the bytes each operator's cost model says it moves (measured on a fresh HbmModel,
// no number assumed): the gather map (ReflectionPad2d, Roll), the scatter engine (ScatterAdd)
// and the mask engine (SWhere), each within 15 % of the ratio aclnnInplaceCopy reaches on the
// same model (one pass over their bytes, as a copy) and at most 5 % under the streaming time
// (SWhere's three reads per write run about 3 % under the estimate the roofline helper makes
// for that mix from whole transfers; the tiles' reads are one access each).
#include <cstdio>

#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_reflection_pad2d.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_scatter_add.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/aicore/hbm_ratio.h"

using namespace aicore_test;

TEST(DataMovementRoofline, EnginesStreamAtHbmRate) {
  npusim::test::configure("sim.functional=false");
  Session ss;
  aclrtStream s = ss.stream;
  const int64_t R = 4096, C = 4096;
  DevTensor x({R, C}, ACL_FLOAT16), y({R, C}, ACL_FLOAT16), padded({1, R + 2, C + 2}, ACL_FLOAT16),
      x3({1, R, C}, ACL_FLOAT16), index({R, C}, ACL_INT32), cond({R, C}, ACL_BOOL), z({R, C}, ACL_FLOAT16);
  const double copy = hbmRatio(
      "InplaceCopy (ref)",
      [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceCopyGetWorkspaceSize(y.t, x.t, ws, ex); },
      aclnnInplaceCopy, s, x.bytes, x.bytes);
  auto near = [copy](double r) {
    EXPECT_GE(r, 0.95);
    EXPECT_LE(r, 1.15 * copy);
  };
  const int64_t ones[] = {1, 1, 1, 1}, shift[] = {3}, dim[] = {1};
  aclIntArray* pad = aclCreateIntArray(ones, 4);
  aclIntArray* shifts = aclCreateIntArray(shift, 1);
  aclIntArray* dims = aclCreateIntArray(dim, 1);
  near(hbmRatio(
      "ReflectionPad2d",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnReflectionPad2dGetWorkspaceSize(x3.t, pad, padded.t, ws, ex);
      },
      aclnnReflectionPad2d, s, x3.bytes, padded.bytes));
  near(hbmRatio(
      "Roll",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnRollGetWorkspaceSize(x.t, shifts, dims, y.t, ws, ex);
      },
      aclnnRoll, s, x.bytes, y.bytes));
  near(hbmRatio(
      "ScatterAdd",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnScatterAddGetWorkspaceSize(x.t, 1, index.t, y.t, z.t, ws, ex);
      },
      aclnnScatterAdd, s, x.bytes + index.bytes + y.bytes, z.bytes));
  near(hbmRatio(
      "SWhere",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnSWhereGetWorkspaceSize(cond.t, x.t, y.t, z.t, ws, ex);
      },
      aclnnSWhere, s, cond.bytes + x.bytes + y.bytes, z.bytes));
  aclDestroyIntArray(pad);
  aclDestroyIntArray(shifts);
  aclDestroyIntArray(dims);
}
