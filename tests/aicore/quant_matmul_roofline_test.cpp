// The int8 quantised matmuls (docs/operators/quant_matmul.md) run at the cube's int8 rate, twice
// its fp16 MAC rate (configs/910b.json aicore.cube_macs_per_cycle counts fp16 MACs): a large
// aclnnQuantMatmulV4 is compute bound and reaches >= 80 % of that int8 peak, never more, and so
// takes about half the time of the fp16 matmul of the same size.
#include <cstdio>

#include "aclnnop/aclnn_quant_matmul_v4.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/aicore/roofline.h"

using namespace aicore_test;

TEST(QuantMatmulRoofline, Int8AtTwiceTheFp16CubeRate) {
  npusim::test::configure("sim.functional=false");
  Session s;
  const int64_t n = 4096;
  DevTensor x1({n, n}, ACL_INT8), x2({n, n}, ACL_INT8), scale({n}, ACL_FLOAT), pertoken({n}, ACL_FLOAT),
      out({n, n}, ACL_FLOAT16);
  const Phase1 p1 = [&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnQuantMatmulV4GetWorkspaceSize(x1.t, x2.t, scale.t, nullptr, pertoken.t, nullptr, false, false,
                                              out.t, ws, ex);
  };
  const double macs = static_cast<double>(n) * n * n, int8Peak = 2 * roofline::cubeMacsPerSec(config());
  const double ratio =
      timedBoundRatio("QuantMatmulV4 int8 4096^3", p1, aclnnQuantMatmulV4, s.stream, macs / int8Peak);
  EXPECT_GE(ratio, 1.0);       // nothing runs faster than the cube
  EXPECT_LE(ratio, 1 / 0.80);  // compute bound: >= 80 % of the int8 peak
  DevTensor a({n, n}, ACL_FLOAT16), b({n, n}, ACL_FLOAT16), c({n, n}, ACL_FLOAT16);
  const double fp16 =
      1e-3 * deviceMs(
                 s.stream, [&] { matmul(a, b, c, s.stream); }, [&] { matmul(a, b, c, s.stream); });
  const double int8 = ratio * macs / int8Peak;
  std::printf("fp16 4096^3 %.1f us, int8 %.1f us (x%.2f)\n", fp16 * 1e6, int8 * 1e6, int8 / fp16);
  EXPECT_NEAR(int8 / fp16, 0.5, 0.1);
}
