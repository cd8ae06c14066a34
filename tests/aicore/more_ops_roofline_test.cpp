// The memory-bound operators of the second set, timed on the simulator against the HBM model's
// streaming time for their read/write mix (measured on a fresh HbmModel, no number assumed):
// never faster than it; the one-pass ones (fills, Arange, SplitWithSize, IndexSelect,
// Embedding, Gather) within 15 % of the ratio aclnnInplaceCopy reaches on the same model at the
// same size (the AI-core model's launch and pipeline costs keep every operator above the pure
// streaming time at these sizes: docs/operators.md); the multi-pass ones (Mean, Amax, ArgMax,
// LayerNorm, PowTensorScalar) below twice the streaming time. Addmm within its matmul's roofline.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>

#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "aclnnop/aclnn_zero.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/aicore/roofline.h"

using namespace aicore_test;

namespace {

double seconds(const Phase1& p1, Phase2 p2, aclrtStream s) {
  return 1e-3 * deviceMs(
                    s, [&] { launchOp(p1, p2, s); }, [&] { launchOp(p1, p2, s); });
}

// Simulated time over the HBM streaming time of `readBytes` + `writeBytes`.
double ratio(const char* name, const Phase1& p1, Phase2 p2, aclrtStream s, uint64_t readBytes,
             uint64_t writeBytes) {
  const double sec = seconds(p1, p2, s), bound = roofline::memorySec(config(), readBytes, writeBytes);
  std::printf("%-22s %9.1f us, HBM bound %9.1f us, ratio %.3f\n", name, sec * 1e6, bound * 1e6, sec / bound);
  return sec / bound;
}

}  // namespace

TEST(MoreOpsRoofline, MemoryBoundOperatorsStreamAtHbmRate) {
  npusim::test::configure("sim.functional=false");
  Session ss;
  aclrtStream s = ss.stream;
  const int64_t R = 4096, C = 4096;
  DevTensor x({R, C}, ACL_FLOAT16), y({R, C}, ACL_FLOAT16), row({R}, ACL_FLOAT), rowI({R}, ACL_INT32),
      rowH({R}, ACL_FLOAT16), w({C}, ACL_FLOAT16), b({C}, ACL_FLOAT16);
  const uint64_t X = x.bytes;
  int64_t one = 1;
  aclIntArray* dim1 = aclCreateIntArray(&one, 1);
  const double copy = ratio(
      "InplaceCopy (reference)",
      [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceCopyGetWorkspaceSize(y.t, x.t, ws, ex); },
      aclnnInplaceCopy, s, X, X);
  auto multiPass = [](double r) {
    EXPECT_GE(r, 1.0);
    EXPECT_LE(r, 2.0);
  };
  auto near = [copy](double r) {
    EXPECT_GE(r, 1.0);
    EXPECT_LE(r, 1.15 * copy);
  };
  multiPass(ratio(
      "Mean fp16->fp32",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMeanGetWorkspaceSize(x.t, dim1, false, ACL_FLOAT, row.t, ws, ex);
      },
      aclnnMean, s, X, row.bytes));
  multiPass(ratio(
      "Amax",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnAmaxGetWorkspaceSize(x.t, dim1, false, rowH.t, ws, ex);
      },
      aclnnAmax, s, X, rowH.bytes));
  multiPass(ratio(
      "ArgMax",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnArgMaxGetWorkspaceSize(x.t, 1, false, rowI.t, ws, ex);
      },
      aclnnArgMax, s, X, rowI.bytes));
  int64_t c = C;
  aclIntArray* ns = aclCreateIntArray(&c, 1);
  multiPass(ratio(
      "LayerNorm",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnLayerNormGetWorkspaceSize(x.t, ns, w.t, b.t, 1e-5, y.t, nullptr, nullptr, ws, ex);
      },
      aclnnLayerNorm, s, X + w.bytes + b.bytes, X));
  float two = 2.0f;
  aclScalar* e = aclCreateScalar(&two, ACL_FLOAT);
  multiPass(ratio(
      "PowTensorScalar",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnPowTensorScalarGetWorkspaceSize(x.t, e, y.t, ws, ex);
      },
      aclnnPowTensorScalar, s, X, X));
  near(ratio(
      "InplaceZero",
      [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceZeroGetWorkspaceSize(y.t, ws, ex); },
      aclnnInplaceZero, s, 0, X));
  near(ratio(
      "InplaceFillScalar",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnInplaceFillScalarGetWorkspaceSize(y.t, e, ws, ex);
      },
      aclnnInplaceFillScalar, s, 0, X));
  DevTensor seq({R * C / 2}, ACL_FLOAT);
  float f0 = 0, f1 = static_cast<float>(R * C / 2), fs = 1;
  aclScalar *s0 = aclCreateScalar(&f0, ACL_FLOAT), *s1 = aclCreateScalar(&f1, ACL_FLOAT),
            *st = aclCreateScalar(&fs, ACL_FLOAT);
  near(ratio(
      "Arange",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnArangeGetWorkspaceSize(s0, s1, st, seq.t, ws, ex);
      },
      aclnnArange, s, 0, seq.bytes));
  // The list owns its tensors (aclDestroyTensorList destroys them): handles of their own.
  DevTensor q({R, C / 4}, ACL_FLOAT16), kv({R, 3 * C / 4}, ACL_FLOAT16);
  auto handle = [](const DevTensor& d) {
    std::vector<int64_t> st{d.shape[1], 1};
    return aclCreateTensor(d.shape.data(), 2, d.dtype, st.data(), 0, ACL_FORMAT_ND, d.shape.data(), 2, d.dev);
  };
  const aclTensor* parts[] = {handle(q), handle(kv)};
  aclTensorList* list = aclCreateTensorList(parts, 2);
  int64_t sizes[] = {C / 4, 3 * C / 4};
  aclIntArray* sz = aclCreateIntArray(sizes, 2);
  near(ratio(
      "SplitWithSize",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnSplitWithSizeGetWorkspaceSize(x.t, sz, 1, list, ws, ex);
      },
      aclnnSplitWithSize, s, X, X));
  // Embedding: 2048 token rows of a 32000 x 4096 fp16 table (int32 indices).
  DevTensor table({32000, C}, ACL_FLOAT16), tok({2048}, ACL_INT32), emb({2048, C}, ACL_FLOAT16);
  near(ratio(
      "Embedding",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnEmbeddingGetWorkspaceSize(table.t, tok.t, emb.t, ws, ex);
      },
      aclnnEmbedding, s, emb.bytes + tok.bytes, emb.bytes));
  near(ratio(
      "IndexSelect",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnIndexSelectGetWorkspaceSize(table.t, 0, tok.t, emb.t, ws, ex);
      },
      aclnnIndexSelect, s, emb.bytes + tok.bytes, emb.bytes));
  DevTensor gi({R, C}, ACL_INT32), go({R, C}, ACL_FLOAT16);
  near(ratio(
      "Gather",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnGatherGetWorkspaceSize(x.t, 1, gi.t, go.t, ws, ex);
      },
      aclnnGather, s, go.bytes + gi.bytes, go.bytes));
  for (aclScalar* p : {e, s0, s1, st}) aclDestroyScalar(p);
  aclDestroyTensorList(list);
  for (aclIntArray* p : {dim1, ns, sz}) aclDestroyIntArray(p);
}

// Addmm with a bias row costs its matmul (cube roofline) plus the bias reads: within the same
// bounds as Mm of that shape, and never faster than the cube peak.
TEST(MoreOpsRoofline, AddmmStaysOnTheMatmulRoofline) {
  npusim::test::configure("sim.functional=false");
  Session ss;
  const int64_t M = 2048, K = 4096, N = 4096;
  DevTensor a({M, K}, ACL_FLOAT16), b({K, N}, ACL_FLOAT16), bias({N}, ACL_FLOAT16), c({M, N}, ACL_FLOAT16);
  float onef = 1.0f;
  aclScalar* one = aclCreateScalar(&onef, ACL_FLOAT);
  const double sec = seconds(
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnAddmmGetWorkspaceSize(bias.t, a.t, b.t, one, one, c.t, 0, ws, ex);
      },
      aclnnAddmm, ss.stream);
  const double cube =
      static_cast<double>(M * K) * static_cast<double>(N) / roofline::cubeMacsPerSec(config());
  const double mem = roofline::memorySec(config(), a.bytes + b.bytes + bias.bytes, c.bytes);
  const double bound = std::max(cube, mem);
  std::printf("Addmm 2048x4096x4096: %.1f us, bound %.1f us, ratio %.3f\n", sec * 1e6, bound * 1e6,
              sec / bound);
  EXPECT_GE(sec / bound, 1.0);
  EXPECT_LE(sec / bound, 1.3);
  aclDestroyScalar(one);
}
