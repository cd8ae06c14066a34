// The memory-bound operators of a decoder layer, at the layer's prefill shapes (LLaMA-7B, 2048
// tokens, fp16), timed on the simulator against the HBM model's streaming time for their
// read/write mix (roofline.h measures it on a fresh HbmModel: no number assumed). An operator
// also pays the device's fixed per-task cost (sched.dispatch_ns + aicore.task_start_ns, each with
// its source in the preset); what remains must be within 15 % of the streaming time (issue 18).
#include <cstdio>
#include <functional>

#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/aicore/roofline.h"

using namespace aicore_test;

namespace {

// Checks one operator: (device time - fixed task cost) / streaming time within [0.85, 1.15].
void expectStreams(const char* name, aclrtStream s, const Phase1& p1, Phase2 p2, uint64_t readBytes,
                   uint64_t writeBytes) {
  const double sec = 1e-3 * deviceMs(
                                s, [&] { launchOp(p1, p2, s); }, [&] { launchOp(p1, p2, s); });
  const double fixed =
      1e-9 * (config().getFloat("sched.dispatch_ns") + config().getFloat("aicore.task_start_ns"));
  const double bound = roofline::memorySec(config(), readBytes, writeBytes);
  const double r = (sec - fixed) / bound;
  std::printf("%-20s %8.1f us = %.1f fixed + %8.1f; streaming %8.1f us; ratio %.3f\n", name, sec * 1e6,
              fixed * 1e6, (sec - fixed) * 1e6, bound * 1e6, r);
  EXPECT_GE(r, 0.85) << name;
  EXPECT_LE(r, 1.15) << name;
}

}  // namespace

TEST(TransformerOpsRoofline, MemoryBoundOperatorsStreamWithin15PercentOfHbm) {
  npusim::test::configure("sim.functional=false");
  Session ss;
  aclrtStream s = ss.stream;
  const int64_t S = 2048, H = 4096, I = 11008, N = 32, D = 128;
  DevTensor x({S, H}, ACL_FLOAT16), y({S, H}, ACL_FLOAT16), z({S, H}, ACL_FLOAT16);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  expectStreams(
      "Add", s,
      [&](uint64_t* w, aclOpExecutor** e) { return aclnnAddGetWorkspaceSize(x.t, y.t, alpha, z.t, w, e); },
      aclnnAdd, 2 * x.bytes, x.bytes);
  DevTensor g({H}, ACL_FLOAT16), rstd({S, 1}, ACL_FLOAT);
  expectStreams(
      "RmsNorm", s,
      [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnRmsNormGetWorkspaceSize(x.t, g.t, 1e-6, z.t, rstd.t, w, e);
      },
      aclnnRmsNorm, x.bytes + g.bytes, x.bytes + rstd.bytes);
  DevTensor gu({S, 2 * I}, ACL_FLOAT16), act({S, I}, ACL_FLOAT16), act2({S, I}, ACL_FLOAT16);
  expectStreams(
      "SwiGlu", s,
      [&](uint64_t* w, aclOpExecutor** e) { return aclnnSwiGluGetWorkspaceSize(gu.t, -1, act.t, w, e); },
      aclnnSwiGlu, gu.bytes, act.bytes);
  expectStreams(
      "Silu", s,
      [&](uint64_t* w, aclOpExecutor** e) { return aclnnSiluGetWorkspaceSize(act.t, act2.t, w, e); },
      aclnnSilu, act.bytes, act.bytes);
  DevTensor sc({8192, 2048}, ACL_FLOAT16), sc2({8192, 2048}, ACL_FLOAT16);
  expectStreams(
      "Softmax", s,
      [&](uint64_t* w, aclOpExecutor** e) { return aclnnSoftmaxGetWorkspaceSize(sc.t, -1, sc2.t, w, e); },
      aclnnSoftmax, sc.bytes, sc.bytes);
  DevTensor x32({S, H}, ACL_FLOAT);
  expectStreams(
      "Cast fp16->fp32", s,
      [&](uint64_t* w, aclOpExecutor** e) { return aclnnCastGetWorkspaceSize(x.t, ACL_FLOAT, x32.t, w, e); },
      aclnnCast, x.bytes, x32.bytes);
  DevTensor q({1, S, N, D}, ACL_FLOAT16), qo({1, S, N, D}, ACL_FLOAT16), cs({1, S, 1, D}, ACL_FLOAT16);
  expectStreams(
      "RoPE", s,
      [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnRotaryPositionEmbeddingGetWorkspaceSize(q.t, cs.t, cs.t, 0, qo.t, w, e);
      },
      aclnnRotaryPositionEmbedding, q.bytes + 2 * cs.bytes, q.bytes);
  expectStreams(
      "InplaceCopy", s,
      [&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceCopyGetWorkspaceSize(z.t, x.t, w, e); },
      aclnnInplaceCopy, x.bytes, x.bytes);
  aclDestroyScalar(alpha);
}
