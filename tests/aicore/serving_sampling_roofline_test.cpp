// The serving-step family (docs/operators/serving_sampling.md) on the simulator. Their cost goes
// through the vector tiling: ScatterList (one pass) takes at least the HBM model's streaming time
// for the bytes it moves (measured on a fresh HbmModel, no number assumed) and stays within 15 %
// of the ratio aclnnInplaceCopy reaches at the same size; DequantSwigluQuant's 8 vector passes
// make it vector-bound: at least the larger of the HBM time and the vector cores' time for the
// vector bytes it charges (vector width x clock x cores from the config), and within the copy's
// overhead ratio of that bound.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_dequant_swiglu_quant.h"
#include "aclnnop/aclnn_scatter_list.h"
#include "runtime/aclnn/base/executor.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/aicore/roofline.h"

using namespace aicore_test;

namespace {

double ratio(const char* name, const Phase1& p1, Phase2 p2, aclrtStream s, uint64_t readBytes,
             uint64_t writeBytes) {
  const double sec = 1e-3 * deviceMs(
                                s, [&] { launchOp(p1, p2, s); }, [&] { launchOp(p1, p2, s); }),
               bound = roofline::memorySec(config(), readBytes, writeBytes);
  std::printf("%-22s %9.1f us, HBM bound %9.1f us, ratio %.3f\n", name, sec * 1e6, bound * 1e6, sec / bound);
  return sec / bound;
}

// Seconds the vector cores need for the vector bytes `p1`'s cost model charges, at the
// configured vector width and clock on every vector core.
double vectorSec(const Phase1& p1) {
  uint64_t ws = 0, bytes = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(p1(&ws, &ex), 0);
  for (const auto& t : npusim::aclnn::executorOp(ex)->work().tiles) bytes += t.vectorBytes;
  aclDestroyAclOpExecutor(ex);
  return static_cast<double>(bytes) /
         (static_cast<double>(config().getInt("aicore.vector_cores")) *
          config().getFloat("aicore.vector_bytes_per_cycle") * config().getFloat("aicore.freq_ghz") * 1e9);
}

}  // namespace

TEST(ServingSamplingRoofline, BoundByHbmOrVectorRate) {
  npusim::test::configure("sim.functional=false");
  Session ss;
  aclrtStream s = ss.stream;
  const int64_t R = 4096, H = 4096;
  DevTensor x({R, H}, ACL_FLOAT16), copyOut({R, H}, ACL_FLOAT16), y({R, H / 2}, ACL_INT8),
      scale({R}, ACL_FLOAT), qs({1}, ACL_FLOAT), qo({1}, ACL_FLOAT);
  const double copy = ratio(
      "InplaceCopy (reference)",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnInplaceCopyGetWorkspaceSize(copyOut.t, x.t, ws, ex);
      },
      aclnnInplaceCopy, s, x.bytes, x.bytes);
  char mode[] = "static";
  const Phase1 dsqPhase1 = [&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnDequantSwigluQuantGetWorkspaceSize(x.t, nullptr, nullptr, nullptr, qs.t, qo.t, nullptr, false,
                                                   mode, y.t, scale.t, ws, ex);
  };
  const double hbm =
      roofline::memorySec(config(), x.bytes + 8, static_cast<uint64_t>(R * H / 2) + scale.bytes);
  const double vec = vectorSec(dsqPhase1);
  const double dsq = ratio("DequantSwigluQuant", dsqPhase1, aclnnDequantSwigluQuant, s, x.bytes + 8,
                           static_cast<uint64_t>(R * H / 2) + scale.bytes);  // y is int8
  std::printf("DequantSwigluQuant vector time %.1f us\n", vec * 1e6);
  EXPECT_GE(dsq * hbm, std::max(hbm, vec));
  EXPECT_LE(dsq * hbm, copy * std::max(hbm, vec));  // vector-bound: its 8 passes outweigh the HBM time
  // ScatterList: 8 vars [2048, 4096] fp16, updates [8, 2048, 512] written at column 1024.
  const int64_t B = 8;
  std::vector<DevTensor*> vars;
  std::vector<aclTensor*> handles;
  for (int64_t b = 0; b < B; ++b) {
    vars.push_back(new DevTensor({2048, H}, ACL_FLOAT16));
    handles.push_back(vars.back()->t);
  }
  DevTensor updates({B, 2048, 512}, ACL_FLOAT16), indice({B}, ACL_INT32);
  aclTensorList* list = aclCreateTensorList(handles.data(), handles.size());
  char update[] = "update";
  const double sl = ratio(
      "ScatterList",
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnScatterListGetWorkspaceSize(list, indice.t, updates.t, nullptr, update, -1, ws, ex);
      },
      aclnnScatterList, s, updates.bytes + indice.bytes, updates.bytes);
  EXPECT_GE(sl, 1.0);
  EXPECT_LE(sl, 1.15 * copy);
  // The list destroys the handles it holds; the DevTensors then free only their memory.
  for (DevTensor* v : vars) v->t = nullptr;
  aclDestroyTensorList(list);
  for (DevTensor* v : vars) delete v;
}
