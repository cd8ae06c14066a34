// The foreach, optimiser and random engines timed on the simulator against the HBM model's
// streaming time for their bytes (roofline.h, measured on a fresh HbmModel): never faster than
// it and within twice it, as the other multi-pass vector operators (the normal distribution's
// Box-Muller within 2.5 times); and a foreach launch over a
// list of eight tensors faster than eight launches of the same elementwise operator, the saving
// the fused list operators exist for.
#include <cstdio>
#include <memory>
#include <vector>

#include "aclnnop/aclnn_apply_gradient_descent.h"
#include "aclnnop/aclnn_foreach_mul_list.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_normal.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/aicore/roofline.h"

using namespace aicore_test;

namespace {

double seconds(const Phase1& p1, Phase2 p2, aclrtStream s) {
  return 1e-3 * deviceMs(
                    s, [&] { launchOp(p1, p2, s); }, [&] { launchOp(p1, p2, s); });
}

// maxRatio: 2 for the streaming operators; the normal's Box-Muller (20 vector instructions per
// element on a write-only stream) makes it vector-bound at about twice the HBM time.
void withinTwiceTheRoofline(const char* name, double sec, uint64_t readBytes, uint64_t writeBytes,
                            double maxRatio = 2.0) {
  const double bound = roofline::memorySec(config(), readBytes, writeBytes);
  std::printf("%-24s %9.1f us, HBM bound %9.1f us, ratio %.3f\n", name, sec * 1e6, bound * 1e6, sec / bound);
  EXPECT_GE(sec / bound, 1.0) << name;
  EXPECT_LE(sec / bound, maxRatio) << name;
}

// A list of handles over the tensors' memory (the list destroys the handles it holds).
aclTensorList* listOf(const std::vector<std::unique_ptr<DevTensor>>& ts) {
  std::vector<aclTensor*> h;
  for (const auto& d : ts) {
    std::vector<int64_t> st(d->shape.size(), 1);
    for (size_t i = d->shape.size(); i-- > 1;) st[i - 1] = st[i] * d->shape[i];
    h.push_back(aclCreateTensor(d->shape.data(), d->shape.size(), d->dtype, st.data(), 0, ACL_FORMAT_ND,
                                d->shape.data(), d->shape.size(), d->dev));
  }
  return aclCreateTensorList(h.data(), h.size());
}

}  // namespace

TEST(ForeachRoofline, EnginesStreamAtHbmRateAndTheListSavesLaunches) {
  npusim::test::configure("sim.functional=false");
  Session ss;
  aclrtStream s = ss.stream;
  const int entries = 8;
  std::vector<std::unique_ptr<DevTensor>> a, b, o;
  for (int i = 0; i < entries; ++i) {
    a.push_back(std::make_unique<DevTensor>(std::vector<int64_t>{1024, 1024}, ACL_FLOAT16));
    b.push_back(std::make_unique<DevTensor>(std::vector<int64_t>{1024, 1024}, ACL_FLOAT16));
    o.push_back(std::make_unique<DevTensor>(std::vector<int64_t>{1024, 1024}, ACL_FLOAT16));
  }
  const uint64_t X = a[0]->bytes;
  aclTensorList *la = listOf(a), *lb = listOf(b), *lo = listOf(o);
  const double fused =
      seconds([&](uint64_t* ws,
                  aclOpExecutor** ex) { return aclnnForeachMulListGetWorkspaceSize(la, lb, lo, ws, ex); },
              aclnnForeachMulList, s);
  withinTwiceTheRoofline("ForeachMulList x8", fused, 2 * entries * X, entries * X);

  // the same work as eight aclnnMul launches back to back
  const double separate =
      1e-3 * deviceMs(
                 s,
                 [&] {
                   launchOp(
                       [&](uint64_t* ws, aclOpExecutor** ex) {
                         return aclnnMulGetWorkspaceSize(a[0]->t, b[0]->t, o[0]->t, ws, ex);
                       },
                       aclnnMul, s);
                 },
                 [&] {
                   for (int i = 0; i < entries; ++i) {
                     launchOp(
                         [&](uint64_t* ws, aclOpExecutor** ex) {
                           return aclnnMulGetWorkspaceSize(a[static_cast<size_t>(i)]->t,
                                                           b[static_cast<size_t>(i)]->t,
                                                           o[static_cast<size_t>(i)]->t, ws, ex);
                         },
                         aclnnMul, s);
                   }
                 });
  std::printf("8 x aclnnMul %9.1f us, ForeachMulList %9.1f us\n", separate * 1e6, fused * 1e6);
  EXPECT_LT(fused, separate);

  DevTensor var({4096, 1024}, ACL_FLOAT16), delta({4096, 1024}, ACL_FLOAT16), alpha({1}, ACL_FLOAT16);
  withinTwiceTheRoofline("ApplyGradientDescent",
                         seconds(
                             [&](uint64_t* ws, aclOpExecutor** ex) {
                               return aclnnApplyGradientDescentGetWorkspaceSize(var.t, alpha.t, delta.t, ws,
                                                                                ex);
                             },
                             aclnnApplyGradientDescent, s),
                         2 * var.bytes + alpha.bytes, var.bytes);

  DevTensor noise({4096, 1024}, ACL_FLOAT);
  withinTwiceTheRoofline("InplaceNormal",
                         seconds(
                             [&](uint64_t* ws, aclOpExecutor** ex) {
                               return aclnnInplaceNormalGetWorkspaceSize(noise.t, 0, 1, 1, 0, ws, ex);
                             },
                             aclnnInplaceNormal, s),
                         0, noise.bytes, 2.5);
  for (aclTensorList* l : {la, lb, lo}) aclDestroyTensorList(l);
}
